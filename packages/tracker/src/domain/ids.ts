import { createHash } from 'node:crypto';
import { parseIssueKey as parseKey } from '@jst/protocol';

/**
 * Public ids are strings of numbers as Jira's are ("10001"); rows are numbered from 1, so the
 * offset keeps them in Jira's familiar range without a dialect-specific sequence start.
 */
export const ID_OFFSET = 10000;
/** Row ids and issue numbers are 32-bit integer columns: a larger number names nothing (and must not reach PostgreSQL). */
const MAX_INT4 = 2 ** 31 - 1;
export const publicId = (rowId: number) => String(rowId + ID_OFFSET);

/** Row id from a public id, or null when the text is not one. */
export function rowIdOf(publicText: string): number | null {
  if (!/^\d{1,15}$/.test(publicText)) return null;
  const n = Number(publicText) - ID_OFFSET;
  return n > 0 && n <= MAX_INT4 ? n : null;
}

/** An opaque, stable account id (24 hex digits like Atlassian's), derived from site and e-mail. */
export function accountIdFor(cloudId: string, email: string): string {
  return createHash('sha256').update(`${cloudId}\0${email.toLowerCase()}`).digest('hex').slice(0, 24);
}

/** `ABC-12` (in any letter case, @jst/protocol's grammar) → { projectKey: 'ABC', number: 12 }; a number no issue can have is null. */
export function parseIssueKey(text: string): { projectKey: string; number: number } | null {
  const key = parseKey(text);
  return key && key.number <= MAX_INT4 ? { projectKey: key.projectKey, number: key.number } : null;
}

/** Jira's wire format for dates: `2021-01-17T12:34:00.000+0000`. */
export function jiraDate(iso: string): string {
  return iso.replace(/Z$/, '+0000');
}
