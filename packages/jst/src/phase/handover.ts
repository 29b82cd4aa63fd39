import { adfToPlainText, adfToText } from '@jst/adf';
import { commentsWithMarker } from '@jst/client';
import { parsePrTargetLine } from '@jst/protocol';
import { PR_TARGET_MARKER, REPORT_MARKER, type RoleComments } from './markers.js';

/**
 * What phase 1 hands over to phase 2 (spec §1 rules 10-12), read back from the places it was
 * written: the branch name, the `PR target branch:` comment, the `Assignment report` comment and
 * the description's acceptance criteria. Pure functions over what git and the tracker returned.
 */

/** spec §1 rule 7: `feature/<KEY>-slug` or `hotfix/<KEY>-slug`, the key in any letter case (@jst/protocol's grammar, the code host's too). */
export { issueBranchOf as issueKeyFromBranch, type IssueBranch } from '@jst/protocol';

export { PR_TARGET_MARKER, REPORT_MARKER };

export interface PrTarget {
  branch: string;
  worktree: string | null;
  commentId: string;
}

/**
 * spec §1 rule 11: `PR target branch: <branch> Worktree: <absolute_path>`, read by walking the
 * comment's text. The newest such comment wins (a re-plan posts a newer one). Only the assigner's
 * comments are read (ARCHITECTURE §11): the same line by anyone else is an ordinary comment.
 */
export function prTargetFrom(posted: RoleComments<'assigner'>): PrTarget | null {
  if (posted.role !== 'assigner') throw new Error(`${PR_TARGET_MARKER} is read from the assigner's comments, not the ${String(posted.role)}'s`);
  let found: PrTarget | null = null;
  for (const c of commentsWithMarker([...posted.comments], PR_TARGET_MARKER)) {
    for (const text of adfToPlainText(c.body).split('\n')) {
      const line = parsePrTargetLine(text);
      if (line) found = { ...line, commentId: c.id };
    }
  }
  return found;
}

/**
 * spec §1 rule 12: the assigner's comment whose first line is the literal marker; the newest one
 * wins. Its text keeps the comment's shape (lists, code, links) as every issue view prints it.
 */
export function assignmentReportFrom(posted: RoleComments<'assigner'>): string | null {
  if (posted.role !== 'assigner') throw new Error(`${REPORT_MARKER} is read from the assigner's comments, not the ${String(posted.role)}'s`);
  const reports = commentsWithMarker([...posted.comments], REPORT_MARKER)
    .map((c) => adfToText(c.body))
    .filter((text) => text.split('\n', 1)[0]!.trim() === REPORT_MARKER);
  return reports.at(-1) ?? null;
}

type Node = { type?: unknown; content?: unknown };
const nodes = (v: unknown): Node[] => (Array.isArray(v) ? v.filter((n): n is Node => typeof n === 'object' && n !== null) : []);

/**
 * The items of the list(s) under the "Acceptance criteria" heading of a description (the plan
 * authors it as a heading followed by a bullet list), up to the next heading.
 */
export function acceptanceCriteria(description: unknown): string[] {
  const blocks = nodes((description as Node | null | undefined)?.content);
  const start = blocks.findIndex((b) => b.type === 'heading' && /^acceptance criteria:?$/i.test(adfToPlainText(b).trim()));
  if (start < 0) return [];
  const items: string[] = [];
  for (const block of blocks.slice(start + 1)) {
    if (block.type === 'heading') break;
    if (block.type === 'bulletList' || block.type === 'orderedList') {
      for (const item of nodes(block.content)) {
        // Printed like every issue view (inline code, links, marks), on one line per criterion.
        const text = adfToText((item as { content?: unknown }).content ?? [])
          .replace(/\s*\n\s*/g, ' ')
          .trim();
        if (text) items.push(text);
      }
    }
  }
  return items;
}
