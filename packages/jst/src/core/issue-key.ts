import { parseIssueKey } from '@jst/protocol';
import { EXIT, JstError } from './errors.js';

/**
 * An issue key as a person may type it (`abc-12`, ` ABC-12 `) in the tracker's form (`ABC-12`),
 * as the hosted tracker accepts keys in any case. Every command that takes a key argument passes it
 * through here first, so comparisons (`--yes KEY`, a verdict's issue) and printed commands use one
 * spelling. Anything that is not key-shaped (an issue id such as `10001`) is left as typed, for the
 * tracker to answer.
 */
export function issueKeyArg(raw: string): string {
  const t = raw.trim();
  return parseIssueKey(t)?.key ?? t;
}

/** An issue key argument that must be a key (not an id): normalised, or a usage error (exit 2). */
export function requireIssueKey(raw: string): string {
  const key = parseIssueKey(raw.trim())?.key;
  if (key === undefined) throw new JstError({ code: 'USAGE', exitCode: EXIT.usage, problem: `"${raw}" is not an issue key (PROJECT-123)` });
  return key;
}
