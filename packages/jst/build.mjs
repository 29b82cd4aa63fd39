// Bundles the jst CLI into three CommonJS files: no TypeScript and no workspace resolution at run time.
//   dist/jst.cjs      the entry: the hand-parsed fast path (`raw`, `batch`) and nothing else
//   dist/program.cjs  every other command, with commander; required only when the fast path declines
//   dist/markdown.cjs the Markdown parser; required only by a command given --markdown
//   dist/mcp.cjs      `jst mcp` (the MCP SDK and zod); required only by that command (the specs' zod/mini schemas
//                     are in program.cjs too: zod/mini is small and tree-shaken)
// CommonJS because Node starts a CJS program markedly faster than an ESM graph; several files because
// V8 pre-parses every byte it loads, so `jst raw` should not carry the plan, the healthcheck and
// commander. bin/jst.cjs loads them through a per-user V8 code cache (see there).
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const path = (p) => new URL(p, import.meta.url).pathname;
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  minify: process.env.JST_NO_MINIFY !== '1', // JST_NO_MINIFY=1: readable names in a CPU profile
  keepNames: true,
  legalComments: 'none',
  supported: { 'dynamic-import': false }, // loaded by vm.Script (bin/cached-require.cjs), which has no import()
  define: { __JST_VERSION__: JSON.stringify(version) },
  logLevel: 'warning',
};

/** Replaces a module with a load of a sibling bundle through the cached loader (bin/cached-require.cjs). */
function sibling(name, filter, accept, contents) {
  return {
    name,
    setup(b) {
      b.onResolve({ filter }, (a) => (accept(a) ? { path: name, namespace: name } : undefined));
      b.onLoad({ filter: /.*/, namespace: name }, () => ({ contents, loader: 'js' }));
      b.onResolve({ filter: /cached-require\.cjs$/ }, (a) => ({ path: a.path, external: true }));
    },
  };
}
const cached = (file) => `require('../bin/cached-require.cjs').cachedRequire(require('node:path').join(__dirname, '${file}'))`;

/** The entry's `import('./program.js')` becomes a load of the second bundle through the cached loader. */
const programAsSibling = sibling('program-as-sibling', /^\.\/program\.js$/, () => true, `module.exports = ${cached('program.cjs')};`);

/** The `jst mcp` spec's `import('./serve.js')` (mcp/command.ts): the MCP SDK is loaded by `jst mcp` alone. */
const mcpAsSibling = sibling(
  'mcp-as-sibling',
  /^\.\/serve\.js$/,
  (a) => /[\\/]mcp[\\/]command\.js$/.test(a.importer),
  `module.exports = ${cached('mcp.cjs')};`,
);

/**
 * dist/markdown.cjs: the Markdown parser (micromark), loaded only when a command converts Markdown.
 * @jst/adf's own loader (src/markdown/load.ts) resolves the package at run time, which a bundle cannot
 * do, so the program bundle gets this one instead.
 */
const markdownAsSibling = sibling(
  'markdown-as-sibling',
  /^\.\/load\.js$/,
  (a) => /[\\/]adf[\\/](dist|src)[\\/]markdown[\\/]/.test(a.importer),
  `exports.loadMarkdownParser = () => ${cached('markdown.cjs')}.parseMarkdown;`,
);
const markdownParser = createRequire(import.meta.url).resolve('@jst/adf/markdown-parser');

await Promise.all([
  build({ ...common, entryPoints: [path('./dist/program.js')], outfile: path('./dist/program.cjs'), plugins: [markdownAsSibling, mcpAsSibling] }),
  build({ ...common, entryPoints: [path('./dist/mcp/serve.js')], outfile: path('./dist/mcp.cjs'), plugins: [markdownAsSibling] }),
  build({ ...common, entryPoints: [markdownParser], outfile: path('./dist/markdown.cjs') }),
  build({
    ...common,
    entryPoints: [path('./dist/cli.js')],
    outfile: path('./dist/jst.cjs'),
    plugins: [programAsSibling],
  }),
]);
