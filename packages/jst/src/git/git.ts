import path from 'node:path';
import { canonicalKey, keptRead, parseConfigList, readKey } from './reads.js';
import { GitError, runGit, type GitOptions } from './run.js';

/** Where a checkout sits: its own root, and whether it is a linked worktree of another checkout. */
export interface WorktreeInfo {
  /** Top folder of the checkout `cwd` is in. */
  root: string;
  /** True when `cwd` is in a linked worktree (`git worktree add`), false in the main checkout. */
  linked: boolean;
  gitDir: string;
  commonDir: string;
  /** The main checkout's folder (for a linked worktree, the checkout it was added from). */
  mainPath: string;
}

export interface WorktreeEntry {
  path: string;
  /** Commit id of HEAD; empty for a bare entry. */
  head: string;
  /** Short branch name, or null when detached or bare. */
  branch: string | null;
  bare: boolean;
  detached: boolean;
  locked: boolean;
  prunable: boolean;
}

/** `git rev-parse --show-toplevel`. */
export async function repoRoot(cwd: string, o?: GitOptions): Promise<string> {
  return (await runGit(['rev-parse', '--show-toplevel'], cwd, o)).stdout;
}

/**
 * One process answers root, git dir and common dir. A linked worktree has its own git dir
 * (`.git/worktrees/<name>`) but shares the main checkout's common dir; in the main checkout the
 * two are the same folder.
 */
export async function worktreeInfo(cwd: string, o?: GitOptions): Promise<WorktreeInfo> {
  return infoOf(cwd, (await runGit(['rev-parse', '--show-toplevel', '--git-dir', '--git-common-dir'], cwd, o)).stdout.split('\n'));
}

/**
 * worktreeInfo and the checked-out branch (null on a detached HEAD) from one process where git
 * can answer both at once; on an unborn branch (no commit yet) or outside a checkout, as the two
 * calls answer.
 */
export async function worktreeBranch(cwd: string, o?: GitOptions): Promise<WorktreeInfo & { branch: string | null }> {
  const r = await runGit(['rev-parse', '--show-toplevel', '--git-dir', '--git-common-dir', '--symbolic-full-name', 'HEAD'], cwd, { ...o, okCodes: [0, 128] });
  const lines = r.stdout.split('\n');
  if (r.code !== 0 || lines.length !== 4) {
    const info = await worktreeInfo(cwd, o);
    return { ...info, branch: await currentBranch(info.root, o) };
  }
  const full = lines[3]!;
  return {
    ...infoOf(cwd, lines.slice(0, 3)),
    branch: full.startsWith('refs/heads/') && full.length > 'refs/heads/'.length ? full.slice('refs/heads/'.length) : null,
  };
}

function infoOf(cwd: string, out: string[]): WorktreeInfo {
  const [root = '', gitDir = '', commonDir = ''] = out.map((line) => path.resolve(cwd, line));
  // The common dir of a normal checkout is `<main>/.git`; anything else (a bare or separate git
  // dir) has no better name for "the main checkout" than the folder itself.
  const mainPath = path.basename(commonDir) === '.git' ? path.dirname(commonDir) : commonDir;
  return { root, linked: gitDir !== commonDir, gitDir, commonDir, mainPath };
}

export async function isLinkedWorktree(cwd: string, o?: GitOptions): Promise<boolean> {
  return (await worktreeInfo(cwd, o)).linked;
}

/** The checked-out branch's short name; null on a detached HEAD. */
export async function currentBranch(cwd: string, o?: GitOptions): Promise<string | null> {
  const r = await runGit(['symbolic-ref', '--quiet', '--short', 'HEAD'], cwd, { ...o, okCodes: [0, 1] });
  return r.code === 0 && r.stdout !== '' ? r.stdout : null;
}

/**
 * The remote's URL as configured, before any `url.<base>.insteadOf` rewrite: that is the name
 * that identifies the repository on the code host, whatever transport fetches it. Null when the
 * remote does not exist.
 */
export async function remoteUrl(cwd: string, remote = 'origin', o?: GitOptions): Promise<string | null> {
  return configGet(cwd, `remote.${remote}.url`, o);
}

/** `2.39.5` from `git version 2.39.5` (platform suffixes such as `.windows.1` kept). */
export async function gitVersion(o?: GitOptions): Promise<string> {
  const out = (await runGit(['--version'], undefined, o)).stdout;
  return out.replace(/^git version\s+/, '');
}

/**
 * What `git config --get` answers (null when the key is not set), from one `git config --list -z`
 * per folder that the command's other reads share (git/reads.ts).
 */
export async function configGet(cwd: string, key: string, o?: GitOptions): Promise<string | null> {
  const value = (await configList(cwd, o)).get(canonicalKey(key));
  return value === undefined ? null : value.trim();
}

/** Every key git's configuration sets in `cwd` (the last value of each), read once per command. */
function configList(cwd: string, o?: GitOptions): Promise<Map<string, string>> {
  return keptRead(readKey('config', cwd, o?.env), async () => {
    const r = await runGit(['config', '--list', '-z'], cwd, { ...o, okCodes: [0, 1], keptRead: true });
    return parseConfigList(r.code === 0 ? r.stdout : '');
  });
}

/**
 * Where git connects for `remote`: the `protocol://host[:port]` of each of its http(s) URLs, fetch
 * and push, as git's credential helpers are asked about them (an ssh or file remote gives none).
 * From the configuration already read; with a `url.<base>.insteadOf`/`pushInsteadOf` anywhere in it,
 * from `git remote get-url`, which applies the rewriting.
 */
export async function remoteOrigins(cwd: string, remote = 'origin', o?: GitOptions): Promise<string[]> {
  const all = await configList(cwd, o);
  let urls: string[];
  if ([...all.keys()].some((k) => /^url\..*\.(push)?insteadof$/.test(k))) {
    const ask = async (...args: string[]) => (await runGit(['remote', 'get-url', '--all', ...args, remote], cwd, { ...o, okCodes: [0, 2, 128] })).stdout;
    urls = `${await ask()}\n${await ask('--push')}`.split('\n');
  } else {
    urls = [all.get(`remote.${remote}.url`) ?? '', all.get(`remote.${remote}.pushurl`) ?? ''];
  }
  const origins = urls.map((u) => /^(https?):\/\/(?:[^@/?#]*@)?([^/?#\s]+)/i.exec(u.trim())).map((m) => (m ? `${m[1]}://${m[2]}` : null));
  return [...new Set(origins.filter((x): x is string => x !== null))];
}

export async function configSet(cwd: string, key: string, value: string, o?: GitOptions): Promise<void> {
  await runGit(['config', key, value], cwd, o);
}

/**
 * `git check-ignore -q`: true when git's exclude rules ignore `file`. A tracked file counts as not
 * ignored (it is committed whatever the rules say) unless `noIndex` asks about the rules alone.
 */
export async function isIgnored(cwd: string, file: string, o?: GitOptions & { noIndex?: boolean }): Promise<boolean> {
  const args = ['check-ignore', '-q', ...(o?.noIndex === true ? ['--no-index'] : []), '--', file];
  return (await runGit(args, cwd, { ...o, okCodes: [0, 1] })).code === 0;
}

/** `git check-ref-format --branch`: git's own word on whether `name` can be a branch. */
export async function checkRefFormat(name: string, o?: GitOptions): Promise<boolean> {
  // A leading dash would be read as an option; git itself rejects such branch names anyway.
  if (name.startsWith('-')) return false;
  return (await runGit(['check-ref-format', '--branch', name], undefined, { ...o, okCodes: [0, 1, 128] })).code === 0;
}

export async function branchExists(cwd: string, name: string, o?: GitOptions): Promise<boolean> {
  return (await runGit(['show-ref', '--verify', '--quiet', `refs/heads/${name}`], cwd, { ...o, okCodes: [0, 1] })).code === 0;
}

/** Asks origin itself (`git ls-remote --heads`), not the possibly stale remote-tracking refs. */
export async function remoteBranchExists(cwd: string, name: string, o?: GitOptions): Promise<boolean> {
  const ref = `refs/heads/${name}`;
  const out = (await runGit(['ls-remote', '--heads', 'origin', ref], cwd, o)).stdout;
  // The pattern matches ref-name tails too (`x/feature/a` for `feature/a`), so compare exactly.
  return out.split('\n').some((line) => line.split('\t')[1] === ref);
}

/** How many times `fetch` runs git when it lost a remote-tracking ref's lock to another fetch. */
const FETCH_ATTEMPTS = 3;

/**
 * spec §1 rule 8: `git fetch origin` before branching, on both paths. The worktrees of one
 * repository share its remote-tracking refs, so two agents fetching at once (jst dispatch) can
 * meet on one ref: git then fails the later with "cannot lock ref … is at X but expected Y" (the
 * other fetch moved it a moment before). That fetch is run again, after a short random wait.
 */
export async function fetch(cwd: string, o?: GitOptions): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      // A fetch changes remote-tracking refs, never the configuration read so far (git/reads.ts).
      await runGit(['fetch', 'origin'], cwd, { ...o, changesOnlyRefs: true });
      return;
    } catch (error) {
      const lost = error instanceof GitError && /cannot lock ref|unable to update local ref/i.test(error.stderr);
      if (!lost || attempt >= FETCH_ATTEMPTS) throw error;
      await new Promise((r) => setTimeout(r, 60 * attempt + Math.floor(Math.random() * 60)));
    }
  }
}

/**
 * spec §1 rule 8: planned work runs `git pull --ff-only origin <BRANCH_FROM>`. Real divergence
 * comes back as GIT_PULL_DIVERGED so the plan can put it to the user instead of failing blind.
 */
export async function pullFfOnly(cwd: string, base: string, o?: GitOptions): Promise<void> {
  const args = ['pull', '--ff-only', 'origin', base];
  try {
    await runGit(args, cwd, o);
  } catch (error) {
    if (error instanceof GitError && /not possible to fast-forward|diverg/i.test(error.stderr)) {
      throw new GitError(
        args,
        cwd,
        error.exitStatus,
        error.stderr,
        'GIT_PULL_DIVERGED',
        `Local ${base} and origin/${base} have diverged: reconcile them (rebase or merge), then rerun`,
      );
    }
    throw error;
  }
}

/** `git worktree add -b <branch> <path> <startPoint>`: a new branch in a new worktree. */
export async function worktreeAdd(cwd: string, worktreePath: string, branch: string, startPoint: string, o?: GitOptions): Promise<void> {
  await runGit(['worktree', 'add', '-b', branch, worktreePath, startPoint], cwd, o);
}

/** `git worktree list --porcelain`, main checkout first. */
export async function worktreeList(cwd: string, o?: GitOptions): Promise<WorktreeEntry[]> {
  return parseWorktreeList((await runGit(['worktree', 'list', '--porcelain'], cwd, o)).stdout);
}

export function parseWorktreeList(porcelain: string): WorktreeEntry[] {
  const entries: WorktreeEntry[] = [];
  for (const block of porcelain.split(/\n\s*\n/)) {
    const entry: WorktreeEntry = { path: '', head: '', branch: null, bare: false, detached: false, locked: false, prunable: false };
    for (const line of block.split('\n')) {
      const [word = '', ...rest] = line.split(' ');
      const value = rest.join(' ');
      if (word === 'worktree') entry.path = value;
      else if (word === 'HEAD') entry.head = value;
      else if (word === 'branch') entry.branch = value.replace(/^refs\/heads\//, '');
      else if (word === 'bare') entry.bare = true;
      else if (word === 'detached') entry.detached = true;
      else if (word === 'locked') entry.locked = true;
      else if (word === 'prunable') entry.prunable = true;
    }
    if (entry.path !== '') entries.push(entry);
  }
  return entries;
}

/** spec §1 rule 10: the only push of phase 1 is `git push -u origin <top-level branch>`. */
export async function push(cwd: string, branch: string, o?: GitOptions): Promise<void> {
  await runGit(['push', '-u', 'origin', branch], cwd, o);
}
