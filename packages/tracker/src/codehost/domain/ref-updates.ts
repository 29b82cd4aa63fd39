import { announce, type RefUpdate } from './events.js';
import { gitOf, type CodeHost } from './host.js';
import type { ChRepo, ChUser } from './model.js';
import { viewOf } from './pull-views.js';
import { storeOf } from './store-access.js';
import type { PullView } from './views.js';

/**
 * The branches a push (or a merge) moved (ARCHITECTURE §22), as git's refs now differ from the
 * tips the code host last recorded (`ch_branch_heads`). Each recorded tip moves by a
 * compare-and-set, so of several processes looking after one push, one reports each update.
 *
 * The one function the push's events depend on: when the receive-pack relay reports the refs it
 * updated itself, this is where its answer replaces the comparison.
 */
export async function refUpdates(host: CodeHost, repo: ChRepo): Promise<RefUpdate[]> {
  const store = storeOf(host);
  const now = new Map((await gitOf(host).branches(repo.owner, repo.name)).map((b) => [b.name, b.sha]));
  const seen = await store.moves.heads(repo.id);
  const updates: RefUpdate[] = [];
  for (const [branch, sha] of now) {
    const before = seen.get(branch) ?? null;
    if (before !== sha && (await store.moves.moveHead(repo.id, branch, before, sha))) updates.push({ branch, before, after: sha });
  }
  for (const [branch, sha] of seen) {
    if (!now.has(branch) && (await store.moves.moveHead(repo.id, branch, sha, null))) updates.push({ branch, before: sha, after: null });
  }
  return updates;
}

/**
 * Records the branches of every repository the code host has not recorded any of (a database
 * from before webhooks, a repository filled outside the code host), without reporting them: only
 * what is pushed from now on is an event.
 */
export async function recordHeads(host: CodeHost): Promise<void> {
  const git = host.on ? gitOf(host) : null;
  if (!git) return;
  const store = storeOf(host);
  for (const repo of await store.repos.list()) {
    if ((await store.moves.heads(repo.id)).size > 0 || !(await git.exists(repo.owner, repo.name))) continue;
    for (const b of await git.branches(repo.owner, repo.name)) await store.moves.moveHead(repo.id, b.name, null, b.sha);
  }
}

/**
 * After a push (or a merge) to a repository: the branches it moved, announced as one `refs`
 * event (webhooks' push, create and delete; a pull request's synchronize; the tracker's
 * onBranchCreate). `login` is who pushed, as git's access check named them.
 */
export async function pushed(host: CodeHost, owner: string, name: string, login: string | null): Promise<void> {
  const store = storeOf(host);
  const repo = await store.repos.byName(owner, name);
  if (!repo) return;
  const pusher = login === null ? null : ((await store.users.byLogin(login)) ?? null);
  await pushedTo(host, repo, pusher);
}

export async function pushedTo(host: CodeHost, repo: ChRepo, pusher: ChUser | null): Promise<void> {
  try {
    const updates = await refUpdates(host, repo);
    if (updates.length > 0) await announce(host, { kind: 'refs', repo, pusher, updates });
  } catch (e) {
    host.report(e);
  }
}

/** The open pull requests whose head is `branch` (a push to it synchronizes them), as views. */
export async function openPullsWithHead(host: CodeHost, repo: ChRepo, branch: string): Promise<PullView[]> {
  const store = storeOf(host);
  const { rows } = await store.pulls.list(repo.id, { state: 'open', head: branch, sort: 'created', direction: 'asc', offset: 0, limit: 100 });
  const owner = (await store.users.byLogin(repo.owner)) ?? null;
  const views: PullView[] = [];
  for (const row of rows) views.push(await viewOf(host, { repo, owner }, row));
  return views;
}

/** The user named as a repository's owner, when it is a code-host user. */
export async function ownerOf(host: CodeHost, repo: ChRepo): Promise<ChUser | null> {
  return (await storeOf(host).users.byLogin(repo.owner)) ?? null;
}
