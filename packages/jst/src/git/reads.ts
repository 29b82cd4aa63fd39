/**
 * Reads of a checkout that several steps of one command ask for (its configuration, its branch
 * refs), made once and kept until the command itself runs any other git command (which may change
 * them: a fetch, a push, a `git config`, a worktree) or `forgetReads()` (each `jst mcp` tool call
 * starts with it, as each CLI run starts with an empty process). Keyed by the folder and every
 * `GIT_*` variable of the environment (a push as a role adds its own configuration that way).
 */
const kept = new Map<string, Promise<unknown>>();

/** Forgets every kept read, or only those of one kind (a fetch changes refs, never the configuration). */
export function forgetReads(kind?: 'refs'): void {
  if (kind === undefined) kept.clear();
  else for (const key of [...kept.keys()]) if (key.startsWith(`["${kind}",`)) kept.delete(key);
}

export function readKey(kind: string, cwd: string | undefined, env: NodeJS.ProcessEnv | undefined): string {
  const gitVars = Object.entries(env ?? process.env)
    .filter(([k]) => k.startsWith('GIT_'))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([kind, cwd ?? null, gitVars]);
}

/** `read()` once per key while nothing else runs; a failed read is not kept. */
export function keptRead<T>(key: string, read: () => Promise<T>): Promise<T> {
  const hit = kept.get(key) as Promise<T> | undefined;
  if (hit) return hit;
  const p = read();
  kept.set(key, p);
  p.catch(() => {
    if (kept.get(key) === p) kept.delete(key);
  });
  return p;
}

/**
 * `git config --list -z` as a map of the last value of each key (what `git config --get` answers).
 * Names as git prints them: section and variable in lower case, the subsection as written.
 */
export function parseConfigList(out: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const entry of out.split('\0')) {
    if (entry === '') continue;
    const nl = entry.indexOf('\n');
    // A key with no `=` (a bare boolean) has no newline and no value: `git config --get` prints nothing.
    map.set(nl < 0 ? entry : entry.slice(0, nl), nl < 0 ? '' : entry.slice(nl + 1));
  }
  return map;
}

/** A key as `git config --list` prints it: `Branch.Feature/X.ParentBranch` → `branch.Feature/X.parentbranch`. */
export function canonicalKey(key: string): string {
  const first = key.indexOf('.');
  const last = key.lastIndexOf('.');
  if (first < 0) return key.toLowerCase();
  if (first === last) return key.toLowerCase();
  return `${key.slice(0, first).toLowerCase()}${key.slice(first, last)}${key.slice(last).toLowerCase()}`;
}
