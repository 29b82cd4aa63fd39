import type { Io } from './context.js';
import { cutText, ERROR_MAX, terminalText } from './text.js';

export { cutText, quoted, terminalText } from './text.js';

export function printJson(io: Io, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** One line of text mode: its control characters removed (ARCHITECTURE §11), jst's colours kept. */
export function line(io: Io, text = ''): void {
  io.stdout.write(`${terminalText(text, io.color)}\n`);
}

/** A progress or warning line on stderr, as `line` cleans it. */
export function note(io: Io, text: string): void {
  io.stderr.write(`${terminalText(text, io.color)}\n`);
}

/** The error line of a failed run (`jst: …` on stderr): no control characters, at most ERROR_MAX characters. */
export function errorLine(message: string): string {
  return `jst: ${cutText(terminalText(message), ERROR_MAX)}\n`;
}

const paint = (code: string) => (io: Io, text: string) => (io.color ? `\u001b[${code}m${text}\u001b[0m` : text);
export const bold = paint('1');
export const dim = paint('2');
export const green = paint('32');
export const yellow = paint('33');
export const red = paint('31');

/** Rows as aligned columns for a terminal. */
export function table(rows: string[][]): string {
  const widths: number[] = [];
  for (const r of rows)
    r.forEach((c, i) => {
      widths[i] = Math.max(widths[i] ?? 0, c.length);
    });
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ')).join('\n');
}

/**
 * What a command produced, before anything is printed (docs/style.md "One command, three faces"): its
 * `--json` value, its human text (exactly what the CLI prints without --json) and its exit code.
 * The CLI prints one of the two forms; `jst mcp` returns both as a tool result.
 */
export interface Outcome<T = unknown> {
  json: T;
  text: string;
  code: number;
}

/**
 * The CLI face of an outcome: the JSON (two-space indent; JSON escapes every control character
 * itself) or the text with its control characters removed, then the exit code.
 */
export function emit(io: Io, out: Outcome, asJson: boolean): number {
  if (asJson ? out.json !== undefined : out.text !== '') io.stdout.write(asJson ? `${JSON.stringify(out.json, null, 2)}\n` : terminalText(out.text, io.color));
  return out.code;
}

/**
 * The outcome of a run that wrote as it went, through `ctx.io` (a streaming command: `jst dispatch`,
 * `jst mcp`, `jst batch`; or a question left on stderr): nothing more to print, only the exit code.
 */
export function printed(code: number): Outcome<undefined> {
  return { json: undefined, text: '', code };
}
