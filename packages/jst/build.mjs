// Bundles the jst CLI into one CommonJS file (dist/jst.cjs): no TypeScript and no workspace
// resolution at run time. CommonJS because Node starts a CJS program markedly faster than an ESM
// graph; the commands' modules are bundled as lazily-evaluated closures, so `jst raw` parses but
// never runs the plan, the healthcheck, commander or readline.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
await build({
  entryPoints: [new URL('./dist/cli.js', import.meta.url).pathname],
  outfile: new URL('./dist/jst.cjs', import.meta.url).pathname,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  minify: true,
  keepNames: true,
  legalComments: 'none',
  define: { __JST_VERSION__: JSON.stringify(version) },
  logLevel: 'warning',
});
