import { describe, expect, it } from 'vitest';
import { KEPT_TREE_MS, knownMerge, statsKey } from '../../src/codehost/domain/pull-stats.js';
import type { PullView } from '../../src/codehost/domain/views.js';

/**
 * ARCHITECTURE §14 "Refs and figures from the database": a merge takes what the pull request's kept
 * figures know of exactly its base and head — base an ancestor of head, or the merged tree
 * merge-tree wrote for them — and nothing for other commits, or for a tree old enough that git's
 * gc may have pruned it.
 */
const BASE = 'b'.repeat(40);
const HEAD = 'c'.repeat(40);
const TREE = 'e'.repeat(40);
const NOW = '2026-11-28T12:00:00.000Z';
const host = { now: () => NOW };
const ago = (ms: number) => new Date(Date.parse(NOW) - ms).toISOString();

function view(stats: Record<string, unknown>, key = statsKey(BASE, HEAD)): PullView {
  return {
    baseSha: BASE,
    headSha: HEAD,
    pull: { stats_key: key, stats: JSON.stringify({ commits: 1, additions: 1, deletions: 0, changedFiles: 1, mergeable: true, ...stats }) },
  } as unknown as PullView;
}

describe('ARCHITECTURE §14: a merge takes the kept figures of exactly its commits', () => {
  it('base an ancestor of head (behind 0): no merge-tree, head’s tree', () => {
    expect(knownMerge(host, view({ behind: 0 }), BASE, HEAD)).toEqual({ baseIsAncestor: true });
  });

  it('the merged tree merge-tree wrote an hour ago is taken', () => {
    expect(knownMerge(host, view({ behind: 2, tree: TREE, computedAt: ago(3_600_000) }), BASE, HEAD)).toEqual({ baseIsAncestor: false, mergedTree: TREE });
  });

  it('a tree kept longer than KEPT_TREE_MS (a day) is made again: gc prunes unreferenced objects after two weeks', () => {
    expect(KEPT_TREE_MS).toBe(86_400_000);
    expect(knownMerge(host, view({ behind: 2, tree: TREE, computedAt: ago(KEPT_TREE_MS) }), BASE, HEAD)).toEqual({ baseIsAncestor: false });
    // A date from the future (another process's clock ahead) is not trusted either.
    expect(knownMerge(host, view({ behind: 2, tree: TREE, computedAt: ago(-60_000) }), BASE, HEAD)).toEqual({ baseIsAncestor: false });
  });

  it('figures of other commits, or kept before trees were recorded, or unreadable, know nothing', () => {
    expect(knownMerge(host, view({ behind: 0 }), 'f'.repeat(40), HEAD)).toEqual({ baseIsAncestor: false });
    expect(knownMerge(host, view({ behind: 2, tree: TREE, computedAt: ago(1000) }), BASE, 'f'.repeat(40))).toEqual({ baseIsAncestor: false });
    expect(knownMerge(host, view({ behind: 0 }, statsKey(BASE, 'f'.repeat(40))), BASE, HEAD)).toEqual({ baseIsAncestor: false });
    expect(knownMerge(host, view({ behind: 2 }), BASE, HEAD)).toEqual({ baseIsAncestor: false });
    expect(knownMerge(host, view({ behind: 2, tree: TREE }), BASE, HEAD)).toEqual({ baseIsAncestor: false });
    // A kept value that is no object id never reaches git.
    expect(knownMerge(host, view({ behind: 2, tree: '--output=/tmp/x', computedAt: ago(1000) }), BASE, HEAD)).toEqual({ baseIsAncestor: false });
    const broken = { baseSha: BASE, headSha: HEAD, pull: { stats_key: statsKey(BASE, HEAD), stats: '{not json' } } as unknown as PullView;
    expect(knownMerge(host, broken, BASE, HEAD)).toEqual({ baseIsAncestor: false });
  });
});
