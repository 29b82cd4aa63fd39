import { adfToText } from '@jst/adf';
import { latestVerdictComment, type RoleComments, type VerdictKind } from './markers.js';

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
 * the same text by anyone else is an ordinary comment. Null when the reviewer left none, or when
 * the account cannot be resolved (then nothing is shown rather than a guess: phase/roles.ts).
 */
export function reviewerVerdict(reviewer: RoleComments<'reviewer'>): ShownVerdict | null {
  const found = latestVerdictComment(reviewer);
  if (!found) return null;
  const { verdict: v, comment: c } = found;
  return {
    kind: v.kind,
    line: v.line,
    summary: v.summary,
    from: c.author?.displayName ?? c.author?.emailAddress ?? 'the reviewer',
    created: c.created ?? null,
    body: adfToText(c.body).split('\n').slice(1).join('\n').trim(),
    commentId: c.id,
  };
}

/** The lines that show a verdict asking for changes, before the task memory (`jst start`, `issue_view`). */
export function changesRequestedLines(v: ShownVerdict, indent = '  '): string[] {
  return [
    `Changes requested by ${v.from}${v.created ? ` (${v.created})` : ''}:`,
    `${indent}${v.line}`,
    ...(v.body ? v.body.split('\n').map((l) => `${indent}${l}`) : []),
  ];
}
