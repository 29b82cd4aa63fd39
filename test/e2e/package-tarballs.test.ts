import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnUntilReady, stopProcess } from '../../scripts/lib/local-services.mjs';
import { EMAILS, TOKENS, testSeed } from '../support/seed.js';

/**
 * What `npm pack` of each package holds, without the registry: the offline half of the tarball
 * install. `npm run test:install` (CI) installs the tarballs with `npm install -g` in a scratch
 * prefix and runs them; these catch a broken package early, in `npm test`, after its build.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'jst-tarballs-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface Manifest {
  version: string;
  dependencies?: Record<string, string>;
}
const manifest = (dir: string) => JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as Manifest;

/** The files `npm pack` of a workspace puts in its tarball (its prepack build is not run: `npm test` built). */
function packedFiles(dir: string): string[] {
  const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts', '-w', dir], { cwd: ROOT, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  const [entry] = JSON.parse(r.stdout) as { files: { path: string }[] }[];
  return entry!.files.map((f) => f.path).sort();
}

const bare = (spec: string) => !spec.startsWith('.') && !spec.startsWith('/');
const packageOf = (spec: string) =>
  spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/');
const builtin = (spec: string) => spec.startsWith('node:') || builtinModules.includes(packageOf(spec));

describe('README "jst and jst-tracker on PATH": each package installs from its own tarball', () => {
  it('npm pack of packages/jst holds its bin and bundles only, declares no dependency, and the bundles load no package', () => {
    const files = packedFiles('packages/jst');
    expect(files).toEqual(
      expect.arrayContaining(['LICENSE', 'README.md', 'package.json', 'bin/jst.cjs', 'bin/cached-require.cjs', 'dist/jst.cjs', 'dist/program.cjs']),
    );
    expect(files.filter((f) => !/^(LICENSE|README\.md|package\.json|bin\/[^/]+\.cjs|dist\/[^/]+\.cjs)$/.test(f))).toEqual([]);
    expect(manifest('packages/jst').dependencies ?? {}).toEqual({});
    for (const file of files.filter((f) => f.startsWith('dist/'))) {
      const text = readFileSync(join(ROOT, 'packages/jst', file), 'utf8');
      // A require( inside a string (ajv's code generation writes some) loads nothing.
      const loaded = [...text.matchAll(/(?<![\w$.'"`])require\("([^"]+)"\)/g)].map((m) => m[1]!).filter((s) => bare(s) && !builtin(s));
      expect(loaded, file).toEqual([]);
    }
  });

  it('npm pack of packages/tracker holds bin/, its bundle and board-assets/, declares registry packages only, and the bundle imports only those', () => {
    const files = packedFiles('packages/tracker');
    const assets = readdirSync(join(ROOT, 'packages/tracker/board-assets')).map((f) => `board-assets/${f}`);
    expect(files).toEqual(expect.arrayContaining(['LICENSE', 'README.md', 'package.json', 'bin/jst-tracker.js', 'dist/jst-tracker.js', ...assets]));
    expect(files.filter((f) => !/^(LICENSE|README\.md|package\.json|bin\/[^/]+|board-assets\/.+|dist\/jst-tracker\.js)$/.test(f))).toEqual([]);
    const declared = Object.keys(manifest('packages/tracker').dependencies ?? {});
    expect(declared.filter((d) => d.startsWith('@jst/'))).toEqual([]);
    const bundle = readFileSync(join(ROOT, 'packages/tracker/dist/jst-tracker.js'), 'utf8');
    const imported = [...bundle.matchAll(/^\s*(?:import|export)\b[^'"]*?\bfrom\s*"([^"]+)"|^\s*import\s*"([^"]+)"/gm)].map((m) => (m[1] ?? m[2])!);
    expect(imported.length).toBeGreaterThan(0);
    expect(imported.filter((s) => bare(s) && !builtin(s) && !declared.includes(packageOf(s)))).toEqual([]);
  });

  it("the jst-tracker bundle (what its tarball runs) prints the package version, serves a seed user and the board's files", async () => {
    const bundle = join(ROOT, 'packages/tracker/dist/jst-tracker.js');
    const v = spawnSync(process.execPath, [bundle, '--version'], { cwd: tmp, encoding: 'utf8' });
    expect(v.status, v.stderr).toBe(0);
    expect(v.stdout).toBe(`${manifest('packages/tracker').version}\n`);

    writeFileSync(join(tmp, 'seed.json'), JSON.stringify(testSeed()));
    const started = spawnUntilReady(
      process.execPath,
      [bundle, 'serve', '--port', '0', '--data', join(tmp, 'data'), '--seed', join(tmp, 'seed.json')],
      /^jst-tracker listening on (http:\/\/127\.0\.0\.1:\d+)$/m,
      { name: 'jst-tracker bundle', cwd: tmp, timeoutMs: 20_000 },
    );
    try {
      const url = (await started.ready)[1]!;
      const auth = `Basic ${Buffer.from(`${EMAILS.assigner}:${TOKENS.assigner}`).toString('base64')}`;
      const me = await fetch(`${url}/rest/api/3/myself`, { headers: { authorization: auth } });
      expect(me.status).toBe(200);
      expect(((await me.json()) as { emailAddress: string }).emailAddress).toBe(EMAILS.assigner);
      expect((await fetch(`${url}/rest/api/3/myself`)).status).toBe(401);
      for (const asset of readdirSync(join(ROOT, 'packages/tracker/board-assets'))) {
        const r = await fetch(`${url}/_board/assets/${asset}`);
        expect(r.status, asset).toBe(200);
        expect(await r.text()).toBe(readFileSync(join(ROOT, 'packages/tracker/board-assets', asset), 'utf8'));
      }
    } finally {
      await stopProcess(started.proc);
    }
  });
});
