// Bundles jst-tracker's command (dist/cli.js, the tsc output) into dist/jst-tracker.js, the one
// program file its package tarball ships (`npm pack`; see "files" in package.json).
//
// What is inlined and what is not: every module this package declares in "dependencies" (fastify,
// kysely, better-sqlite3 with its native binding, pg, …) stays an import, installed by npm beside
// the package; everything else — the tracker's own code and the workspace libraries (@jst/adf, @jst/protocol),
// which are private and on no registry — is inlined. An import of anything neither declared nor
// built into Node fails this build, so a tarball never ships a program that cannot start.
//
// Why a bundle and not `bundleDependencies` of a packed @jst/adf: npm's workspaces hoist @jst/adf to
// the root node_modules as a link, which `npm pack` of packages/tracker does not follow into the
// tarball, and @jst/adf's own registry dependencies would have to be declared twice. The bundle has
// no links and no second copy of anything, and it takes whatever is under src/ (it follows imports
// from the entry, not a file list).
//
// In a clone, bin/jst-tracker.js runs dist/cli.js (rebuilt by `tsc -b`, which tests run); only the
// tarball, which has no dist/cli.js, runs this bundle.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const pkg = JSON.parse(readFileSync(resolve(here, 'package.json'), 'utf8'));
const declared = Object.keys(pkg.dependencies ?? {});
const outfile = resolve(here, 'dist/jst-tracker.js');

/** The package a bare import names: `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
const packageOf = (spec) =>
  spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/');
const builtin = (spec) => spec.startsWith('node:') || builtinModules.includes(packageOf(spec));

/** Declared dependencies and Node's modules stay imports; any other bare import must be a workspace. */
const externals = {
  name: 'declared-dependencies-external',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (a) => {
      if (builtin(a.path)) return { path: a.path, external: true };
      if (declared.includes(packageOf(a.path))) return { path: a.path, external: true };
      if (packageOf(a.path).startsWith('@jst/')) return undefined; // a workspace library: inlined
      return {
        errors: [
          {
            text: `${a.path} (imported by ${relative(here, a.importer)}) is not in packages/tracker/package.json "dependencies": declare it, or the installed jst-tracker cannot load it`,
          },
        ],
      };
    });
  },
};

/** Whether a path inside the package (`board-assets/`, `dist/x.js`) is in the tarball: under an entry of "files". */
const shipped = (path) => !path.startsWith('..') && (pkg.files ?? []).some((f) => (f.endsWith('/') ? path.startsWith(f) : path === f));

/**
 * `new URL('<relative>', import.meta.url)` names a file beside a module (board-assets/ beside
 * dist/http/board/routes.js); in the bundle the module's code runs from dist/jst-tracker.js, so
 * the relative part is rewritten to reach the same file from there. The file must be one the
 * tarball ships (under an entry of "files"), or this build fails.
 */
const fileUrls = {
  name: 'relative-file-urls',
  setup(b) {
    b.onLoad({ filter: /\.js$/ }, (a) => {
      const source = readFileSync(a.path, 'utf8');
      if (!source.includes('import.meta.url')) return undefined;
      const contents = source.replace(/new URL\((['"])(\.\.?\/[^'"]*)\1,\s*import\.meta\.url\)/g, (_all, q, rel) => {
        const target = resolve(dirname(a.path), rel);
        const inPackage = relative(here, target).split(sep).join('/') + (rel.endsWith('/') ? '/' : '');
        if (!shipped(inPackage)) {
          throw new Error(
            `${relative(here, a.path)}: new URL('${rel}', import.meta.url) reaches ${inPackage.startsWith('..') ? target : inPackage}, which the package tarball does not ship: add it to "files" in packages/tracker/package.json (or keep the file under board-assets/)`,
          );
        }
        let moved = relative(dirname(outfile), target).split(sep).join('/');
        if (!moved.startsWith('.')) moved = `./${moved}`;
        if (rel.endsWith('/') && !moved.endsWith('/')) moved += '/';
        return `new URL(${q}${moved}${q}, import.meta.url)`;
      });
      return { contents, loader: 'js' };
    });
  },
};

await build({
  entryPoints: [resolve(here, 'dist/cli.js')],
  outfile,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  legalComments: 'none',
  keepNames: true,
  logLevel: 'warning',
  plugins: [externals, fileUrls],
});
