import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeJsonAtomic } from '../src/index.js';

describe('ARCHITECTURE §7, §15: a journal is written whole (temporary file, fsync, rename, fsync of the folder)', () => {
  it('writes indented JSON with a final newline, making the folder, and leaves no temporary file', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'jst-atomic-')), 'missing', '.jst');
    const file = join(dir, 'journal.json');
    writeJsonAtomic(file, { a: 1, b: ['x'] });
    expect(readFileSync(file, 'utf8')).toBe('{\n  "a": 1,\n  "b": [\n    "x"\n  ]\n}\n');
    writeJsonAtomic(file, { a: 2 });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ a: 2 });
    expect(readdirSync(dir)).toEqual(['journal.json']);
  });

  it('a value that cannot be written leaves the old file as it was and no temporary file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jst-atomic-'));
    const file = join(dir, 'journal.json');
    writeFileSync(file, '{"old": true}\n');
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    expect(() => writeJsonAtomic(file, loop)).toThrow(/circular/i);
    expect(readFileSync(file, 'utf8')).toBe('{"old": true}\n');
    expect(readdirSync(dir)).toEqual(['journal.json']);
  });

  it('a rename that fails (the file is a folder) removes the temporary file and says so', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jst-atomic-'));
    const file = join(dir, 'taken');
    writeJsonAtomic(join(file, 'inner.json'), {});
    expect(() => writeJsonAtomic(file, { a: 1 })).toThrow();
    expect(readdirSync(dir)).toEqual(['taken']);
  });
});
