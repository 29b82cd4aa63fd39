import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JstError, formatEnvValue, parseEnvFile, readEnvFile, serializeEnvFile } from '../src/config/index.js';

const FILE = '/repo/.jst/local.env';

function thrown(fn: () => unknown): JstError {
  try {
    fn();
  } catch (error) {
    if (error instanceof JstError) return error;
    throw error;
  }
  throw new Error('expected a JstError');
}

describe('ARCHITECTURE §10: NAME=value lines, # comments, optional quotes and export prefix', () => {
  it('reads plain settings with their line numbers, skipping blank and comment lines', () => {
    const text = ['# team settings', '', 'PROJECT_KEY=ABC', '   # indented comment', 'DEFAULT_BASE_BRANCH=development'].join('\n');
    expect(parseEnvFile(text, FILE)).toEqual([
      { name: 'PROJECT_KEY', value: 'ABC', line: 3 },
      { name: 'DEFAULT_BASE_BRANCH', value: 'development', line: 5 },
    ]);
  });

  it('accepts an export prefix and whitespace around =', () => {
    const entries = parseEnvFile('export PROJECT_KEY=ABC\nSTATUS_DONE = Done\nexport\tWORKTREES_DIR =  /w', FILE);
    expect(entries.map((e) => [e.name, e.value])).toEqual([
      ['PROJECT_KEY', 'ABC'],
      ['STATUS_DONE', 'Done'],
      ['WORKTREES_DIR', '/w'],
    ]);
  });

  it('keeps single-quoted values literally', () => {
    const [entry] = parseEnvFile(`A='  $HOME \\n # not a comment '`, FILE);
    expect(entry?.value).toBe('  $HOME \\n # not a comment ');
  });

  it('decodes \\n, \\" and \\\\ in double-quoted values and keeps unknown escapes', () => {
    const [entry] = parseEnvFile('A="line1\\nsaid \\"hi\\" \\\\ C:\\work"', FILE);
    expect(entry?.value).toBe('line1\nsaid "hi" \\ C:\\work');
  });

  it('ends an unquoted value at " #" but keeps a # that is part of the value', () => {
    const entries = parseEnvFile('A=value # comment\nB=a#b\nC= # only a comment\nD="quoted # kept" # dropped', FILE);
    expect(entries.map((e) => e.value)).toEqual(['value', 'a#b', '', 'quoted # kept']);
  });

  it('keeps inner spaces of unquoted values and reads CRLF files', () => {
    const entries = parseEnvFile('\uFEFFSTATUS_TODO=To  Do\r\nSTATUS_DONE=Done\r\n', FILE);
    expect(entries.map((e) => e.value)).toEqual(['To  Do', 'Done']);
  });

  it('readEnvFile returns null for a missing file (each file is optional at load time)', () => {
    expect(readEnvFile(path.join(os.tmpdir(), 'jst-no-such-dir', 'team.env'))).toBeNull();
  });
});

describe('a malformed line is an error naming file and line', () => {
  it.each([
    ['text without =', 'PROJECT_KEY=ABC\nthis is not a setting'],
    ['a name that starts with a digit', 'PROJECT_KEY=ABC\n1ABC=x'],
    ['a name followed by something other than =', 'PROJECT_KEY=ABC\nNAME value'],
    ['an unclosed double quote', 'PROJECT_KEY=ABC\nSTATUS_TODO="To Do'],
    ['an unclosed single quote', "PROJECT_KEY=ABC\nSTATUS_TODO='To Do"],
    ['text after a closing quote', 'PROJECT_KEY=ABC\nSTATUS_TODO="To" Do'],
  ])('%s', (_label, text) => {
    const error = thrown(() => parseEnvFile(text, FILE));
    expect(error.code).toBe('CONFIG_SYNTAX');
    expect(error.exitCode).toBe(2);
    expect(error.file).toBe(FILE);
    expect(error.line).toBe(2);
    expect(error.message).toContain(`${FILE}:2`);
    expect(error.hint).toMatch(/NAME=value/);
  });

  it('does not echo the line, which may hold a token', () => {
    const token = 'ATATT3xFfGF0-unclosed-secret';
    const error = thrown(() => parseEnvFile(`TRACKER_ASSIGNER_TOKEN="${token}`, FILE));
    expect(error.setting).toBe('TRACKER_ASSIGNER_TOKEN');
    expect(error.message).toContain('TRACKER_ASSIGNER_TOKEN');
    expect(error.message).not.toContain(token);
    const error2 = thrown(() => parseEnvFile(`${token} oops`, FILE));
    expect(error2.message).not.toContain(token);
  });
});

describe('serializer (used by jst init): quotes values only when needed', () => {
  let dir = '';
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jst-config-env-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('writes simple values bare and others quoted', () => {
    expect(formatEnvValue('ABC')).toBe('ABC');
    expect(formatEnvValue('https://api.atlassian.com')).toBe('https://api.atlassian.com');
    expect(formatEnvValue('')).toBe('');
    expect(formatEnvValue('To Do')).toBe(`'To Do'`);
    expect(formatEnvValue("it's\nhere")).toBe(`"it's\\nhere"`);
  });

  it.each([
    '',
    'plain',
    'To Do',
    '  In  Review ',
    "it's",
    'a # b',
    '#leading',
    'multi\nline\r\n\tend',
    'back\\slash "quote"',
    '$HOME `cmd`',
    '~/worktrees',
    "'single'",
    'export',
  ])('round-trips %j', (value) => {
    const text = serializeEnvFile([{ name: 'STATUS_TODO', value }]);
    expect(parseEnvFile(text, FILE)).toEqual([{ name: 'STATUS_TODO', value, line: 1 }]);
  });

  it('writes comments and blank lines, and the result reads back from disk', () => {
    const text = serializeEnvFile([
      { comment: 'jst team settings\n\ncommitted' },
      { blank: true },
      { name: 'PROJECT_KEY', value: 'ABC', comment: 'issue key prefix' },
      { name: 'STATUS_TODO', value: 'To Do' },
    ]);
    expect(text).toBe("# jst team settings\n#\n# committed\n\n# issue key prefix\nPROJECT_KEY=ABC\nSTATUS_TODO='To Do'\n");
    const file = path.join(dir, 'team.env');
    fs.writeFileSync(file, text);
    expect(readEnvFile(file)).toEqual([
      { name: 'PROJECT_KEY', value: 'ABC', line: 6 },
      { name: 'STATUS_TODO', value: 'To Do', line: 7 },
    ]);
  });

  it('refuses an invalid setting name', () => {
    expect(() => serializeEnvFile([{ name: 'BAD NAME', value: 'x' }])).toThrow(JstError);
  });
});
