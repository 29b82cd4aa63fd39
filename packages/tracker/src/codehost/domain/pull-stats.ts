import { gitOf, type CodeHost } from './host.js';
import type { PullStats } from './git-port.js';
import { storeOf } from './store-access.js';
import type { PullView } from './views.js';

/**
 * A pull request's figures — commits, additions, deletions, changed files, mergeability — are
 * those of two commits, base and head, which never change: they are computed once per pair
 * (git/repos.ts stats: three git processes together) and kept on the pull request's row
 * (`stats_key`/`stats`, migration 0009), recomputed only when a push or a merge moved one of
 * the two. One row per pull request: nothing to evict, shared by every process over the database.
 */

export const statsKey = (baseSha: string, headSha: string) => `${baseSha}\n${headSha}`;

function parse(text: string | null): PullStats | null {
  if (text === null) return null;
  try {
    const s = JSON.parse(text) as PullStats;
    return typeof s.commits === 'number' && typeof s.mergeable === 'boolean' ? s : null;
  } catch {
    return null;
  }
}

/** The figures kept on the pull request's row for its commits as they are now, or null (none kept, or for other commits). */
export function keptStats(view: PullView): PullStats | null {
  return view.pull.stats_key === statsKey(view.baseSha, view.headSha) ? parse(view.pull.stats) : null;
}

/** Computes the figures of base...head (no row written), dated. */
export async function computeStats(host: CodeHost, owner: string, name: string, baseSha: string, headSha: string): Promise<PullStats> {
  return { ...(await gitOf(host).stats(owner, name, baseSha, headSha)), computedAt: host.now() };
}

/**
 * How long a kept merged tree is taken for a merge. merge-tree writes it as a loose object that
 * nothing references; git's gc prunes such objects two weeks after they were written
 * (gc.pruneExpire), so a tree a day old is far inside that, and one older is made again.
 */
export const KEPT_TREE_MS = 24 * 60 * 60 * 1000;

/**
 * What the kept figures say of a merge of exactly `baseSha` into `headSha`'s pull request: base
 * is head's ancestor (`behind` 0), or the merged tree merge-tree wrote for them less than
 * KEPT_TREE_MS ago. Nothing for other commits, or for figures kept before these were recorded.
 */
export function knownMerge(host: Pick<CodeHost, 'now'>, view: PullView, baseSha: string, headSha: string): { baseIsAncestor: boolean; mergedTree?: string } {
  const kept = view.baseSha === baseSha && view.headSha === headSha ? keptStats(view) : null;
  if (kept === null) return { baseIsAncestor: false };
  if (kept.behind === 0) return { baseIsAncestor: true };
  const age = kept.computedAt === undefined ? Number.NaN : Date.parse(host.now()) - Date.parse(kept.computedAt);
  const tree = typeof kept.tree === 'string' && /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(kept.tree) ? kept.tree : null;
  return tree !== null && age >= 0 && age < KEPT_TREE_MS ? { baseIsAncestor: false, mergedTree: tree } : { baseIsAncestor: false };
}

/** The figures of a pull request as it is now: kept ones when its commits are the same, else computed and kept. */
export async function statsOf(host: CodeHost, view: PullView): Promise<PullStats> {
  const key = statsKey(view.baseSha, view.headSha);
  const kept = keptStats(view);
  if (kept) return kept;
  const stats = await computeStats(host, view.repo.owner, view.repo.name, view.baseSha, view.headSha);
  await storeOf(host).pulls.setStats(view.pull.id, key, JSON.stringify(stats));
  return stats;
}
