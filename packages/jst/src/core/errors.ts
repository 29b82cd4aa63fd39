import { CallLimitError, RuleStop, TrackerHttpError, TrackerNetworkError, TrackerResponseError, TrackerShapeError } from '@jst/client';
import { JstError } from '../config/index.js';

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
