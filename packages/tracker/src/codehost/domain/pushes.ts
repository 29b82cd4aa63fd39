import type { CodeHost } from './host.js';
import { gitOf } from './host.js';
import type { ChRepo, ChUser } from './model.js';
import { storeOf } from './store-access.js';

/**
 * Refs git updated (ARCHITECTURE §14 "Refs from the database"): a push the code host took (git's
 * post-receive hook: only the refs git accepted), one of its own merges, or a push made straight
 * into a repository's folder (its hook's spool, read on the next use). Each is recorded in the
 * database (`ch_refs`, compare-and-set from the old commit), moves the repository's `pushed_at`,
 * dismisses the approvals a new head made stale (§21), and then is told to every listener.
 */

/** One ref as git moved it; `old`/`new` are all zeros for a ref created/deleted (git's notation, as GitHub's push event's `before`/`after`). */
export interface RefUpdate {
  ref: string;
  old: string;
  new: string;
}

/** How the refs moved: a push through the git front, the code host's own merge, a push straight into the folder (no pusher known). */
export type RefsUpdatedVia = 'push' | 'merge' | 'outside';

/**
 * A subscriber to "refs updated" (webhooks' push/create/delete, the tracker integration): called
 * once per accepted push or merge, after the refs are recorded, with every ref it updated. Awaited
 * before the push's answer ends: slow work (deliveries) belongs in a queue of the listener's own.
 * A listener's failure is swallowed (the push is git's already).
 */
export type RefsUpdatedListener = (host: CodeHost, repo: ChRepo, pusher: ChUser | null, updates: RefUpdate[], via: RefsUpdatedVia) => void | Promise<void>;

const listeners = new WeakMap<CodeHost, Set<RefsUpdatedListener>>();

/** Subscribes to the refs a code host's git updates; returns the unsubscribe. */
export function onRefsUpdated(host: CodeHost, listener: RefsUpdatedListener): () => void {
  let set = listeners.get(host);
  if (!set) listeners.set(host, (set = new Set()));
  set.add(listener);
  return () => set.delete(listener);
}

const zero = (sha: string) => /^0+$/.test(sha);

/** Records refs git updated in a repository, then tells the listeners (see the module's comment). */
export async function refsUpdated(host: CodeHost, repo: ChRepo, pusher: ChUser | null, updates: RefUpdate[], via: RefsUpdatedVia): Promise<void> {
  if (updates.length === 0) return;
  const store = storeOf(host);
  const now = host.now();
  const missed = await store.refs.apply(repo.id, updates, now);
  if (missed.length > 0) {
    // Recorded out of order with another update of the same ref: git's own answer stands.
    const truth = new Map((await gitOf(host).refs(repo.owner, repo.name, missed)).map((r) => [r.ref, r.sha]));
    await store.refs.put(
      repo.id,
      missed.map((ref) => ({ ref, sha: truth.get(ref) ?? null })),
      now,
    );
  }
  if (via !== 'outside') await store.refs.markPushed(repo.id, now);
  await dismissStaleApprovals(host, repo, updates);
  for (const listener of listeners.get(host) ?? []) {
    try {
      await listener(host, repo, pusher, updates, via);
    } catch {
      /* a listener's failure must not fail a push git has already taken */
    }
  }
}

/** The git front's report of an accepted push (git/http-backend.ts onPush), by the repository's stored names and the pusher's login. */
export async function recordPush(host: CodeHost, owner: string, name: string, login: string | undefined, updates: RefUpdate[]): Promise<void> {
  const store = storeOf(host);
  const repo = await store.repos.byName(owner, name);
  if (!repo) return;
  const pusher = login === undefined ? null : ((await store.users.byLogin(login)) ?? null);
  await refsUpdated(host, repo, pusher, updates, 'push');
}

/**
 * GitHub's "Dismiss stale pull request approvals when new commits are pushed" (ARCHITECTURE §21),
 * where GitHub does it: at the push. Each open pull request whose head branch moved, into a base
 * whose rules ask it, has its approvals of another commit than the new head DISMISSED.
 */
async function dismissStaleApprovals(host: CodeHost, repo: ChRepo, updates: RefUpdate[]): Promise<void> {
  const store = storeOf(host);
  const moved = new Map<string, string>();
  for (const u of updates) if (u.ref.startsWith('refs/heads/') && !zero(u.new)) moved.set(u.ref.slice('refs/heads/'.length), u.new);
  if (moved.size === 0) return;
  const rules = new Map<string, boolean>();
  for (const pull of await store.pulls.openWithHeads(repo.id, [...moved.keys()])) {
    if (!rules.has(pull.base_ref)) {
      // The base's protection (protection.ts BranchRules, as stored), read here without its module, which reads refs through this one.
      const text = await store.protections.get(repo.id, pull.base_ref);
      rules.set(pull.base_ref, text !== undefined && (JSON.parse(text) as { reviews: { dismissStale?: boolean } | null }).reviews?.dismissStale === true);
    }
    if (rules.get(pull.base_ref)) await store.reviews.dismissStale(pull.id, moved.get(pull.head_ref)!);
  }
}
