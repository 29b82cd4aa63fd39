import { CallLimitError, RuleStop, TrackerHttpError, TrackerNetworkError, TrackerResponseError, TrackerShapeError } from '@jst/client';

/**
 * jst's one errors module (docs/style.md "Types and errors"): the error type a user sees, every
 * factory that makes one, and the exit codes with the one place that maps a failure to them
 * (ARCHITECTURE §3, §7, §11). Imports no other module of jst, so every layer can use it.
 */

/**
 * Exit codes are part of the contract (ARCHITECTURE §3, §7, §11); this is the one place that maps
 * them. §11 puts "the tracker or code host said no" at 1, so finer causes are not new exit codes
 * but the machine-readable `code` of a `--json` error (README "Error codes").
 */
export const EXIT = {
  ok: 0,
  /** An HTTP error from the tracker or code host, a healthcheck FAIL, a rule stop. */
  failed: 1,
  /** Usage or configuration, or run in the wrong place. */
  usage: 2,
  /** A question that would be asked, in a non-interactive run (input that ended unanswered, or an explicit yes missing). */
  question: 3,
  /** A person pressed Ctrl-C at a question: a cancel, as a shell reports SIGINT (128 + 2). */
  cancelled: 130,
} as const;

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
    this.exitCode = options.exitCode ?? EXIT.usage;
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

/** Exit code for a usage or configuration error (ARCHITECTURE §3: 2 = usage or configuration). */
export const EXIT_USAGE = EXIT.usage;

/** Usage, configuration, or run in the wrong place (exit 2). */
export function usage(code: string, problem: string, hint?: string): JstError {
  return new JstError({ code, exitCode: EXIT.usage, problem, ...(hint ? { hint } : {}) });
}

/** A rule or the person said no (exit 1). */
export function refuse(code: string, problem: string, hint?: string): JstError {
  return new JstError({ code, exitCode: EXIT.failed, problem, ...(hint ? { hint } : {}) });
}

/** A usage error (exit 2) from a spec's own input checks. */
export const usageError = (problem: string, hint?: string) => usage('USAGE', problem, hint);

export function exitCodeFor(error: unknown): number {
  if (error instanceof JstError) return error.exitCode;
  // A JstError from another bundle (dist/mcp.cjs carries its own copy of the class).
  if (error instanceof Error && error.name === 'JstError' && typeof (error as { exitCode?: unknown }).exitCode === 'number')
    return (error as unknown as { exitCode: number }).exitCode;
  if (error instanceof TrackerHttpError || error instanceof TrackerNetworkError || error instanceof RuleStop) return EXIT.failed;
  return EXIT.failed;
}

export function messageFor(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

/** A person's Ctrl-C at a question (EXIT.cancelled): says where, and what was (not) done. */
export function cancelledError(question: string, hint: string): JstError {
  return new JstError({ code: 'CANCELLED', exitCode: EXIT.cancelled, problem: `cancelled (Ctrl-C) at the question: ${question}`, hint });
}

/** The `code` of a `--json` error: one word a script can branch on. */
export type ErrorCode =
  | 'usage'
  | 'config'
  | 'question'
  | 'refused'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'rate_limited'
  | 'timeout'
  | 'too_large'
  | 'network'
  | 'git'
  | 'http_error'
  | 'cancelled'
  | 'failed';

function byStatus(status: number): ErrorCode {
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 409 || status === 422) return 'conflict';
  if (status === 429) return 'rate_limited';
  return 'http_error';
}

export function errorCodeFor(error: unknown): ErrorCode {
  if (error instanceof TrackerHttpError) return byStatus(error.status);
  if (error instanceof TrackerNetworkError) return 'network';
  if (error instanceof CallLimitError) return error.limit === 'timeout' ? 'timeout' : 'too_large';
  if (error instanceof TrackerResponseError || error instanceof TrackerShapeError) return 'http_error';
  if (error instanceof RuleStop) return 'refused';
  if (error instanceof JstError) {
    const failure = (error as JstError & { failure?: unknown }).failure;
    if (typeof failure === 'string') return failure as ErrorCode; // a CodehostError
    if (error.exitCode === EXIT.question) return 'question';
    if (error.exitCode === EXIT.cancelled) return 'cancelled';
    if (error.code.startsWith('GIT_')) return 'git';
    if (error.code.startsWith('CONFIG') || error.code.endsWith('_CONFIG') || error.setting !== undefined)
      return error.exitCode === EXIT.usage ? 'config' : 'refused';
    if (error.exitCode === EXIT.usage) return 'usage';
    return error.code.endsWith('_NOT_FOUND') ? 'not_found' : 'refused';
  }
  return 'failed';
}

/** `{"error": {code, exitCode, message}}`: what a `--json` run prints on stdout when it fails. */
export function jsonError(error: unknown, message: string): string {
  return `${JSON.stringify(errorObject(error, message), null, 2)}\n`;
}

/** The value of that `--json` error (also the structured content of a `jst mcp` refusal). */
export function errorObject(error: unknown, message: string): { error: { code: ErrorCode; exitCode: number; message: string } } {
  return { error: { code: errorCodeFor(error), exitCode: exitCodeFor(error), message } };
}
