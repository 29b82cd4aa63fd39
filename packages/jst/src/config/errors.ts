/** Exit code for a usage or configuration error (ARCHITECTURE §3: 2 = usage or configuration). */
export const EXIT_USAGE = 2;

export interface JstErrorOptions {
  /** Stable machine-readable code, e.g. `CONFIG_MISSING`. */
  code: string;
  /** What was wrong, as a sentence without a trailing period. Never include a token value. */
  problem: string;
  /** What to do about it. */
  hint?: string | undefined;
  file?: string | undefined;
  line?: number | undefined;
  setting?: string | undefined;
  exitCode?: number | undefined;
  cause?: unknown;
}

/**
 * The one error type the toolkit shows to a user (docs/style.md "Types and errors").
 * The message is complete on its own — what was wrong, where (file, setting) and what to do —
 * so the single place that prints errors never has to assemble context from deep inside.
 */
export class JstError extends Error {
  readonly code: string;
  readonly exitCode: number;
  readonly problem: string;
  readonly hint: string | undefined;
  readonly file: string | undefined;
  readonly line: number | undefined;
  readonly setting: string | undefined;

  constructor(options: JstErrorOptions) {
    super(composeMessage(options), options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'JstError';
    this.code = options.code;
    this.exitCode = options.exitCode ?? EXIT_USAGE;
    this.problem = options.problem;
    this.hint = options.hint;
    this.file = options.file;
    this.line = options.line;
    this.setting = options.setting;
  }
}

/** `file:line` when the line is known, else the file. */
export function fileLocation(file: string, line?: number): string {
  return line === undefined ? file : `${file}:${line}`;
}

// The contract says every message names its file and setting; callers usually weave them into the
// sentence, and this adds whatever they left out so no message can silently lose its location.
function composeMessage(o: JstErrorOptions): string {
  const missing: string[] = [];
  if (o.setting !== undefined && !o.problem.includes(o.setting)) missing.push(`setting ${o.setting}`);
  if (o.file !== undefined) {
    const where = fileLocation(o.file, o.line);
    if (!o.problem.includes(where)) missing.push(`in ${where}`);
  }
  const what = missing.length > 0 ? `${o.problem} (${missing.join(', ')})` : o.problem;
  return o.hint === undefined ? what : joinSentences(what, o.hint);
}

export function isJstError(value: unknown): value is JstError {
  return value instanceof JstError;
}

/**
 * Two sentences as one message: a full stop between them unless the first already ends in
 * punctuation (issue 14: no "?." or ".."). The client composes its own messages the same way;
 * jst's settings depend on no client code, so this is jst's copy of the rule.
 */
export function joinSentences(first: string, second: string): string {
  if (second === '') return first;
  if (first === '') return second;
  return /[.?!:;]$/.test(first.trimEnd()) ? `${first.trimEnd()} ${second}` : `${first}. ${second}`;
}
