import { spawn } from 'node:child_process';
import { readCommits, type CommitInfo } from './commits.js';
import { minimalGitEnv, noteGitProcess, runGit } from './run.js';
import { inGitSlot } from './slots.js';

/**
 * A pull request's commits and files as GitHub lists them: the commits in base..head and the diff
 * from the merge base to head, each list capped as GitHub caps it, patches cut per file and in total.
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
}

export interface CompareLimits {
  /** GitHub's pulls/commits lists at most 250. */
  maxCommits: number;
  /** GitHub's pulls/files lists at most 3000. */
  maxFiles: number;
  /** A file's patch beyond this many bytes is left out. */
  maxPatchBytes: number;
  /** Patches stop once this many bytes were given in one comparison. */
  maxTotalPatchBytes: number;
}

export const DEFAULT_COMPARE_LIMITS: CompareLimits = {
  maxCommits: 250,
  maxFiles: 3000,
  maxPatchBytes: 1024 * 1024,
  maxTotalPatchBytes: 5 * 1024 * 1024,
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

/** `git diff --numstat -z` records, in the same order as --raw's: `[add, del]`, null for binary. */
function parseNumstat(text: string): Array<[number, number] | null> {
  const parts = text.split('\0');
  const out: Array<[number, number] | null> = [];
  for (let i = 0; i < parts.length;) {
    const rec = parts[i++]!;
    if (rec === '') continue;
    const [a, d, path] = rec.split('\t');
    if (path === '') i += 2; // a rename: the two paths follow as their own records
    out.push(a === '-' || d === '-' ? null : [Number(a), Number(d)]);
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

interface PatchPass {
  patches: Array<string | undefined>;
  cut: boolean;
}

/**
 * The patches of one `git diff -p`, section by section: each file's hunks (from its first `@@`
 * line) kept while the caps allow. A file's section starts at a line `diff --git `; no hunk line
 * can start so (hunk lines start with ' ', '+', '-', '\' or '@'). Sections are matched to --raw's
 * entries by order and checked by their `index <src>..<dst>` line; on any mismatch the remaining
 * patches are dropped, never misplaced.
 */
class PatchSections {
  readonly patches: Array<string | undefined>;
  private index = -1;
  private hunks: Buffer[] = [];
  private hunkBytes = 0;
  private inHunks = false;
  private oversize = false;
  private valid = true;
  private total = 0;
  private cut = false;

  constructor(
    private readonly entries: RawEntry[],
    private readonly wanted: number,
    private readonly limits: CompareLimits,
  ) {
    this.patches = new Array<string | undefined>(wanted).fill(undefined);
  }

  /** Takes one line of the diff (`dropped`: only its start was kept); false when no more are wanted. */
  line(line: Buffer, dropped: boolean): boolean {
    if (line.subarray(0, 11).toString('latin1') === 'diff --git ') {
      this.close();
      this.index += 1;
      this.hunks = [];
      this.hunkBytes = 0;
      this.inHunks = false;
      this.oversize = false;
      return this.index < this.wanted && this.valid;
    }
    if (this.index < 0 || this.index >= this.wanted) return true;
    if (!this.inHunks) {
      const s = line.toString('latin1');
      if (s.startsWith('index ')) {
        const m = /^index ([0-9a-f]+)\.\.([0-9a-f]+)/.exec(s);
        const e = this.entries[this.index]!;
        if (m === null || m[1] !== e.srcSha || m[2] !== e.dstSha) {
          this.valid = false;
          this.cut = true;
        }
        return true;
      }
      if (!s.startsWith('@@')) return true;
      this.inHunks = true;
    }
    if (this.oversize) return true;
    this.hunkBytes += line.length;
    if (dropped || this.hunkBytes > this.limits.maxPatchBytes) {
      this.oversize = true;
      this.hunks = [];
      return true;
    }
    this.hunks.push(line);
    return true;
  }

  /** Ends the current section: its patch is kept if it fits. */
  close(): void {
    if (this.index < 0 || this.index >= this.wanted) return;
    if (!this.valid) return;
    if (this.oversize) {
      this.cut = true;
      return;
    }
    if (!this.inHunks) return;
    let text = Buffer.concat(this.hunks).toString('utf8');
    if (text.endsWith('\n')) text = text.slice(0, -1);
    const bytes = Buffer.byteLength(text, 'utf8');
    if (this.total + bytes > this.limits.maxTotalPatchBytes) {
      this.cut = true;
      this.valid = false;
      return;
    }
    this.total += bytes;
    this.patches[this.index] = text;
  }

  result(): PatchPass {
    return { patches: this.patches, cut: this.cut || !this.valid };
  }
}

/**
 * Cuts a stream into lines for `onLine` (which answers false to stop). Of one very long line only
 * what a patch could take (`maxLine`) is kept, and it is passed on marked as dropped.
 */
function lineSplitter(maxLine: number, onLine: (line: Buffer, dropped: boolean) => boolean) {
  let partial: Buffer[] = [];
  let partialBytes = 0;
  let partialDropped = false;
  return {
    /** False when `onLine` asked to stop. */
    push(chunk: Buffer): boolean {
      let start = 0;
      for (;;) {
        const nl = chunk.indexOf(10, start);
        if (nl < 0) break;
        const piece = chunk.subarray(start, nl + 1);
        const line = partial.length === 0 ? piece : Buffer.concat([...partial, piece]);
        const dropped = partialDropped;
        partial = [];
        partialBytes = 0;
        partialDropped = false;
        if (!onLine(line, dropped)) return false;
        start = nl + 1;
      }
      if (start < chunk.length) {
        const rest = chunk.subarray(start);
        if (partialBytes + rest.length > maxLine + 16) partialDropped = true;
        else {
          partial.push(Buffer.from(rest));
          partialBytes += rest.length;
        }
      }
      return true;
    },
    /** The last line, when the stream did not end with a newline. */
    end(): void {
      if (partial.length > 0) onLine(Buffer.concat(partial), partialDropped);
    },
  };
}

/** Streams `git diff -p` into PatchSections, stopping git as soon as no more patches are wanted. */
function readPatches(gitDir: string, from: string, to: string, entries: RawEntry[], limits: CompareLimits, timeoutMs: number): Promise<PatchPass> {
  const wanted = Math.min(entries.length, limits.maxFiles);
  const sections = new PatchSections(entries, wanted, limits);
  // No patch asked for (a count of changes only): the diff's text is not produced at all.
  if (wanted === 0 || limits.maxPatchBytes <= 0 || limits.maxTotalPatchBytes <= 0) return Promise.resolve(sections.result());
  return inGitSlot(() => streamPatches(gitDir, from, to, sections, limits, timeoutMs));
}

function streamPatches(gitDir: string, from: string, to: string, sections: PatchSections, limits: CompareLimits, timeoutMs: number): Promise<PatchPass> {
  return new Promise((resolve, reject) => {
    noteGitProcess(['diff', '-p', from, to]);
    const child = spawn('git', [`--git-dir=${gitDir}`, 'diff', '-p', ...DIFF_OPTS, from, to, '--'], {
      env: minimalGitEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let done = false;
    let stderr = '';
    const timer = setTimeout(() => finish(new Error(`git diff took longer than ${timeoutMs} ms`)), timeoutMs);
    const stop = () => {
      if (done) return;
      done = true;
      child.kill('SIGKILL');
    };
    const lines = lineSplitter(limits.maxPatchBytes, (line, dropped) => {
      if (sections.line(line, dropped)) return true;
      stop();
      return false;
    });
    child.stdout.on('data', (chunk: Buffer) => {
      if (!done) lines.push(chunk);
    });
    child.stderr.on('data', (c: Buffer) => {
      if (stderr.length < 4096) stderr += c.toString('utf8');
    });
    child.on('error', (e) => finish(e));
    child.on('close', (code) => {
      if (!done) {
        lines.end();
        sections.close();
        if (code !== 0) return finish(new Error(`git diff failed (exit ${code}): ${stderr.trim().slice(-300)}`));
      }
      finish(null);
    });
    function finish(error: Error | null) {
      clearTimeout(timer);
      if (error !== null) {
        child.kill('SIGKILL');
        reject(error);
        return;
      }
      resolve(sections.result());
    }
  });
}

/** The empty tree's id in this repository's hash (the diff's origin when there is no merge base). */
async function emptyTree(gitDir: string, timeoutMs: number): Promise<string> {
  return (await runGit(gitDir, ['hash-object', '-t', 'tree', '--stdin'], { input: '', timeoutMs })).stdout.toString('utf8').trim();
}

export async function compareCommits(gitDir: string, base: string, head: string, limits: CompareLimits, timeoutMs: number): Promise<Comparison> {
  const mb = await runGit(gitDir, ['merge-base', base, head], { timeoutMs, okCodes: [1] });
  const mergeBase = mb.code === 0 ? mb.stdout.toString('utf8').trim().split('\n')[0]! : null;
  const from = mergeBase ?? (await emptyTree(gitDir, timeoutMs));

  const [revs, raw, numstat] = await Promise.all([
    runGit(gitDir, ['rev-list', '--reverse', '--topo-order', head, `^${base}`], { timeoutMs }),
    runGit(gitDir, ['diff', '--raw', '-z', '--no-abbrev', ...DIFF_OPTS, from, head, '--'], { timeoutMs }),
    runGit(gitDir, ['diff', '--numstat', '-z', ...DIFF_OPTS, from, head, '--'], { timeoutMs }),
  ]);
  const shas = revs.stdout
    .toString('utf8')
    .split('\n')
    .filter((s) => s !== '');
  const commits = await readCommits(gitDir, shas.slice(0, limits.maxCommits), timeoutMs);

  const entries = parseRaw(raw.stdout.toString('utf8'));
  const stats = parseNumstat(numstat.stdout.toString('utf8'));
  const { patches, cut } = await readPatches(gitDir, from, head, entries, limits, timeoutMs);

  let additions = 0;
  let deletions = 0;
  const files: FileChange[] = [];
  entries.forEach((e, i) => {
    const stat = stats.length === entries.length ? (stats[i] ?? null) : null;
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
      binary: stat === null,
    };
    const patch = patches[i];
    if (patch !== undefined && stat !== null) file.patch = patch;
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
