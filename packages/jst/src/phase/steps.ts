import type { Context } from '../core/context.js';
import { EXIT } from '../core/errors.js';
import { note, yellow, type Outcome } from '../core/output.js';

/** Each step on stderr as it runs (ARCHITECTURE §11), cleaned as all text mode is; warnings are collected for the result too. */
export function stepper(ctx: Context): { say: (l: string) => void; warn: (l: string) => void; warnings: string[] } {
  const warnings: string[] = [];
  const say = (l: string) => {
    note(ctx.io, l);
  };
  return {
    say,
    warnings,
    warn: (l) => {
      warnings.push(l);
      say(yellow(ctx.io, `! ${l}`));
    },
  };
}

/** The one output of a command: its JSON, and its text lines then the hand-off (output.ts emit prints one). */
export function finish<T>(result: T, text: string[], next: string[], code: number = EXIT.ok): Outcome<T> {
  const out = [...text];
  if (next.length) out.push('', 'Next:', ...next.map((n) => `  ${n}`));
  return { json: result, text: `${out.join('\n')}\n`, code };
}
