import { RuleStop, TrackerHttpError, TrackerNetworkError } from '@jst/client';
import { JstError } from './config/index.js';

/** Exit codes are part of the contract (ARCHITECTURE §3, §7); this is the one place that maps them. */
export const EXIT = {
  ok: 0,
  /** An HTTP error from the tracker, a healthcheck FAIL, a rule stop. */
  failed: 1,
  /** Usage or configuration. */
  usage: 2,
  /** A question that would be asked, in a non-interactive run (or input that ended unanswered). */
  question: 3,
  /** A person pressed Ctrl-C at a question: a cancel, as a shell reports SIGINT (128 + 2). */
  cancelled: 130,
} as const;

export function exitCodeFor(error: unknown): number {
  if (error instanceof JstError) return error.exitCode;
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
