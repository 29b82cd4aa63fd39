import type { CommitInfo } from '../domain/git-port.js';
import type { HookRow } from '../domain/hooks.js';
import type { ChRepo, ChUser } from '../domain/model.js';
import type { CommentView, PullDetail, PullView, ReviewView } from '../domain/views.js';
import { issueComment, pullFull, pullHtml, repository, review, simpleUser, type Urls } from '../http/render.js';
import { ghTime } from '../http/time.js';

/**
 * The payloads of the code host's webhooks, as GitHub's published webhook schemas describe them
 * (@octokit/webhooks-schemas; the tests validate every payload against it). Built from the REST
 * interface's own JSON objects (../http/render.ts), with what a webhook's objects add.
 */

const seg = (s: string) => encodeURIComponent(s);

/** What the REST objects carry and GitHub's webhook objects do not (the webhook schemas allow no other property). */
const REST_ONLY = new Set(['user_view_type', 'network_count', 'subscribers_count']);

/** A payload without the REST-only properties, at any depth. */
function shaped<T>(value: T): T {
  if (Array.isArray(value)) return value.map(shaped) as T;
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => !REST_ONLY.has(k))
      .map(([k, v]) => [k, shaped(v)]),
  ) as T;
}

/** A repository as webhooks carry it (`custom_properties`, and a push's `pushed_at` as seconds). */
export function hookRepository(u: Urls, repo: ChRepo, owner: ChUser | null) {
  const { permissions: _, ...r } = repository(u, repo, owner) as ReturnType<typeof repository> & { permissions?: unknown };
  return { ...r, custom_properties: {} };
}

/** The webhook's own object (GET …/hooks/{id}, the ping's `hook`): the secret never shown. */
export function hookJson(u: Urls, repo: ChRepo, hook: HookRow, last?: { code: number | null; status: string; message: string | null }) {
  const api = `${u.api}/repos/${seg(repo.owner)}/${seg(repo.name)}/hooks/${hook.id}`;
  return {
    type: 'Repository',
    id: hook.id,
    name: 'web',
    active: hook.active === 1,
    events: JSON.parse(hook.events) as string[],
    config: {
      content_type: hook.content_type,
      insecure_ssl: hook.insecure_ssl,
      url: hook.url,
      ...(hook.secret !== null ? { secret: '********' } : {}),
    },
    updated_at: ghTime(hook.updated_at),
    created_at: ghTime(hook.created_at),
    url: api,
    test_url: `${api}/test`,
    ping_url: `${api}/pings`,
    deliveries_url: `${api}/deliveries`,
    last_response: last ?? { code: null, status: 'unused', message: null },
  };
}

export function pingPayload(u: Urls, repo: ChRepo, owner: ChUser | null, sender: ChUser, hook: HookRow) {
  return shaped({
    zen: 'Keep it logically awesome.',
    hook_id: hook.id,
    hook: hookJson(u, repo, hook),
    repository: hookRepository(u, repo, owner),
    sender: simpleUser(u, sender),
  });
}

/** A pull request as webhooks carry it: its head's and base's repositories as webhooks carry one. */
function hookPull(u: Urls, d: PullDetail) {
  const p = pullFull(u, d);
  const repo = hookRepository(u, d.repo, d.owner);
  return { ...p, head: { ...p.head, repo }, base: { ...p.base, repo } };
}

export function pullPayload(
  u: Urls,
  action: string,
  d: PullDetail,
  sender: ChUser,
  extra: { changes?: Record<string, { from: string }>; before?: string; after?: string } = {},
) {
  return shaped({
    action,
    number: d.pull.number,
    ...(action === 'edited' ? { changes: extra.changes ?? {} } : {}),
    ...(action === 'synchronize' ? { before: extra.before, after: extra.after } : {}),
    pull_request: hookPull(u, d),
    repository: hookRepository(u, d.repo, d.owner),
    sender: simpleUser(u, sender),
  });
}

/** A pull request as a review's payload carries it (no detail figures). */
function pullOfReview(u: Urls, d: PullDetail) {
  const {
    merged: _m,
    mergeable: _a,
    rebaseable: _r,
    mergeable_state: _s,
    merged_by: _b,
    comments: _c,
    review_comments: _rc,
    maintainer_can_modify: _mc,
    commits: _cm,
    additions: _ad,
    deletions: _de,
    changed_files: _cf,
    ...rest
  } = hookPull(u, d);
  return rest;
}

export function reviewPayload(u: Urls, d: PullDetail, r: ReviewView, sender: ChUser) {
  const body = review(u, d, r);
  return shaped({
    action: 'submitted',
    review: { ...body, state: body.state.toLowerCase(), submitted_at: ghTime(r.review.submitted_at) },
    pull_request: pullOfReview(u, d),
    repository: hookRepository(u, d.repo, d.owner),
    sender: simpleUser(u, sender),
  });
}

export function commentPayload(u: Urls, v: PullView, c: CommentView, sender: ChUser, comments: number) {
  const api = `${u.api}/repos/${seg(v.repo.owner)}/${seg(v.repo.name)}`;
  const issueUrl = `${api}/issues/${v.pull.number}`;
  const html = pullHtml(u, v.repo, v.pull.number);
  const reactions = { url: `${issueUrl}/reactions`, total_count: 0, '+1': 0, '-1': 0, laugh: 0, hooray: 0, confused: 0, heart: 0, rocket: 0, eyes: 0 };
  const comment = issueComment(u, { repo: v.repo, owner: v.owner, permission: 'read', user: sender }, v.pull.number, c);
  return shaped({
    action: 'created',
    issue: {
      url: issueUrl,
      repository_url: api,
      labels_url: `${issueUrl}/labels{/name}`,
      comments_url: `${issueUrl}/comments`,
      events_url: `${issueUrl}/events`,
      html_url: html,
      id: v.pull.id,
      node_id: Buffer.from(`I_${v.pull.id}`).toString('base64').replace(/=+$/, ''),
      number: v.pull.number,
      title: v.pull.title,
      user: simpleUser(u, v.author),
      labels: [],
      state: v.pull.state,
      locked: false,
      assignee: null,
      assignees: [],
      milestone: null,
      comments,
      created_at: ghTime(v.pull.created_at),
      updated_at: ghTime(v.pull.updated_at),
      closed_at: ghTime(v.pull.closed_at),
      author_association: v.author.login.toLowerCase() === v.repo.owner.toLowerCase() ? 'OWNER' : 'COLLABORATOR',
      active_lock_reason: null,
      body: v.pull.body,
      reactions,
      pull_request: {
        url: `${api}/pulls/${v.pull.number}`,
        html_url: html,
        diff_url: `${html}.diff`,
        patch_url: `${html}.patch`,
        merged_at: ghTime(v.pull.merged_at),
      },
    },
    comment: { ...comment, reactions: { ...reactions, url: `${comment.url}/reactions` } },
    repository: hookRepository(u, v.repo, v.owner),
    sender: simpleUser(u, sender),
  });
}

const ZERO = '0000000000000000000000000000000000000000';

function pushCommit(u: Urls, repo: ChRepo, c: CommitInfo, files: { added: string[]; removed: string[]; modified: string[] }) {
  const person = (p: CommitInfo['author']) => ({ name: p.name, email: p.email, date: p.date });
  return {
    id: c.sha,
    tree_id: c.tree,
    distinct: true,
    message: c.message,
    timestamp: c.committer.date,
    url: `${u.web}/${seg(repo.owner)}/${seg(repo.name)}/commit/${c.sha}`,
    author: person(c.author),
    committer: person(c.committer),
    ...files,
  };
}

export interface PushFacts {
  branch: string;
  before: string | null;
  after: string | null;
  /** before..after (or the new branch's own commits), oldest first, at most PUSH_COMMITS_MAX. */
  commits: CommitInfo[];
  /** Whether `before` is not an ancestor of `after` (a force push). */
  forced: boolean;
}

export function pushPayload(u: Urls, repo: ChRepo, owner: ChUser | null, pusher: ChUser | null, f: PushFacts) {
  const noFiles = { added: [], removed: [], modified: [] };
  const commits = f.commits.map((c) => pushCommit(u, repo, c, noFiles));
  const html = `${u.web}/${seg(repo.owner)}/${seg(repo.name)}`;
  const login = pusher?.login ?? 'ghost';
  return shaped({
    ref: `refs/heads/${f.branch}`,
    before: f.before ?? ZERO,
    after: f.after ?? ZERO,
    repository: { ...hookRepository(u, repo, owner), pushed_at: Math.floor(Date.now() / 1000), created_at: Math.floor(Date.parse(repo.created_at) / 1000) },
    pusher: { name: login, email: `${login}@users.noreply.jst-tracker` },
    sender: simpleUser(u, pusher, login),
    created: f.before === null,
    deleted: f.after === null,
    forced: f.forced,
    base_ref: null,
    compare: f.before === null || f.after === null ? `${html}/compare/${seg(f.branch)}` : `${html}/compare/${f.before.slice(0, 12)}...${f.after.slice(0, 12)}`,
    commits,
    head_commit: commits.length > 0 ? commits[commits.length - 1]! : null,
  });
}

export function refPayload(u: Urls, repo: ChRepo, owner: ChUser | null, pusher: ChUser | null, branch: string, created: boolean) {
  return shaped({
    ref: branch,
    ref_type: 'branch',
    ...(created ? { master_branch: repo.default_branch, description: null } : {}),
    pusher_type: 'user',
    repository: hookRepository(u, repo, owner),
    sender: simpleUser(u, pusher, pusher?.login ?? 'ghost'),
  });
}
