import { createInterface, type Interface } from 'node:readline';
import { JstError } from '../config/index.js';
import type { Context, Io } from '../context.js';
import { EXIT } from '../exit.js';

/**
 * How a command asks the person (STYLE.md: injected, never global). `interactive` = a person sits
 * at a terminal, so the clarify loop and the final confirmation run; `ask` and `yesNo` may still be
 * answered when it is false (`jst mcp` asks through MCP elicitation) or throw `needsAnswer`.
 */
export interface Prompt {
  readonly interactive: boolean;
  ask(question: string, hint?: string): Promise<string>;
  askList(question: string, hint?: string): Promise<string[]>;
  yesNo(question: string, hint?: string): Promise<boolean>;
  close(): void;
}

/** The context's prompt (the MCP adapter's), else the terminal's. */
export function promptFor(ctx: Context, interactive: boolean): Prompt {
  return ctx.prompt ? ctx.prompt(interactive) : new Prompter(ctx.io, interactive);
}

/**
 * The questions phase 1 may ask (ARCHITECTURE §7). On a terminal they are asked; otherwise (no
 * TTY, or a plan file) the run ends with exit 3 and the question on stderr, having created nothing.
 * Lines typed ahead of a question are kept for it, not dropped; input that ends unanswered is a
 * question left open (exit 3), never a hang.
 */
export class Prompter implements Prompt {
  private rl: Interface | undefined;
  private readonly queue: string[] = [];
  private waiting: { resolve: (line: string) => void; reject: (e: Error) => void; question: string } | undefined;
  private ended = false;

  constructor(private readonly io: Io, readonly interactive: boolean) {}

  private open(): Interface {
    if (!this.rl) {
      this.rl = createInterface({ input: this.io.stdin, output: this.io.stderr as NodeJS.WritableStream });
      this.rl.on('line', (line) => {
        const w = this.waiting;
        if (w) { this.waiting = undefined; w.resolve(line); } else this.queue.push(line);
      });
      this.rl.on('close', () => {
        this.ended = true;
        const w = this.waiting;
        if (w) { this.waiting = undefined; w.reject(needsAnswer(w.question, 'The input ended before the question was answered')); }
      });
    }
    return this.rl;
  }

  private read(prompt: string): Promise<string> {
    const rl = this.open();
    rl.setPrompt(prompt);
    rl.prompt();
    const typed = this.queue.shift();
    if (typed !== undefined) return Promise.resolve(typed.trim());
    if (this.ended) return Promise.reject(needsAnswer(prompt.trim(), 'The input ended before the question was answered'));
    return new Promise((resolve, reject) => { this.waiting = { resolve: (l) => resolve(l.trim()), reject, question: prompt.trim() }; });
  }

  /** A question that must be answered (exit 3 when nobody can answer it). */
  async ask(question: string, hint?: string): Promise<string> {
    if (!this.interactive) throw needsAnswer(question, hint);
    for (;;) {
      const answer = await this.read(`${question} `);
      if (answer) return answer;
    }
  }

  /** Several lines, ended by an empty line. */
  async askList(question: string, hint?: string): Promise<string[]> {
    if (!this.interactive) throw needsAnswer(question, hint);
    this.io.stderr.write(`${question} (one per line, an empty line ends the list)\n`);
    const items: string[] = [];
    for (;;) {
      const answer = await this.read('  - ');
      if (!answer) { if (items.length) return items; continue; }
      items.push(answer);
    }
  }

  async yesNo(question: string, hint?: string): Promise<boolean> {
    if (!this.interactive) throw needsAnswer(question, hint);
    const answer = (await this.read(`${question} [y/N] `)).toLowerCase();
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
