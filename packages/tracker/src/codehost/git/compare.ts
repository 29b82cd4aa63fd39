import { readCommits, type CommitInfo } from './commits.js';
import { cached } from './diff-cache.js';
import { readPatches, type PatchCut } from './diff-patches.js';
import { blobSizes } from './diff-sizes.js';
import { runGit } from './run.js';

/**
 * A pull request's commits and files as GitHub lists them: the commits in base..head and the diff
 * from the merge base to head, each list capped as GitHub caps it, patches cut per file and in
 * total (./diff-patches.ts), files too large never diffed, the answer cached (./diff-cache.ts).
 */

export interface FileChange {
  filename: string;
  status: 'added' | 'removed' | 'modified' | 'renamed' | 'copied' | 'changed' | 'unchanged';
  /** 0 for a binary file (as GitHub). */
  additions: number;
  deletions: number;
  changes: number;
  /** The blob at the head side (null for a removed file). */
  sha: string | null;
  /** The blob at the base side (null for an added file). */
  previous_sha: string | null;
  /** The hunks (from the first `@@`), absent when binary, empty of hunks, or cut for size (as GitHub). */
  patch?: string;
  previous_filename?: string;
  binary: boolean;
  /** Why a file with changes has no patch (docs/limits.md "Diffs"); absent when it has one, or none was asked for. */
  cut?: PatchCut;
}

export interface CompareLimits {
  /** GitHub's pulls/commits lists at most 250. */
  maxCommits: number;
  /** GitHub's pulls/files lists at most 3000. */
  maxFiles: number;
  /** A file's patch beyond this many bytes, or lines, is left out. */
  maxPatchBytes: number;
  maxPatchLines: number;
  /** Patches stop once this many bytes, or lines, were given in one comparison. */
  maxTotalPatchBytes: number;
  maxTotalPatchLines: number;
  /** A file whose blob on either side is larger is never diffed: no counts, no patch. */
  maxBlobBytes: number;
}

/** docs/limits.md "Diffs". */
export const DEFAULT_COMPARE_LIMITS: CompareLimits = {
  maxCommits: 250,
  maxFiles: 3000,
  maxPatchBytes: 512 * 1024,
  maxPatchLines: 20_000,
  maxTotalPatchBytes: 5 * 1024 * 1024,
  maxTotalPatchLines: 100_000,
  maxBlobBytes: 8 * 1024 * 1024,
};

export interface Comparison {
  /** null when base and head share no history (the diff is then from the empty tree). */
  mergeBase: string | null;
  /** base..head, oldest first, at most maxCommits. */
  commits: CommitInfo[];
  totalCommits: number;
  commitsTruncated: boolean;
  /** The diff from the merge base to head, at most maxFiles. */
  files: FileChange[];
  /** Totals over every changed file, also those beyond maxFiles. */
  changedFiles: number;
  additions: number;
  deletions: number;
  filesTruncated: boolean;
  /** Some patch was left out for size (per file or in total); false when no patch was asked for (a limit of 0). */
  patchesTruncated: boolean;
}

interface RawEntry {
  srcSha: string;
  dstSha: string;
  status: string;
  path: string;
  srcPath: string | null;
  srcMode: string;
  dstMode: string;
}

const ZERO = /^0+$/;

/** `git diff --raw -z` records: `:srcmode dstmode srcsha dstsha status\0path\0[path2\0]`. */
function parseRaw(text: string): RawEntry[] {
  const parts = text.split('\0');
  const out: RawEntry[] = [];
  for (let i = 0; i < parts.length;) {
    const head = parts[i++]!;
    if (!head.startsWith(':')) continue;
    const [srcMode, dstMode, srcSha, dstSha, status] = head.slice(1).split(' ') as [string, string, string, string, string];
    const first = parts[i++]!;
    if (status.startsWith('R') || status.startsWith('C')) {
      out.push({ srcSha, dstSha, status, srcPath: first, path: parts[i++]!, srcMode, dstMode });
    } else {
      out.push({ srcSha, dstSha, status, srcPath: null, path: first, srcMode, dstMode });
    }
  }
  return out;
}

/** `git diff --numstat -z` records by the file's (new) path: `[add, del]`, null for binary. */
function parseNumstat(text: string): Map<string, [number, number] | null> {
  const parts = text.split('\0');
  const out = new Map<string, [number, number] | null>();
  for (let i = 0; i < parts.length;) {
    const rec = parts[i++]!;
    if (rec === '') continue;
    const [a, d, inline] = rec.split('\t');
    let path = inline ?? '';
    if (path === '') {
      // A rename: the two paths follow as their own records.
      i += 1;
      path = parts[i++] ?? '';
    }
    out.set(path, a === '-' || d === '-' ? null : [Number(a), Number(d)]);
  }
  return out;
}

function statusOf(e: RawEntry): FileChange['status'] {
  switch (e.status[0]) {
    case 'A':
      return 'added';
    case 'D':
      return 'removed';
    case 'R':
      return 'renamed';
    case 'C':
      return 'copied';
    case 'T':
      return 'changed';
    case 'M':
      return e.srcSha === e.dstSha ? 'changed' : 'modified';
    default:
      return 'changed';
  }
}

const DIFF_OPTS = ['-M', '--no-color', '--no-ext-diff', '--no-textconv', '--full-index'];

/** Past this many files too large to diff, no file of the comparison is diffed (their names would not fit git's command line). */
const MAX_EXCLUDED = 500;

/** Pathspecs leaving out the files too large to diff (both sides of a rename). */
function excludes(big: RawEntry[]): string[] {
  return big.flatMap((e) => [e.path, ...(e.srcPath !== null ? [e.srcPath] : [])]).map((p) => `:(exclude,literal)${p}`);
}

/** A comparison's key in the diff cache (its commits are full ids, so its answer never changes). */
const keyOf = (gitDir: string, base: string, head: string, limits: CompareLimits) => `cmp\0${gitDir}\0${base}\0${head}\0${JSON.stringify(limits)}`;

/** What a comparison holds, roughly, in bytes. */
function sizeOf(c: Comparison): number {
  let n = 512;
  for (const f of c.files) n += 256 + 2 * (f.filename.length + (f.previous_filename?.length ?? 0) + (f.patch?.length ?? 0));
  for (const k of c.commits) n += 512 + 2 * k.message.length;
  return n;
}

/** The empty tree's id in this repository's hash (the diff's origin when there is no merge base). */
async function emptyTree(gitDir: string, timeoutMs: number): Promise<string> {
  return (await runGit(gitDir, ['hash-object', '-t', 'tree', '--stdin'], { input: '', timeoutMs })).stdout.toString('utf8').trim();
}

/**
 * base...head, bounded (ARCHITECTURE §22 "Bounded work") and cached by its two commits and limits
 * (./diff-cache.ts): `git diff --raw` names the files without reading them, their blob sizes come
 * from `git cat-file --batch-check`, and a file with a side over `maxBlobBytes` is never diffed
 * (no counts, no patch: `cut: 'too_large'`); the others' counts come from `--numstat` and their
 * patches from one streamed `git diff -p` within the patch budgets.
 */
export function compareCommits(
  gitDir: string,
  base: string | null,
  head: string,
  limits: CompareLimits,
  timeoutMs: number,
  mode: CompareMode = 'merge-base',
): Promise<Comparison> {
  return cached(keyOf(gitDir, `${mode}:${base ?? 'root'}`, head, limits), () => compareUncached(gitDir, base, head, limits, timeoutMs, mode), sizeOf);
}

/** The diff's origin: the merge base of base and head (a pull request's three dots), or base itself (two heads, or a commit and its parent). */
export type CompareMode = 'merge-base' | 'direct';

async function origin(
  gitDir: string,
  base: string | null,
  head: string,
  mode: CompareMode,
  timeoutMs: number,
): Promise<{ mergeBase: string | null; from: string }> {
  if (base === null) return { mergeBase: null, from: await emptyTree(gitDir, timeoutMs) };
  if (mode === 'direct') return { mergeBase: base, from: base };
  const mb = await runGit(gitDir, ['merge-base', base, head], { timeoutMs, okCodes: [1] });
  const mergeBase = mb.code === 0 ? mb.stdout.toString('utf8').trim().split('\n')[0]! : null;
  return { mergeBase, from: mergeBase ?? (await emptyTree(gitDir, timeoutMs)) };
}

async function compareUncached(
  gitDir: string,
  base: string | null,
  head: string,
  limits: CompareLimits,
  timeoutMs: number,
  mode: CompareMode,
): Promise<Comparison> {
  const { mergeBase, from } = await origin(gitDir, base, head, mode, timeoutMs);
  const [revs, raw] = await Promise.all([
    // A root commit (no base) is its own one commit.
    base === null ? null : runGit(gitDir, ['rev-list', '--reverse', '--topo-order', head, `^${base}`], { timeoutMs }),
    runGit(gitDir, ['diff', '--raw', '-z', '--no-abbrev', ...DIFF_OPTS, from, head, '--'], { timeoutMs }),
  ]);
  const shas =
    revs === null
      ? [head]
      : revs.stdout
          .toString('utf8')
          .split('\n')
          .filter((s) => s !== '');
  const commits = await readCommits(gitDir, shas.slice(0, limits.maxCommits), timeoutMs);

  const entries = parseRaw(raw.stdout.toString('utf8'));
  const sizes = await blobSizes(
    gitDir,
    entries.flatMap((e) => [e.srcSha, e.dstSha]),
    timeoutMs,
  );
  const isBig = (e: RawEntry) => (sizes.get(e.srcSha) ?? 0) > limits.maxBlobBytes || (sizes.get(e.dstSha) ?? 0) > limits.maxBlobBytes;
  const big = entries.filter(isBig);
  const diffable = big.length > MAX_EXCLUDED ? [] : entries.filter((e) => !isBig(e));
  const pathspec = ['--', ...excludes(big)];
  const numstat = diffable.length === 0 ? null : await runGit(gitDir, ['diff', '--numstat', '-z', ...DIFF_OPTS, from, head, ...pathspec], { timeoutMs });
  const stats = numstat === null ? new Map<string, [number, number] | null>() : parseNumstat(numstat.stdout.toString('utf8'));
  // The patches of the diffable files among the first maxFiles, in --raw's order.
  const shown = new Set(entries.slice(0, limits.maxFiles));
  const wanted = diffable.filter((e) => shown.has(e)).length;
  const pass = await readPatches(gitDir, [...DIFF_OPTS, from, head, ...pathspec], diffable, wanted, limits, timeoutMs);
  const patchOf = new Map<RawEntry, { patch: string | undefined; cut: PatchCut | undefined }>();
  diffable.slice(0, wanted).forEach((e, i) => patchOf.set(e, { patch: pass.patches[i], cut: pass.cuts[i] }));

  let additions = 0;
  let deletions = 0;
  let cut = false;
  const files: FileChange[] = [];
  entries.forEach((e, i) => {
    const tooLarge = isBig(e) || diffable.length === 0;
    const stat = tooLarge ? null : (stats.get(e.path) ?? null);
    const [add, del] = stat ?? [0, 0];
    additions += add;
    deletions += del;
    if (i >= limits.maxFiles) return;
    const file: FileChange = {
      filename: e.path,
      status: statusOf(e),
      additions: add,
      deletions: del,
      changes: add + del,
      sha: ZERO.test(e.dstSha) ? null : e.dstSha,
      previous_sha: ZERO.test(e.srcSha) ? null : e.srcSha,
      binary: !tooLarge && stat === null,
    };
    const p = patchOf.get(e);
    const wantsPatch = limits.maxPatchBytes > 0 && limits.maxTotalPatchBytes > 0;
    if (p?.patch !== undefined && stat !== null) file.patch = p.patch;
    else if (wantsPatch && tooLarge) file.cut = 'too_large';
    else if (wantsPatch && p?.cut !== undefined && stat !== null && add + del > 0) file.cut = p.cut;
    if (file.cut !== undefined) cut = true;
    if (e.srcPath !== null) file.previous_filename = e.srcPath;
    files.push(file);
  });
  return {
    mergeBase,
    commits,
    totalCommits: shas.length,
    commitsTruncated: shas.length > limits.maxCommits,
    files,
    changedFiles: entries.length,
    additions,
    deletions,
    filesTruncated: entries.length > limits.maxFiles,
    patchesTruncated: cut,
  };
}
