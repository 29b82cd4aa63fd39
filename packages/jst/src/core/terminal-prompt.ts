import { createInterface, type Interface } from 'node:readline';
import type { Context, Io } from './context.js';
import { EXIT, JstError, cancelledError } from './errors.js';
import type { AskOptions, Prompt } from './prompt.js';

export type { AskOptions, Prompt, YesNoOptions } from './prompt.js';

/**
 * The context's prompt (the MCP adapter's), else the terminal's. `onCancel` is what a person who
 * presses Ctrl-C at one of its questions is told: what the command has (not) done and how to go on,
 * in the words of the command that asked.
 */
export function promptFor(ctx: Context, interactive: boolean, onCancel: string): Prompt {
  return ctx.prompt ? ctx.prompt(interactive) : new Prompter(ctx.io, interactive, onCancel);
}

/**
 * The questions phase 1 may ask (ARCHITECTURE §7). On a terminal they are asked; otherwise (no
 * TTY, or a plan file) the run ends with exit 3 and the question on stderr, having created nothing.
 * Lines typed ahead of a question are kept for it, not dropped; input that ends unanswered is a
 * question left open (exit 3), never a hang; Ctrl-C at a question is a cancel (exit 130).
 */
export class Prompter implements Prompt {
  private rl: Interface | undefined;
  private readonly queue: string[] = [];
  private waiting: { resolve: (line: string) => void; reject: (e: Error) => void; question: string } | undefined;
  private ended = false;

  constructor(
    private readonly io: Io,
    readonly interactive: boolean,
    private readonly onCancel: string,
  ) {}

  private open(): Interface {
    if (!this.rl) {
      this.rl = createInterface({ input: this.io.stdin, output: this.io.stderr as NodeJS.WritableStream });
      this.rl.on('line', (line) => {
        const w = this.waiting;
        if (w) {
          this.waiting = undefined;
          w.resolve(line);
        } else this.queue.push(line);
      });
      // A person's Ctrl-C: the terminal gives readline the key, not a signal to the process.
      this.rl.on('SIGINT', () => {
        this.io.stderr.write('\n');
        const w = this.waiting;
        if (w) {
          this.waiting = undefined;
          w.reject(cancelledError(w.question, this.onCancel));
          return;
        }
        // Between questions (a check or a call running): stop as Ctrl-C always does.
        this.rl?.close();
        process.kill(process.pid, 'SIGINT');
      });
      this.rl.on('close', () => {
        this.ended = true;
        const w = this.waiting;
        if (w) {
          this.waiting = undefined;
          w.reject(inputEnded(w.question));
        }
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
    if (this.ended) return Promise.reject(inputEnded(prompt.trim()));
    return new Promise((resolve, reject) => {
      this.waiting = { resolve: (l) => resolve(l.trim()), reject, question: prompt.trim() };
    });
  }

  /**
   * A question that must be answered (exit 3 when nobody can answer it). The question is printed
   * once; an empty or refused answer is asked for again with a short `>` line, not the whole text.
   */
  async ask(question: string, hint?: string, o: AskOptions = {}): Promise<string> {
    if (!this.interactive) throw needsAnswer(question, hint);
    let prompt = `${question}${o.default !== undefined ? ` [${o.default}]` : ''} `;
    for (;;) {
      const answer = (await this.read(prompt)) || o.default || '';
      const problem = answer === '' ? 'an answer is needed' : (o.check?.(answer) ?? null);
      if (problem === null) return answer;
      prompt = `  (${problem}) > `;
    }
  }

  /** Waits for Enter (any answer, an empty one included): for "do this, then press Enter". */
  async pause(message: string, hint?: string): Promise<void> {
    if (!this.interactive) throw needsAnswer(message, hint);
    await this.read(`${message} `);
  }

  /** Several lines, ended by an empty line. */
  async askList(question: string, hint?: string): Promise<string[]> {
    if (!this.interactive) throw needsAnswer(question, hint);
    this.io.stderr.write(`${question} (one per line, an empty line ends the list)\n`);
    const items: string[] = [];
    for (;;) {
      const answer = await this.read('  - ');
      if (!answer) {
        if (items.length) return items;
        continue;
      }
      items.push(answer);
    }
  }

  /** A bare Enter is the offered default, No. */
  async yesNo(question: string, hint?: string): Promise<boolean> {
    if (!this.interactive) throw needsAnswer(question, hint);
    const answer = (await this.read(`${question} [y/N] `)).toLowerCase();
    return answer === 'y' || answer === 'yes';
  }

  close(): void {
    this.rl?.close();
  }
}

export function needsAnswer(question: string, hint?: string): JstError {
  return new JstError({
    code: 'QUESTION',
    exitCode: EXIT.question,
    problem: `a question needs an answer: ${question}`,
    hint: hint ?? 'Run jst plan on a terminal, or give the answer in the plan file (--plan)',
  });
}

function inputEnded(question: string): JstError {
  return needsAnswer(question, 'The input ended before the question was answered');
}

/** A gate said no (ARCHITECTURE §7: exit 2, nothing created). */
export function refused(problem: string, hint?: string): JstError {
  return new JstError({ code: 'PLAN_REFUSED', exitCode: EXIT.usage, problem, ...(hint ? { hint } : {}) });
}
