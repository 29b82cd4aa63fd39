import { JstError } from '../config/index.js';
import { EXIT } from './errors.js';

/** An issue key in the tracker's form: the project key in capitals, a dash, a number (PROJECT-123). */
export const ISSUE_KEY = /^[A-Z][A-Z0-9_]*-[1-9][0-9]*$/;

/**
 * An issue key as a person may type it (`abc-12`, ` ABC-12 `) in the tracker's form (`ABC-12`),
 * as the hosted tracker accepts keys in any case. Every command that takes a key argument passes it
 * through here first, so comparisons (`--yes KEY`, a verdict's issue) and printed commands use one
 * spelling. Anything that is not key-shaped (an issue id such as `10001`) is left as typed, for the
 * tracker to answer.
 */
export function issueKeyArg(raw: string): string {
  const t = raw.trim();
  const upper = t.toUpperCase();
  return ISSUE_KEY.test(upper) ? upper : t;
}

/** An issue key argument that must be a key (not an id): normalised, or a usage error (exit 2). */
export function requireIssueKey(raw: string): string {
  const key = issueKeyArg(raw);
  if (!ISSUE_KEY.test(key)) throw new JstError({ code: 'USAGE', exitCode: EXIT.usage, problem: `"${raw}" is not an issue key (PROJECT-123)` });
  return key;
}
