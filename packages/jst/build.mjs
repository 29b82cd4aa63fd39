// Bundles the jst CLI into one file (dist/jst.js): no TypeScript at run time, workspace packages
// inlined, command modules split out and loaded only when their command runs.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
await build({
  entryPoints: [new URL('./dist/cli.js', import.meta.url).pathname],
  outfile: new URL('./dist/jst.js', import.meta.url).pathname,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  minify: false,
  legalComments: 'none',
  define: { __JST_VERSION__: JSON.stringify(version) },
  // commander is CommonJS: give the ESM bundle a require for Node's built-ins.
  banner: { js: "import { createRequire as __jstRequire } from 'node:module'; const require = __jstRequire(import.meta.url);" },
  logLevel: 'warning',
});
