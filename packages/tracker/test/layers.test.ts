import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * ARCHITECTURE §8: http → domain → store. The import rules (.dependency-cruiser.cjs) see imports
 * only; this test sees what they cannot, a route reaching the store through an object it was
 * given (`tracker.store`, `codehost.store`) instead of calling a domain function.
 */
const SRC = fileURLToPath(new URL('../src/', import.meta.url));
const HTTP_LAYERS = ['http', 'codehost/http'];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The code of a file without its comments (a comment may name the store to say why a read is safe). */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

describe('ARCHITECTURE §8: the HTTP layers read and write through the domain, never the store', () => {
  it('no route or renderer names a store property (`.store`) or the key the Tracker keeps it under', () => {
    const offending: string[] = [];
    for (const layer of HTTP_LAYERS) {
      for (const file of sources(join(SRC, layer))) {
        code(readFileSync(file, 'utf8'))
          .split('\n')
          .forEach((line, i) => {
            if (/\.store\b|\[STORE\]|store-access/.test(line)) offending.push(`${relative(SRC, file)}:${i + 1}: ${line.trim()}`);
          });
      }
    }
    expect(offending).toEqual([]);
  });

  it('the test reads real files: both HTTP layers have sources', () => {
    for (const layer of HTTP_LAYERS) expect(sources(join(SRC, layer)).length).toBeGreaterThan(3);
  });
});
