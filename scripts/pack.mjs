// `npm run pack`: builds and packs the two installable packages, jst and jst-tracker, into one folder
// (default dist-pack/ in the repository; --out DIR for another). Each tarball installs on its own
// with `npm install -g FILE` (README "Install from a tarball"): jst is bundled whole (it needs no
// package at run time), jst-tracker bundles the workspace libraries it uses and lists only registry
// packages as dependencies. `npm pack` runs each package's `prepack` (its build), so a tarball is
// never packed from a stale dist/. Prints the tarballs' paths, one a line, on stdout.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = fileURLToPath(new URL('..', import.meta.url));
const PACKAGES = ['packages/jst', 'packages/tracker'];

const { values } = parseArgs({ options: { out: { type: 'string' } } });
const out = resolve(values.out ?? join(root, 'dist-pack'));
mkdirSync(out, { recursive: true });

// Tarballs of earlier versions go first, so `npm install -g ./dist-pack/*.tgz` installs one of each.
for (const f of readdirSync(out)) if (/^(jst|jst-tracker)-\d[^/]*\.tgz$/.test(f)) rmSync(join(out, f));

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const tarballs = [];
for (const dir of PACKAGES) {
  const { name, version } = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
  const file = join(out, `${name}-${version}.tgz`);
  // The build's own output (prepack) goes to stderr, so stdout stays the list of tarballs.
  execFileSync(npm, ['pack', '--pack-destination', out, '--silent', '-w', dir], { cwd: root, stdio: ['ignore', 2, 'inherit'] });
  if (!existsSync(file)) {
    process.stderr.write(`pack: npm pack -w ${dir} did not write ${file}\n`);
    process.exit(1);
  }
  tarballs.push(file);
}
process.stdout.write(tarballs.map((f) => `${f}\n`).join(''));
