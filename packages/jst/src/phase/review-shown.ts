import { adfToText } from '@jst/adf';
import { accountIdByEmail, type Comment, type TrackerClient } from '@jst/client';
import type { JstConfig } from '../config/index.js';
import { commentPlain, verdictOf, type VerdictKind } from './markers.js';

/** The newest verdict the reviewer's account left on an issue, as the executor is shown it. */
export interface ShownVerdict {
  kind: VerdictKind;
  /** `CHANGES REQUESTED — S` / `APPROVED — S`. */
  line: string;
  summary: string;
  /** The reviewer's display name (or e-mail when the tracker shows none). */
  from: string;
  created: string | null;
  /** The rest of the comment after the verdict line, rendered as terminal text. */
  body: string;
  commentId: string;
}

/**
 * ARCHITECTURE §11: a verdict counts only from the reviewer's account (`TRACKER_REVIEWER_EMAIL`);
 * the same text by anyone else is an ordinary comment. The account is looked up by e-mail with the
 * caller's own credential (a tracker shows an e-mail to its owner only). Null when the reviewer
 * left none, or when the account cannot be found (then nothing is shown rather than a guess).
 */
export async function reviewerVerdict(client: TrackerClient, config: JstConfig, comments: Comment[]): Promise<ShownVerdict | null> {
  const email = config.settings.TRACKER_REVIEWER_EMAIL?.value;
  if (!email || !comments.some((c) => verdictOf(commentPlain(c)) !== null)) return null;
  let reviewer: string;
  try { reviewer = await accountIdByEmail(client, email); } catch { return null; }
  let found: ShownVerdict | null = null;
  for (const c of comments) {
    if (c.author?.accountId !== reviewer) continue;
    const v = verdictOf(commentPlain(c));
    if (!v) continue;
    const text = adfToText(c.body);
    found = {
      kind: v.kind, line: v.line, summary: v.summary,
      from: c.author.displayName ?? email,
      created: c.created ?? null,
      body: text.split('\n').slice(1).join('\n').trim(),
      commentId: c.id,
    };
  }
  return found;
}

/** The lines that show a verdict asking for changes, before the task memory (`jst start`, `issue_view`). */
export function changesRequestedLines(v: ShownVerdict, indent = '  '): string[] {
  return [
    `Changes requested by ${v.from}${v.created ? ` (${v.created})` : ''}:`,
    `${indent}${v.line}`,
    ...(v.body ? v.body.split('\n').map((l) => `${indent}${l}`) : []),
  ];
}
