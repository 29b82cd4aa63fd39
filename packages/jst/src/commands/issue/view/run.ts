import { EXECUTOR_FIELDS, REVIEWER_FIELDS, type Issue } from '@jst/client';
import type { Role } from '../../../config/index.js';
import type { Context } from '../../../core/context.js';
import { EXIT } from '../../../core/errors.js';
import { issueKeyArg } from '../../../core/issue-key.js';
import { bold, table, type Outcome } from '../../../core/output.js';
import { commentData, commentText, documentText, trackerData } from '../../../phase/document.js';

const PRESETS: Record<string, readonly string[]> = { executor: EXECUTOR_FIELDS, reviewer: REVIEWER_FIELDS };

/** spec §4 endpoint 5; `--fields executor|reviewer` picks the phase 2 / phase 3 field sets. */
export async function issueViewOutcome(ctx: Context, role: Role, key: string, o: { fields?: string | undefined }): Promise<Outcome<Issue>> {
  key = issueKeyArg(key); // abc-1 = ABC-1
  const fields = o.fields
    ? (PRESETS[o.fields] ??
      o.fields
        .split(',')
        .map((f) => f.trim())
        .filter(Boolean))
    : undefined;
  const issue = await ctx.client(role).getIssue(key, fields);
  return { json: issue, text: `${describeIssue(ctx, issue)}\n`, code: EXIT.ok };
}

function describeIssue(ctx: Context, issue: Issue): string {
  const f = issue.fields;
  const rows: string[][] = [];
  if (f.issuetype) rows.push(['type', f.issuetype.name]);
  if (f.status) rows.push(['status', f.status.name]);
  if (f.assignee !== undefined) rows.push(['assignee', f.assignee ? `${f.assignee.displayName ?? ''} (${f.assignee.accountId})` : 'unassigned']);
  if (f.parent) rows.push(['parent', `${f.parent.key} ${f.parent.fields?.summary ?? ''}`]);
  if (f.subtasks?.length) rows.push(['subtasks', f.subtasks.map((s) => s.key).join(', ')]);
  if (f.comment) rows.push(['comments', String(f.comment.total ?? f.comment.comments.length)]);
  // ARCHITECTURE §13: a tool's text marks what the tracker holds as data, not instructions.
  const description = (d: unknown) => (ctx.tool ? trackerData(`the description of ${issue.key}`, undefined, documentText(ctx.io, d)) : documentText(ctx.io, d));
  const text = f.description ? `\n\n${description(f.description)}` : '';
  const comments = (f.comment?.comments ?? []).map((c) => `\n\n${ctx.tool ? commentData(c, documentText(ctx.io, c.body)) : commentText(ctx.io, c)}`).join('');
  return `${bold(ctx.io, issue.key)} ${f.summary ?? ''}\n${table(rows)}${text}${comments}`;
}
