import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ByteLru, diffCache } from '../../../src/codehost/git/diff-cache.js';
import { BareRepos } from '../../../src/codehost/git/repos.js';
import { tempDir, Work } from './support.js';

/**
 * ARCHITECTURE §22 "Bounded work": the diff engine (src/codehost/git/compare.ts, diff-patches.ts,
 * diff-text.ts) reads git's diff within budgets, says per file what it cut, never diffs a file over
 * the blob budget, and answers a second time from its cache.
 */
const tmp = tempDir('jst-diff-engine-');
afterAll(() => tmp.cleanup());
const repos = new BareRepos(join(tmp.path, 'repos'));
let n = 0;

async function fresh(): Promise<{ name: string; work: Work; base: string }> {
  const name = `d${++n}`;
  await repos.ensure('demo', name, 'main');
  const work = Work.clone(repos.dir('demo', name), join(tmp.path, `work-${name}`), 'main');
  const base = work.commit({ 'README.md': '# app\n', 'src/a.txt': 'one\ntwo\nthree\nfour\nfive\n' }, 'initial');
  work.push('main');
  return { name, work, base };
}

/** Writes `bytes` bytes of one repeated line, streamed (never held whole). */
async function repeatedFile(path: string, bytes: number): Promise<void> {
  const chunk = Buffer.from('0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde\n'.repeat(16 * 1024));
  const out = createWriteStream(path);
  for (let written = 0; written < bytes; written += chunk.length) {
    if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
}

const byName = <T extends { filename: string }>(files: T[]) => Object.fromEntries(files.map((f) => [f.filename, f]));

describe('ARCHITECTURE §22 Bounded work: the diff engine', () => {
  it('a rename with a change, a file with no trailing newline and a binary file keep their patches or say why not', async () => {
    const { name, work, base } = await fresh();
    work.git('mv', 'src/a.txt', 'src/b.txt');
    const head = work.commit(
      { 'src/b.txt': 'one\ntwo\nTHREE\nfour\nfive\n', 'tail.txt': 'no newline at the end', 'img.bin': Buffer.from([0, 1, 2, 255, 0, 9]) },
      'rename, tail, binary',
    );
    work.push('main:feature');
    const files = byName((await repos.compare('demo', name, base, head)).files);
    expect(files['src/b.txt']).toMatchObject({ status: 'renamed', previous_filename: 'src/a.txt', additions: 1, deletions: 1 });
    expect(files['src/b.txt']!.patch).toContain('+THREE');
    expect(files['tail.txt']!.patch).toBe('@@ -0,0 +1 @@\n+no newline at the end\n\\ No newline at end of file');
    expect(files['img.bin']).toMatchObject({ binary: true, additions: 0 });
    expect(files['img.bin']!.patch).toBeUndefined();
    expect(files['img.bin']!.cut).toBeUndefined();
  });

  it("a file's patch over its line budget is cut 'patch_too_large'; the comparison's spent budget cuts the later files 'budget'", async () => {
    const { name, work, base } = await fresh();
    const head = work.commit(
      {
        'a-long.txt': Array.from({ length: 300 }, (_, i) => `l${i}`).join('\n') + '\n',
        'b-mid.txt': 'x\n'.repeat(60),
        'c-mid.txt': 'y\n'.repeat(60),
        'd-small.txt': 'z\n',
      },
      'sizes',
    );
    work.push('main:feature');
    const limits = { maxPatchLines: 200, maxTotalPatchLines: 100 };
    const cmp = await repos.compare('demo', name, base, head, limits);
    const files = byName(cmp.files);
    expect(files['a-long.txt']).toMatchObject({ cut: 'patch_too_large', additions: 300 });
    expect(files['a-long.txt']!.patch).toBeUndefined();
    expect(files['b-mid.txt']!.patch).toMatch(/^@@ -0,0 \+1,60 @@/);
    expect(files['c-mid.txt']).toMatchObject({ cut: 'budget', additions: 60 });
    expect(files['d-small.txt']).toMatchObject({ cut: 'budget' });
    expect(cmp.patchesTruncated).toBe(true);
    expect(cmp.additions).toBe(421);
  });

  it("a file over the blob budget is never diffed: no counts, no patch, cut 'too_large'; the others are whole", async () => {
    const { name, work, base } = await fresh();
    const head = work.commit({ 'big.txt': 'big line\n'.repeat(500), 'small.txt': 'small\n' }, 'one over the blob budget');
    work.push('main:feature');
    const cmp = await repos.compare('demo', name, base, head, { maxBlobBytes: 1000 });
    const files = byName(cmp.files);
    expect(files['big.txt']).toMatchObject({ status: 'added', cut: 'too_large', additions: 0, binary: false });
    expect(files['big.txt']!.patch).toBeUndefined();
    expect(files['small.txt']!.patch).toBe('@@ -0,0 +1 @@\n+small');
    expect(cmp).toMatchObject({ changedFiles: 2, additions: 1, patchesTruncated: true });
  });

  it('a 150 MB compressible file: cut too_large in the comparison, the .diff and .patch refused for it; the second view is the cached answer', async () => {
    const { name, work, base } = await fresh();
    await repeatedFile(join(work.dir, 'huge.log'), 150 * 1024 * 1024);
    const head = work.commit({ 'note.md': 'a note\n' }, 'a 150 MB log');
    work.push('main:huge');
    diffCache.clear();
    const cmp = await repos.compare('demo', name, base, head);
    const files = byName(cmp.files);
    expect(files['huge.log']).toMatchObject({ status: 'added', cut: 'too_large' });
    expect(files['huge.log']!.patch).toBeUndefined();
    expect(files['note.md']!.patch).toBe('@@ -0,0 +1 @@\n+a note');
    expect(await repos.compare('demo', name, base, head)).toBe(cmp);

    expect(await repos.diffText('demo', name, base, head, 'diff')).toEqual({ tooLarge: 'blob', limit: 8 * 1024 * 1024 });
    expect(await repos.diffText('demo', name, base, head, 'patch')).toEqual({ tooLarge: 'blob', limit: 8 * 1024 * 1024 });
  }, 120_000);

  it('a diff text over its byte budget is refused whole (git stopped), never cut', async () => {
    const { name, work, base } = await fresh();
    const head = work.commit({ 'lines.txt': 'some text\n'.repeat(5000) }, '50 KB of lines');
    work.push('main:feature');
    expect(await repos.diffText('demo', name, base, head, 'diff', { maxBytes: 10_000 })).toEqual({ tooLarge: 'bytes', limit: 10_000 });
    const whole = await repos.diffText('demo', name, base, head, 'diff');
    expect('text' in whole && whole.text.toString('utf8').startsWith('diff --git a/lines.txt b/lines.txt\n')).toBe(true);
    expect(await repos.diffText('demo', name, base, head, 'diff')).toBe(whole);
    expect(await repos.diffText('demo', name, base, head, 'diff', { maxFiles: 0 })).toEqual({ tooLarge: 'files', limit: 0 });
    expect(await repos.diffText('demo', name, base, head, 'patch', { maxCommits: 0 })).toEqual({ tooLarge: 'commits', limit: 0 });
  });

  it('views of one comparison at once share one computation; the cache drops the least recently used past its cap and never keeps an entry over a quarter of it', async () => {
    const { name, work, base } = await fresh();
    const head = work.commit({ 'x.txt': 'x\n' }, 'x');
    work.push('main:feature');
    diffCache.clear();
    const [a, b] = await Promise.all([repos.compare('demo', name, base, head), repos.compare('demo', name, base, head)]);
    expect(a).toBe(b);

    const lru = new ByteLru<string>(100);
    lru.set('a', 'A', 20);
    lru.set('b', 'B', 20);
    lru.set('huge', 'H', 26);
    expect(lru.get('huge')).toBeUndefined();
    expect(lru.get('a')).toBe('A');
    for (const k of ['c', 'd', 'e']) lru.set(k, k, 25);
    // 'b' was the least recently used: it went first.
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('a')).toBe('A');
    expect(lru.bytes).toBeLessThanOrEqual(100);
  });
});
