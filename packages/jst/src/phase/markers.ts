import { adfToPlainText, textToAdf, type AdfDoc } from '@jst/adf';
import type { Comment } from '@jst/client';

/**
 * The first lines phases 2 and 3 write (ARCHITECTURE §11), and how they are read back: one place
 * for each literal, so a writer and its reader can never disagree.
 */
export const TASK_MEMORY = 'Task memory';
export const RUN_REPORT = 'Run report';
export const REVIEW_TALLY = 'Review tally';
export const APPROVED = 'APPROVED — ';
export const CHANGES_REQUESTED = 'CHANGES REQUESTED — ';

export type VerdictKind = 'approved' | 'changes-requested';

export interface Verdict { kind: VerdictKind; summary: string; line: string }

export const verdictLine = (kind: VerdictKind, summary: string) => `${kind === 'approved' ? APPROVED : CHANGES_REQUESTED}${summary}`;

/** The verdict a text's first line states, or null (a review body or an issue comment alike). */
export function verdictOf(text: string): Verdict | null {
  const line = (text.split(/\r?\n/, 1)[0] ?? '').trim();
  if (line.startsWith(APPROVED)) return { kind: 'approved', summary: line.slice(APPROVED.length).trim(), line };
  if (line.startsWith(CHANGES_REQUESTED)) return { kind: 'changes-requested', summary: line.slice(CHANGES_REQUESTED.length).trim(), line };
  return null;
}

export const commentPlain = (c: Comment): string => adfToPlainText(c.body);

export const firstLine = (text: string): string => (text.split(/\r?\n/, 1)[0] ?? '').trim();

/** Comments whose first line is exactly `marker`, oldest first. */
export function markedComments(comments: Comment[], marker: string): { comment: Comment; text: string }[] {
  return comments.map((comment) => ({ comment, text: commentPlain(comment) })).filter((c) => firstLine(c.text) === marker);
}

/** The newest verdict among an issue's comments. */
export function latestVerdict(comments: Comment[]): Verdict | null {
  let found: Verdict | null = null;
  for (const c of comments) found = verdictOf(commentPlain(c)) ?? found;
  return found;
}

/** A comment body: the marker line, then the text (plain: one paragraph per line, nothing interpreted). */
export function markedBody(marker: string, rest: string[]): { text: string; adf: AdfDoc } {
  const text = [marker, ...rest].join('\n').replace(/\n{3,}/g, '\n\n').trimEnd();
  return { text, adf: textToAdf(text) };
}
