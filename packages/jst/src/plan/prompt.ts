import { createInterface, type Interface } from 'node:readline/promises';
import { JstError } from '../config/index.js';
import type { Io } from '../context.js';
import { EXIT } from '../exit.js';

/**
 * The questions phase 1 may ask (ARCHITECTURE §7). On a terminal they are asked; otherwise (no
 * TTY, or a plan file) the run ends with exit 3 and the question on stderr, having created nothing.
 */
export class Prompter {
  private rl: Interface | undefined;
  constructor(private readonly io: Io, readonly interactive: boolean) {}

  private line(): Interface {
    this.rl ??= createInterface({ input: this.io.stdin, output: this.io.stderr as NodeJS.WritableStream });
    return this.rl;
  }

  /** A question that must be answered (exit 3 when nobody can answer it). */
  async ask(question: string, hint?: string): Promise<string> {
    if (!this.interactive) throw needsAnswer(question, hint);
    for (;;) {
      const answer = (await this.line().question(`${question} `)).trim();
      if (answer) return answer;
    }
  }

  /** Several lines, ended by an empty line. */
  async askList(question: string, hint?: string): Promise<string[]> {
    if (!this.interactive) throw needsAnswer(question, hint);
    this.io.stderr.write(`${question} (one per line, an empty line ends the list)\n`);
    const items: string[] = [];
    for (;;) {
      const answer = (await this.line().question('  - ')).trim();
      if (!answer) { if (items.length) return items; continue; }
      items.push(answer);
    }
  }

  async yesNo(question: string, hint?: string): Promise<boolean> {
    if (!this.interactive) throw needsAnswer(question, hint);
    const answer = (await this.line().question(`${question} [y/N] `)).trim().toLowerCase();
    return answer === 'y' || answer === 'yes';
  }

  close(): void { this.rl?.close(); }
}

export function needsAnswer(question: string, hint?: string): JstError {
  return new JstError({ code: 'QUESTION', exitCode: EXIT.question, problem: `a question needs an answer: ${question}`, hint: hint ?? 'Run jst plan on a terminal, or give the answer in the plan file (--plan)' });
}

/** A gate said no (ARCHITECTURE §7: exit 2, nothing created). */
export function refused(problem: string, hint?: string): JstError {
  return new JstError({ code: 'PLAN_REFUSED', exitCode: EXIT.usage, problem, ...(hint ? { hint } : {}) });
}
