import { allComments, commentsWithMarker, projectVisible, EXECUTOR_FIELDS, REVIEWER_FIELDS, type Comment, type Issue } from '@jst/client';
import type { Role } from '../../../config/index.js';
import type { Context } from '../../../core/context.js';
import { EXIT } from '../../../core/errors.js';
import { bold, dim, emit, line, printJson, table, type Outcome } from '../../../core/output.js';
import { documentText } from '../../../phase/document.js';
import { issueKeyArg } from '../../../core/issue-key.js';

export interface OutputOptions {
  json?: boolean | undefined;
}

/** JSON for scripts and agents (or when stdout is not a terminal); a short human form on a terminal. */
export const wantsJson = (ctx: Context, o: OutputOptions) => Boolean(o.json) || !ctx.io.stdout.isTTY;

export async function whoami(ctx: Context, role: Role, o: OutputOptions): Promise<number> {
  const me = await ctx.client(role).myself();
  if (wantsJson(ctx, o)) printJson(ctx.io, me);
  else line(ctx.io, `${bold(ctx.io, me.displayName ?? '')} <${me.emailAddress ?? '?'}>  accountId ${me.accountId}  (role ${role})`);
  return EXIT.ok;
}

export async function tenant(ctx: Context, role: Role, o: OutputOptions): Promise<number> {
  const client = ctx.client(role);
  const { cloudId } = await client.tenantInfo();
  const apiBase = await client.apiBase();
  const site = ctx.config().trackerHost;
  if (wantsJson(ctx, o)) printJson(ctx.io, { site, cloudId, apiBase });
  else
    line(
      ctx.io,
      table([
        ['site', site ?? ''],
        ['cloudId', cloudId],
        ['api_base', apiBase],
      ]),
    );
  return EXIT.ok;
}

export async function projectList(ctx: Context, role: Role, o: OutputOptions & { query?: string }): Promise<number> {
  const client = ctx.client(role);
  const values = [];
  for (let startAt = 0; ;) {
    const page = await client.searchProjects({ ...(o.query ? { query: o.query } : {}), startAt, maxResults: 50 });
    values.push(...page.values);
    startAt += page.values.length;
    if (page.isLast !== false || page.values.length === 0) break;
  }
  if (wantsJson(ctx, o)) printJson(ctx.io, values);
  else line(ctx.io, values.length ? table(values.map((p) => [p.key, p.name])) : dim(ctx.io, 'No project visible to this account.'));
  return EXIT.ok;
}

/** spec §4 client rule 2: exit 0 when the project is visible (exact key), 1 when not. */
export async function projectExists(ctx: Context, role: Role, key: string, o: OutputOptions): Promise<number> {
  const visible = await projectVisible(ctx.client(role), key);
  if (wantsJson(ctx, o)) printJson(ctx.io, { key, visible });
  else line(ctx.io, visible ? `${key}: visible to the ${role}` : `${key}: not visible to the ${role} (missing, or the account is not a member)`);
  return visible ? EXIT.ok : EXIT.failed;
}

export async function projectStatuses(ctx: Context, role: Role, key: string, o: OutputOptions): Promise<number> {
  const types = await ctx.client(role).projectStatuses(key);
  if (wantsJson(ctx, o)) printJson(ctx.io, types);
  else line(ctx.io, table(types.map((t) => [t.name, t.statuses.map((s) => s.name).join(', ')])));
  return EXIT.ok;
}

const PRESETS: Record<string, readonly string[]> = { executor: EXECUTOR_FIELDS, reviewer: REVIEWER_FIELDS };

/** spec §4 endpoint 5; `--fields executor|reviewer` picks the phase 2 / phase 3 field sets. */
export async function issueView(ctx: Context, role: Role, key: string, o: OutputOptions & { fields?: string }): Promise<number> {
  return emit(ctx.io, await issueViewOutcome(ctx, role, key, o), wantsJson(ctx, o));
}

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
  const text = f.description ? `\n\n${documentText(ctx.io, f.description)}` : '';
  const comments = (f.comment?.comments ?? []).map((c) => `\n\n${commentText(ctx, c)}`).join('');
  return `${bold(ctx.io, issue.key)} ${f.summary ?? ''}\n${table(rows)}${text}${comments}`;
}

function commentText(ctx: Context, c: Comment): string {
  return `${bold(ctx.io, `#${c.id}`)} ${c.author?.displayName ?? ''} ${dim(ctx.io, c.created ?? '')}\n${documentText(ctx.io, c.body)}`;
}

export async function issueTransitions(ctx: Context, role: Role, key: string, o: OutputOptions): Promise<number> {
  key = issueKeyArg(key); // abc-1 = ABC-1
  const { transitions } = await ctx.client(role).transitions(key);
  if (wantsJson(ctx, o)) printJson(ctx.io, transitions);
  else
    line(
      ctx.io,
      transitions.length
        ? table(transitions.map((t) => [t.id, t.name, `→ ${t.to?.name ?? '?'}`]))
        : dim(ctx.io, 'No transition is available from the current status.'),
    );
  return EXIT.ok;
}

export async function commentList(ctx: Context, role: Role, key: string, o: OutputOptions & { marker?: string }): Promise<number> {
  key = issueKeyArg(key); // abc-1 = ABC-1
  let comments = await allComments(ctx.client(role), key);
  if (o.marker) comments = commentsWithMarker(comments, o.marker);
  if (wantsJson(ctx, o)) printJson(ctx.io, comments);
  else for (const c of comments) line(ctx.io, `${commentText(ctx, c)}\n`);
  return EXIT.ok;
}

/** POST /search/jql, following nextPageToken with --all. */
export interface SearchOptions {
  fields?: string | undefined;
  all?: boolean | undefined;
  max?: number | undefined;
  pageToken?: string | undefined;
}
export interface SearchResult {
  issues: Issue[];
  nextPageToken?: string;
}

export async function searchOutcome(ctx: Context, role: Role, jql: string, o: SearchOptions): Promise<Outcome<SearchResult>> {
  const fields = (o.fields ?? 'key,summary,status')
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  const maxResults = o.max ?? 50;
  const client = ctx.client(role);
  const issues: Issue[] = [];
  let token: string | undefined = o.pageToken || undefined;
  do {
    const page = await client.searchJql({ jql, fields, maxResults, ...(token ? { nextPageToken: token } : {}) });
    issues.push(...page.issues);
    token = page.nextPageToken ?? undefined;
  } while (o.all && token);
  return {
    json: { issues, ...(token ? { nextPageToken: token } : {}) },
    // A search answer is not checked field by field; an issue without `fields` prints blanks, not a crash.
    text: `${table(issues.map((i) => [i.key, i.fields?.status?.name ?? '', i.fields?.summary ?? '']))}\n`,
    code: EXIT.ok,
  };
}
