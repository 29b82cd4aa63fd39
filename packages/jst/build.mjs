// Bundles the jst CLI into two CommonJS files: no TypeScript and no workspace resolution at run time.
//   dist/jst.cjs      the entry: the hand-parsed fast path (`raw`, `batch`) and nothing else
//   dist/program.cjs  every other command, with commander; required only when the fast path declines
// CommonJS because Node starts a CJS program markedly faster than an ESM graph; two files because
// V8 pre-parses every byte it loads, so `jst raw` should not carry the plan, the healthcheck and
// commander. bin/jst.cjs loads them through a per-user V8 code cache (see there).
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const path = (p) => new URL(p, import.meta.url).pathname;
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  minify: true,
  keepNames: true,
  legalComments: 'none',
  supported: { 'dynamic-import': false }, // loaded by vm.Script (bin/cached-require.cjs), which has no import()
  define: { __JST_VERSION__: JSON.stringify(version) },
  logLevel: 'warning',
};

/** The entry's `import('./program.js')` becomes a load of the second bundle through the cached loader. */
const programAsSibling = {
  name: 'program-as-sibling',
  setup(b) {
    b.onResolve({ filter: /^\.\/program\.js$/ }, () => ({ path: 'program', namespace: 'jst-sibling' }));
    b.onLoad({ filter: /.*/, namespace: 'jst-sibling' }, () => ({
      contents: "module.exports = require('../bin/cached-require.cjs').cachedRequire(require('node:path').join(__dirname, 'program.cjs'));",
      loader: 'js',
    }));
    b.onResolve({ filter: /cached-require\.cjs$/ }, (a) => ({ path: a.path, external: true }));
  },
};

await Promise.all([
  build({ ...common, entryPoints: [path('./dist/program.js')], outfile: path('./dist/program.cjs') }),
  build({
    ...common,
    entryPoints: [path('./dist/cli.js')],
    outfile: path('./dist/jst.cjs'),
    plugins: [programAsSibling],
  }),
]);
