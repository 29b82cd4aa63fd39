import { adfToText } from '@jst/adf';
import type { Comment, Issue } from '@jst/client';
import { firstLine, markerOfLine } from '@jst/protocol';
import { JstError } from '../../../config/index.js';
import type { Context } from '../../../core/context.js';
import { EXIT } from '../../../core/errors.js';
import * as git from '../../../git/index.js';
import type { Outcome } from '../../../core/output.js';
import { issueKeyFromBranch } from '../../../phase/handover.js';
import { commentPlain } from '../../../phase/markers.js';
import { commentData, trackerData } from '../../../phase/document.js';
import { changesRequestedLines, reviewerVerdict, type ShownVerdict } from '../../../phase/review-shown.js';
import { roleComments } from '../../../phase/roles.js';

/** issue_view's own parts (ARCHITECTURE §13): loaded only when a view runs, never at the CLI's start-up. */

/** The markers (ARCHITECTURE §7, §11) are @jst/protocol's: each with the role whose account it counts from. */
const DEFAULT_FIELDS = ['summary', 'status', 'assignee', 'parent', 'subtasks', 'issuetype', 'description', 'comment'];
/** How much of the description and of each comment a default view shows (ARCHITECTURE §13: ≤ 4 KB in all). */
const DESCRIPTION_CHARS = 1200;
const COMMENT_CHARS = 240;
const LATEST_COMMENTS = 3;

/** issue_view without a key: the issue of the worktree's branch, read as `jst start` reads it. */
export async function currentKey(ctx: Context): Promise<string> {
  const branch = await git.currentBranch(ctx.cwd, { env: ctx.env }).catch(() => null);
  const parsed = branch ? issueKeyFromBranch(branch) : null;
  if (!parsed) {
    throw new JstError({
      code: 'MCP_NO_KEY',
      exitCode: EXIT.usage,
      problem: `no key was given and ${branch ? `the branch ${branch} is not an issue branch (feature/<KEY>-… or hotfix/<KEY>-…)` : `${ctx.cwd} is on no branch`}`,
      hint: "Pass key, or set cwd to the issue's worktree",
    });
  }
  return parsed.key;
}

export interface ShortIssue {
  key: string;
  summary: string;
  status: string;
  type: string;
  assignee: string | null;
  parent: { key: string; summary: string } | null;
  subtasks: { key: string; summary: string; status: string }[];
  markers: { id: string; line: string; author: string; created: string | null }[];
  verdict: ShownVerdict | null;
  comments: number;
}

const cut = (text: string, n: number) => (text.length <= n ? text : `${text.slice(0, n).trimEnd()}… (${text.length - n} more characters: raw: true for all)`);

/** The default of `issue_view` (ARCHITECTURE §13 "Results sized for a model"). */
export async function shortView(ctx: Context, role: Parameters<Context['client']>[0], key: string, fields: string | undefined): Promise<Outcome<ShortIssue>> {
  const client = ctx.client(role);
  const wanted = fields
    ? fields
        .split(',')
        .map((f) => f.trim())
        .filter(Boolean)
    : DEFAULT_FIELDS;
  const issue: Issue = await client.getIssue(key, wanted);
  const f = issue.fields;
  const comments: Comment[] = f.comment?.comments ?? [];
  // ARCHITECTURE §11: a marker is listed only from its role's account (resolved only when some comment looks like one).
  const marked = comments.flatMap((c) => {
    const text = commentPlain(c);
    const m = markerOfLine(text);
    return m ? [{ c, line: firstLine(text), role: m.role }] : [];
  });
  const accounts = new Map<string, string | null>();
  for (const role of new Set(marked.map((m) => m.role))) accounts.set(role, (await roleComments(ctx, role, client, [])).accountId);
  const counted = marked.filter((m) => m.c.author?.accountId !== undefined && m.c.author.accountId === accounts.get(m.role));
  const verdict = accounts.has('reviewer') ? reviewerVerdict(await roleComments(ctx, 'reviewer', client, comments)) : null;
  const short: ShortIssue = {
    key: issue.key,
    summary: f.summary ?? '',
    status: f.status?.name ?? '',
    type: f.issuetype?.name ?? '',
    assignee: f.assignee ? (f.assignee.displayName ?? f.assignee.accountId) : null,
    parent: f.parent ? { key: f.parent.key, summary: f.parent.fields?.summary ?? '' } : null,
    subtasks: (f.subtasks ?? []).map((t) => ({ key: t.key, summary: t.fields?.summary ?? '', status: t.fields?.status?.name ?? '' })),
    markers: counted.map(({ c, line }) => ({ id: c.id, line: cut(line, 120), author: c.author?.displayName ?? '', created: c.created ?? null })),
    verdict: verdict?.kind === 'changes-requested' ? { ...verdict, body: cut(verdict.body, 600) } : null,
    comments: f.comment ? (f.comment.total ?? comments.length) : 0,
  };
  const out: string[] = [`${short.key} ${short.summary}`];
  const row = (name: string, value: string) => {
    if (value) out.push(`${name}: ${value}`);
  };
  row('type', short.type);
  row('status', short.status);
  if (f.assignee !== undefined) row('assignee', short.assignee ?? 'unassigned');
  if (short.parent) row('parent', `${short.parent.key} ${short.parent.summary}`);
  if (short.subtasks.length) row('subtasks', short.subtasks.map((t) => `${t.key} [${t.status}]`).join(', '));
  // ARCHITECTURE §11: the executor sees what the reviewer asked for first.
  if (short.verdict) out.push('', ...changesRequestedLines(short.verdict));
  // ARCHITECTURE §13: what anyone with access wrote on the tracker reaches the agent marked as data.
  if (f.description) out.push('', trackerData(`the description of ${short.key}`, undefined, cut(adfToText(f.description), DESCRIPTION_CHARS)));
  const latest = comments.slice(-LATEST_COMMENTS);
  if (comments.length) out.push('', `Comments (${short.comments}${latest.length < short.comments ? `, the latest ${latest.length}` : ''}):`);
  for (const c of latest) out.push(commentData(c, cut(adfToText(c.body), COMMENT_CHARS)));
  return { json: short, text: `${out.join('\n')}\n`, code: EXIT.ok };
}
