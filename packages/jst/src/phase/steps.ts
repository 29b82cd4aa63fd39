import type { Context } from '../context.js';
import { yellow } from '../output.js';

/** Each step on stderr as it runs (ARCHITECTURE §11); warnings are collected for the result too. */
export function stepper(ctx: Context): { say: (l: string) => void; warn: (l: string) => void; warnings: string[] } {
  const warnings: string[] = [];
  const say = (l: string) => { ctx.io.stderr.write(`${l}\n`); };
  return { say, warnings, warn: (l) => { warnings.push(l); say(yellow(ctx.io, `! ${l}`)); } };
}

/** The one output of a command: JSON, or the text lines then the hand-off. */
export function finish(ctx: Context, json: boolean | undefined, result: unknown, text: string[], next: string[]): void {
  if (json) { ctx.io.stdout.write(`${JSON.stringify(result, null, 2)}\n`); return; }
  const out = [...text];
  if (next.length) out.push('', 'Next:', ...next.map((n) => `  ${n}`));
  ctx.io.stdout.write(`${out.join('\n')}\n`);
}
