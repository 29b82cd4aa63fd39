import { adfToPlainText, textToAdf, type AdfDoc } from '@jst/adf';
import type { Comment } from '@jst/client';
import { textDocument } from './document.js';

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

/** The free text a person wrote for a comment, and whether they asked for it to be read as Markdown. */
export interface WrittenBody { text: string; markdown: boolean; what: string }

/**
 * A comment body: the marker line and the fixed lines, literal (one paragraph per line, so the
 * marker stays the first line whatever follows), then the person's text — literal too, or
 * CommonMark made into ADF nodes when they asked with `--markdown` (ARCHITECTURE §11).
 */
export function markedBody(marker: string, lines: string[], body?: WrittenBody | null): { text: string; adf: AdfDoc } {
  const head = [marker, ...lines].join('\n');
  const text = (body ? `${head}\n\n${body.text}` : head).replace(/\n{3,}/g, '\n\n').trimEnd();
  if (!body?.markdown) return { text, adf: textToAdf(text) };
  const fixed = textToAdf(head);
  return { text, adf: { ...fixed, content: [...fixed.content, ...textDocument(body.text, true, body.what).content] } };
}
