import { statSync } from 'node:fs';
import path from 'node:path';

/** Name of the configuration folder (ARCHITECTURE §10). */
export const JST_DIR_NAME = '.jst';

export interface JstLocation {
  /** The `.jst/` folder found, or null when there is none in reach. */
  jstDir: string | null;
  /** The repository (or linked worktree) root, or null when `cwd` is not inside a git checkout. */
  repoRoot: string | null;
}

/**
 * The first folder from `start` upwards that holds a `.git` entry. A linked worktree has a `.git`
 * *file* pointing at the main repository; it counts as a root of its own, because each worktree
 * carries its own copy of `.jst/` (spec §2: `.jst/` is copied into every new worktree).
 */
export function findRepoRoot(start: string): string | null {
  for (const dir of ancestors(path.resolve(start), null)) {
    if (exists(path.join(dir, '.git'))) return dir;
  }
  return null;
}

/**
 * Finds `.jst/` in `cwd` or a parent, stopping at the repository root so that a checkout never
 * picks up a folder from an enclosing repository or, for a worktree nested inside the main
 * checkout, the main checkout's own settings. Outside a repository it searches up to the
 * filesystem root.
 */
export function locateJstDir(cwd: string): JstLocation {
  const start = path.resolve(cwd);
  const repoRoot = findRepoRoot(start);
  for (const dir of ancestors(start, repoRoot)) {
    const candidate = path.join(dir, JST_DIR_NAME);
    if (isDirectory(candidate)) return { jstDir: candidate, repoRoot };
  }
  return { jstDir: null, repoRoot };
}

/** `start`, then each parent, ending with `stop` (inclusive) or the filesystem root. */
function* ancestors(start: string, stop: string | null): Generator<string> {
  let dir = start;
  for (;;) {
    yield dir;
    const parent = path.dirname(dir);
    if (dir === stop || parent === dir) return;
    dir = parent;
  }
}

// An entry we may not stat (permissions) is treated as absent: locating must never crash a healthcheck.
function stat(p: string): ReturnType<typeof statSync> | undefined {
  try {
    return statSync(p, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

function exists(p: string): boolean {
  return stat(p) !== undefined;
}

function isDirectory(p: string): boolean {
  return stat(p)?.isDirectory() ?? false;
}
