import { adfToPlainText, textToAdf, type AdfDoc } from '@jst/adf';
import type { Comment } from '@jst/client';
import { firstLine, MARKER_ROLE, verdictOf, type Marker, type Verdict } from '@jst/protocol';
import type { Role } from '../config/index.js';
import { textDocument } from './document.js';

/**
 * The first lines phases 2 and 3 write (ARCHITECTURE §11), and how they are read back: the literals
 * and the role each counts from are @jst/protocol's, which jst-tracker's board reads too.
 */
export {
  APPROVED,
  CHANGES_REQUESTED,
  firstLine,
  MARKER_ROLE,
  PR_TARGET_MARKER,
  REPORT_MARKER,
  REVIEW_TALLY,
  RUN_REPORT,
  TASK_MEMORY,
  verdictLine,
  verdictOf,
  type Marker,
  type Verdict,
  type VerdictKind,
} from '@jst/protocol';

/**
 * The comments one role's account wrote on an issue, oldest first: the only input a marker reader
 * takes, so no reader can count a marker from the wrong account (built by phase/roles.ts
 * `roleComments`, for the CLI and the MCP tools alike). `accountId` null = the role's account
 * could not be resolved, and then `comments` is empty (fail closed) and `problem` says why.
 */
export interface RoleComments<R extends Role = Role> {
  readonly role: R;
  readonly accountId: string | null;
  readonly problem: string | null;
  readonly comments: readonly Comment[];
}

export const commentPlain = (c: Comment): string => adfToPlainText(c.body);

/** The role's comments whose first line is exactly `marker` (one that role posts), oldest first. */
export function markedComments<M extends Exclude<Marker, 'verdict'>>(
  posted: RoleComments<(typeof MARKER_ROLE)[M]>,
  marker: M,
): { comment: Comment; text: string }[] {
  if (posted.role !== MARKER_ROLE[marker]) throw new Error(`${marker} is read from the ${MARKER_ROLE[marker]}'s comments, not the ${posted.role}'s`);
  return posted.comments.map((comment) => ({ comment, text: commentPlain(comment) })).filter((c) => firstLine(c.text) === marker);
}

/** The newest verdict the reviewer's account left, with its comment. */
export function latestVerdictComment(posted: RoleComments<'reviewer'>): { verdict: Verdict; comment: Comment } | null {
  if (posted.role !== 'reviewer') throw new Error(`a verdict is read from the reviewer's comments, not the ${String(posted.role)}'s`);
  let found: { verdict: Verdict; comment: Comment } | null = null;
  for (const comment of posted.comments) {
    const verdict = verdictOf(commentPlain(comment));
    if (verdict) found = { verdict, comment };
  }
  return found;
}

/** The newest verdict the reviewer's account left on an issue. */
export function latestVerdict(posted: RoleComments<'reviewer'>): Verdict | null {
  return latestVerdictComment(posted)?.verdict ?? null;
}

/** The free text a person wrote for a comment, and whether they asked for it to be read as Markdown. */
export interface WrittenBody {
  text: string;
  markdown: boolean;
  what: string;
}

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
