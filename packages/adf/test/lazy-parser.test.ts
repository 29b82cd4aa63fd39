import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const dist = (p: string) => fileURLToPath(new URL(`../../${p}`, import.meta.url));

/** Runs an ES module snippet in a fresh Node.js (the built packages) and returns its stdout. */
const node = (code: string): string => execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: root, encoding: 'utf8' });
const LOADED = "Object.keys((await import('node:module')).createRequire(import.meta.url).cache).some((k) => /markdown[\\/]parser\\.js$/.test(k))";

describe('the Markdown parser loads only when Markdown is converted', () => {
  it('jst-tracker and @jst/adf load without it; the first markdownToAdf call loads it', () => {
    const out = node(`
      await import(${JSON.stringify(dist('tracker/dist/index.js'))});
      const adf = await import(${JSON.stringify(dist('adf/dist/index.js'))});
      adf.adfToText(adf.textToAdf('x'));
      console.log(${LOADED});
      adf.markdownToAdf('# x');
      console.log(${LOADED});`);
    expect(out.trim().split('\n')).toEqual(['false', 'true']);
  });
  it("jst's bundles: the parser is in dist/markdown.cjs only, not in the fast path nor the program bundle", () => {
    const read = (f: string) => readFileSync(dist(`jst/dist/${f}`), 'utf8');
    expect(read('markdown.cjs')).toContain('setextUnderline');
    for (const f of ['jst.cjs', 'program.cjs']) expect(read(f)).not.toContain('setextUnderline');
  });
});
