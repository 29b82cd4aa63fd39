// Bundles the jst CLI into three CommonJS files: no TypeScript and no workspace resolution at run time.
//   dist/jst.cjs      the entry: the hand-parsed fast path (`raw`, `batch`) and nothing else
//   dist/program.cjs  every other command, with commander; required only when the fast path declines
//   dist/mcp.cjs      `jst mcp` (the MCP SDK and zod); required only by that command
// CommonJS because Node starts a CJS program markedly faster than an ESM graph; separate files because
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

/**
 * A dynamic import of `spec` becomes a load of the sibling bundle `file` through the cached loader:
 * the entry's `import('./program.js')`, and the program's `import('./mcp/serve.js')` (the MCP SDK
 * and zod are loaded by `jst mcp` alone).
 */
const asSibling = (spec, file) => ({
  name: `${file}-as-sibling`,
  setup(b) {
    const filter = new RegExp(`^${spec.replace(/[.]/g, '\\.')}$`);
    b.onResolve({ filter }, () => ({ path: file, namespace: 'jst-sibling' }));
    b.onLoad({ filter: /.*/, namespace: 'jst-sibling' }, (a) => ({
      contents: `module.exports = require('../bin/cached-require.cjs').cachedRequire(require('node:path').join(__dirname, ${JSON.stringify(a.path)}));`,
      loader: 'js',
    }));
    b.onResolve({ filter: /cached-require\.cjs$/ }, (a) => ({ path: a.path, external: true }));
  },
});

await Promise.all([
  build({ ...common, entryPoints: [path('./dist/mcp/serve.js')], outfile: path('./dist/mcp.cjs') }),
  build({ ...common, entryPoints: [path('./dist/program.js')], outfile: path('./dist/program.cjs'), plugins: [asSibling('./mcp/serve.js', 'mcp.cjs')] }),
  build({ ...common, entryPoints: [path('./dist/cli.js')], outfile: path('./dist/jst.cjs'), plugins: [asSibling('./program.js', 'program.cjs')] }),
]);
