// bin/cached-require.cjs: the per-user V8 code cache that keeps `jst raw` within 25 ms of `node -e 0`
// (issue 5). A cache must never change what jst does, never be shared between users, and never stop
// jst from running when it cannot be read or written.
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runJst } from '../../../test/support/jst-cli.js';

const VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'jst-cc-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const version = (cwd: string, env: Record<string, string>) => runJst(['--version'], { cwd, env });
const cacheFiles = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.cache'))
    .sort();

describe('V8 code cache for the bundles', () => {
  it('first run writes one private cache file per bundle loaded; the second run uses them unchanged', async () => {
    const cwd = tempDir();
    const cache = join(tempDir(), 'xdg');
    const first = await version(cwd, { XDG_CACHE_HOME: cache });
    expect(first).toMatchObject({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
    const dir = join(cache, 'jst');
    const files = cacheFiles(dir);
    // --version is not the fast path, so both bundles were loaded: the entry and the program
    expect(files.map((f) => f.split('-')[0])).toEqual(['jst.cjs', 'program.cjs']);
    for (const f of files) expect(f).toContain(`-${process.version}-${process.arch}.cache`);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    for (const f of files) expect(statSync(join(dir, f)).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);

    const before = files.map((f) => statSync(join(dir, f)).mtimeMs);
    const second = await version(cwd, { XDG_CACHE_HOME: cache });
    expect(second).toMatchObject({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
    expect(cacheFiles(dir)).toEqual(files);
    // accepted by V8, so not rewritten
    expect(files.map((f) => statSync(join(dir, f)).mtimeMs)).toEqual(before);
  });

  it('a corrupt cache file is rejected by V8, the bundle compiles normally, and the file is rewritten', async () => {
    const cwd = tempDir();
    const cache = join(tempDir(), 'xdg');
    await version(cwd, { XDG_CACHE_HOME: cache });
    const dir = join(cache, 'jst');
    const garbage = Buffer.alloc(4096, 0x5a);
    for (const f of cacheFiles(dir)) writeFileSync(join(dir, f), garbage);
    const run = await version(cwd, { XDG_CACHE_HOME: cache });
    expect(run).toMatchObject({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
    for (const f of cacheFiles(dir)) expect(readFileSync(join(dir, f)).equals(garbage)).toBe(false);
  });

  it('JST_COMPILE_CACHE=0 writes nothing', async () => {
    const cwd = tempDir();
    const cache = join(tempDir(), 'xdg');
    expect(await version(cwd, { XDG_CACHE_HOME: cache, JST_COMPILE_CACHE: '0' })).toMatchObject({ code: 0, stdout: `${VERSION}\n` });
    expect(() => readdirSync(cache)).toThrow(/ENOENT/);
  });

  it('a cache folder that cannot be created costs only time: jst still runs and says nothing', async () => {
    const cwd = tempDir();
    const notADir = join(tempDir(), 'file');
    writeFileSync(notADir, 'a file, not a folder');
    expect(await version(cwd, { XDG_CACHE_HOME: notADir })).toMatchObject({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
  });

  it('a relative XDG_CACHE_HOME is ignored (XDG base directory rule): the cache goes under HOME/.cache', async () => {
    const cwd = tempDir();
    expect(await version(cwd, { XDG_CACHE_HOME: 'relative/cache' })).toMatchObject({ code: 0, stdout: `${VERSION}\n` });
    expect(cacheFiles(join(cwd, '.cache', 'jst'))).toHaveLength(2);
    expect(() => readdirSync(join(cwd, 'relative'))).toThrow(/ENOENT/);
  });
});
