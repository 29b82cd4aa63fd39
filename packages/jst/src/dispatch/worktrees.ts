import { existsSync } from 'node:fs';
import * as git from '../git/index.js';
import { issueKeyFromBranch } from '../phase/handover.js';
import type { Candidate } from './find.js';

/** Issue keys in project, then number order (ABC-2 before ABC-10). */
export const keyOrder = (a: string, b: string) => {
  const [pa = '', na = '0'] = a.split('-');
  const [pb = '', nb = '0'] = b.split('-');
  return pa === pb ? Number(na) - Number(nb) : pa < pb ? -1 : 1;
};

/** Branch → worktree path, for the issues whose `Worktree:` comment is missing or stale. */
export async function worktreeBranches(main: string, env: NodeJS.ProcessEnv): Promise<Map<string, string>> {
  const map = new Map<string, string>();
  for (const w of await git.worktreeList(main, { env }).catch(() => [])) {
    const key = w.branch ? issueKeyFromBranch(w.branch)?.key : undefined;
    if (key && !map.has(key)) map.set(key, w.path);
  }
  return map;
}

/**
 * Where the agent runs: the assigner's `Worktree:` path when it exists here; for a start, nothing
 * else (a leaf is handed over only with its worktree). Otherwise the worktree whose branch carries
 * the key, else the main checkout (a parent planned without a worktree of its own).
 */
export function worktreeOf(c: Candidate, byKey: Map<string, string>, main: string): string | null {
  if (c.worktree && existsSync(c.worktree)) return c.worktree;
  if (c.handOff === 'start') return null;
  return byKey.get(c.key) ?? main;
}
