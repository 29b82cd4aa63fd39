import { cached } from './diff-cache.js';
import { blobSizes } from './diff-sizes.js';
import { runGit } from './run.js';

/**
 * A pull request's diff and patch as text (ARCHITECTURE §22: the `.diff` and `.patch` pages, and
 * REST's `application/vnd.github.diff` / `.patch` media types): what `git diff base...head` and
 * `git format-patch --stdout base..head` print, whole or not at all. Before git writes a line, the
 * files are counted and their blobs' sizes asked; git is stopped as soon as its output passes the
 * budget. The text is cached by its two commits (./diff-cache.ts).
 */

export interface DiffTextLimits {
  /** The text's bytes. */
  maxBytes: number;
  /** Files changed (in the diff, or over every commit of the patch). */
  maxFiles: number;
  /** Commits of a patch. */
  maxCommits: number;
  /** A blob larger than this, on either side of any change, is not diffed. */
  maxBlobBytes: number;
}

/** docs/limits.md "Diffs". */
export const DEFAULT_DIFF_TEXT_LIMITS: DiffTextLimits = {
  maxBytes: 10 * 1024 * 1024,
  maxFiles: 3000,
  maxCommits: 250,
  maxBlobBytes: 8 * 1024 * 1024,
};

export type DiffKind = 'diff' | 'patch';

/** The text, or which budget it would pass (with the limit, for the refusal's words). */
export type DiffText = { text: Buffer } | { tooLarge: 'bytes' | 'files' | 'commits' | 'blob'; limit: number };

const DIFF_OPTS = ['-M', '--no-color', '--no-ext-diff', '--no-textconv'];
/** `:srcmode dstmode srcsha dstsha status` of `--raw --no-abbrev` (text form, one line a change). */
const RAW_LINE = /^:\d+ \d+ ([0-9a-f]+) ([0-9a-f]+) /;

function rawShas(text: string): { files: number; shas: string[] } {
  const shas: string[] = [];
  let files = 0;
  for (const line of text.split('\n')) {
    const m = RAW_LINE.exec(line);
    if (m === null) continue;
    files += 1;
    shas.push(m[1]!, m[2]!);
  }
  return { files, shas };
}

async function compute(gitDir: string, base: string, head: string, kind: DiffKind, limits: DiffTextLimits, timeoutMs: number): Promise<DiffText> {
  let changes: string;
  let args: string[];
  if (kind === 'diff') {
    const mb = await runGit(gitDir, ['merge-base', base, head], { timeoutMs, okCodes: [1] });
    const from =
      mb.code === 0
        ? mb.stdout.toString('utf8').trim().split('\n')[0]!
        : (await runGit(gitDir, ['hash-object', '-t', 'tree', '--stdin'], { input: '', timeoutMs })).stdout.toString('utf8').trim();
    changes = (await runGit(gitDir, ['diff', '--raw', '--no-abbrev', ...DIFF_OPTS, from, head, '--'], { timeoutMs })).stdout.toString('utf8');
    args = ['diff', ...DIFF_OPTS, from, head, '--'];
  } else {
    const count = Number((await runGit(gitDir, ['rev-list', '--count', '--no-merges', head, `^${base}`], { timeoutMs })).stdout.toString('utf8').trim());
    if (count > limits.maxCommits) return { tooLarge: 'commits', limit: limits.maxCommits };
    changes = (
      await runGit(gitDir, ['log', '--raw', '--no-abbrev', '--no-merges', '--no-renames', '--format=', head, `^${base}`, '--'], { timeoutMs })
    ).stdout.toString('utf8');
    args = ['format-patch', '--stdout', '--no-color', `${base}..${head}`];
  }
  const { files, shas } = rawShas(changes);
  if (files > limits.maxFiles) return { tooLarge: 'files', limit: limits.maxFiles };
  const sizes = await blobSizes(gitDir, shas, timeoutMs);
  for (const size of sizes.values()) if (size > limits.maxBlobBytes) return { tooLarge: 'blob', limit: limits.maxBlobBytes };
  const r = await runGit(gitDir, args, { timeoutMs, maxOutputBytes: limits.maxBytes, stopAtMax: true });
  if (r.overflowed === true) return { tooLarge: 'bytes', limit: limits.maxBytes };
  return { text: r.stdout };
}

/** `git diff base...head` (kind 'diff') or `git format-patch --stdout base..head` ('patch'), of full commit ids, bounded. */
export function diffText(gitDir: string, base: string, head: string, kind: DiffKind, limits: DiffTextLimits, timeoutMs: number): Promise<DiffText> {
  const key = `text\0${gitDir}\0${kind}\0${base}\0${head}\0${JSON.stringify(limits)}`;
  return cached(
    key,
    () => compute(gitDir, base, head, kind, limits, timeoutMs),
    (t) => ('text' in t ? t.text.length + 256 : 256),
  );
}

/** The refusal's words: which budget the text would pass. */
export function tooLargeMessage(t: Exclude<DiffText, { text: Buffer }>): string {
  const mib = (n: number) => `${Math.round((n / (1024 * 1024)) * 10) / 10} MiB`;
  switch (t.tooLarge) {
    case 'bytes':
      return `Sorry, the diff exceeded the maximum size (${mib(t.limit)}).`;
    case 'files':
      return `Sorry, the diff exceeded the maximum number of files (${t.limit}).`;
    case 'commits':
      return `Sorry, the patch exceeded the maximum number of commits (${t.limit}).`;
    case 'blob':
      return `Sorry, the diff has a file larger than ${mib(t.limit)}, too large to diff.`;
  }
}
