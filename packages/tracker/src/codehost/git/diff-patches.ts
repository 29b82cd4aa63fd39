import { spawn } from 'node:child_process';
import { minimalGitEnv, noteGitProcess } from './run.js';
import { inGitSlot } from './slots.js';

/**
 * The patches of one `git diff -p`, read streaming from git within budgets (ARCHITECTURE §22
 * "Bounded work"): a file's patch is kept up to a byte and a line budget of its own, the
 * comparison's patches up to a total of bytes and lines; once no more patch is wanted git is
 * stopped, so the diff's text is never held whole. Each file that got no patch says why.
 */

/** Why a file has no `patch`: its blob is over the size git is asked to diff, its patch over a file's budget, or the comparison's budget was spent. */
export type PatchCut = 'too_large' | 'patch_too_large' | 'budget';

export interface PatchBudget {
  maxPatchBytes: number;
  maxPatchLines: number;
  maxTotalPatchBytes: number;
  maxTotalPatchLines: number;
}

/** One file of the diff, as `git diff --raw` names it (only what the sections are checked by). */
export interface PatchEntry {
  srcSha: string;
  dstSha: string;
}

export interface PatchPass {
  patches: Array<string | undefined>;
  cuts: Array<PatchCut | undefined>;
  cut: boolean;
}

/**
 * Sections of `git diff -p`, one per file: each file's hunks (from its first `@@` line) kept
 * while the budgets allow. A file's section starts at a line `diff --git `; no hunk line can start
 * so (hunk lines start with ' ', '+', '-', '\' or '@'). Sections are matched to --raw's entries by
 * order and checked by their `index <src>..<dst>` line; on any mismatch the remaining patches are
 * dropped, never misplaced.
 */
class PatchSections {
  readonly patches: Array<string | undefined>;
  readonly cuts: Array<PatchCut | undefined>;
  private index = -1;
  private hunks: Buffer[] = [];
  private hunkBytes = 0;
  private hunkLines = 0;
  private inHunks = false;
  private oversize = false;
  private valid = true;
  /** The first section dropped once `valid` fell (the budget spent, or git's order not --raw's). */
  private dropFrom = Number.MAX_SAFE_INTEGER;
  private totalBytes = 0;
  private totalLines = 0;

  constructor(
    private readonly entries: PatchEntry[],
    private readonly wanted: number,
    private readonly budget: PatchBudget,
  ) {
    this.patches = new Array<string | undefined>(wanted).fill(undefined);
    this.cuts = new Array<PatchCut | undefined>(wanted).fill(undefined);
  }

  /** Takes one line of the diff (`dropped`: only its start was kept); false when no more are wanted. */
  line(line: Buffer, dropped: boolean): boolean {
    if (line.subarray(0, 11).toString('latin1') === 'diff --git ') {
      this.close();
      this.index += 1;
      this.hunks = [];
      this.hunkBytes = 0;
      this.hunkLines = 0;
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
        if (m === null || m[1] !== e.srcSha || m[2] !== e.dstSha) this.invalidate();
        return true;
      }
      if (!s.startsWith('@@')) return true;
      this.inHunks = true;
    }
    if (this.oversize) return true;
    this.hunkBytes += line.length;
    this.hunkLines += 1;
    if (dropped || this.hunkBytes > this.budget.maxPatchBytes || this.hunkLines > this.budget.maxPatchLines) {
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
      this.cuts[this.index] = 'patch_too_large';
      return;
    }
    if (!this.inHunks) return;
    let text = Buffer.concat(this.hunks).toString('utf8');
    if (text.endsWith('\n')) text = text.slice(0, -1);
    const bytes = Buffer.byteLength(text, 'utf8');
    if (this.totalBytes + bytes > this.budget.maxTotalPatchBytes || this.totalLines + this.hunkLines > this.budget.maxTotalPatchLines) {
      this.invalidate();
      return;
    }
    this.totalBytes += bytes;
    this.totalLines += this.hunkLines;
    this.patches[this.index] = text;
  }

  private invalidate(): void {
    this.valid = false;
    this.dropFrom = Math.min(this.dropFrom, this.index);
  }

  result(): PatchPass {
    // Every section not reached (the budget was spent, or git's order was not --raw's) is cut for the budget.
    let cut = false;
    for (let i = 0; i < this.wanted; i++) {
      if (this.cuts[i] !== undefined) cut = true;
      else if (i >= this.dropFrom) {
        this.cuts[i] = 'budget';
        cut = true;
      }
    }
    return { patches: this.patches, cuts: this.cuts, cut };
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

/**
 * Streams `git diff -p ARGS` into sections for the first `wanted` of `entries` (in --raw's order,
 * the files excluded by ARGS' pathspecs left out of `entries` too), stopping git as soon as no
 * more patches are wanted.
 */
export function readPatches(gitDir: string, args: string[], entries: PatchEntry[], wanted: number, budget: PatchBudget, timeoutMs: number): Promise<PatchPass> {
  const sections = new PatchSections(entries, wanted, budget);
  // No patch asked for (a count of changes only): the diff's text is not produced at all.
  if (wanted === 0 || budget.maxPatchBytes <= 0 || budget.maxTotalPatchBytes <= 0) return Promise.resolve(sections.result());
  return inGitSlot(() => streamPatches(gitDir, args, sections, budget, timeoutMs));
}

function streamPatches(gitDir: string, args: string[], sections: PatchSections, budget: PatchBudget, timeoutMs: number): Promise<PatchPass> {
  return new Promise((resolve, reject) => {
    noteGitProcess(['diff', '-p', ...args]);
    const child = spawn('git', [`--git-dir=${gitDir}`, 'diff', '-p', ...args], { env: minimalGitEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let done = false;
    let stderr = '';
    const timer = setTimeout(() => finish(new Error(`git diff took longer than ${timeoutMs} ms`)), timeoutMs);
    const stop = () => {
      if (done) return;
      done = true;
      child.kill('SIGKILL');
    };
    const lines = lineSplitter(budget.maxPatchBytes, (line, dropped) => {
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
