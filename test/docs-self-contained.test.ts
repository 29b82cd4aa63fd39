import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { JST_BIN } from './support/jst-cli.js';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const TRACKER_BIN = join(ROOT, 'packages/tracker/bin/jst-tracker.js');

/** What names a file outside a clone: the sibling input folder, and its files by name. */
const OUTSIDE = /\.\.\/shared\b|\/work\/shared\b|\bARCHITECTURE\.md\b|\bSTYLE\.md\b|seed-000_/;

/**
 * A repository path a text names (`docs/limits.md`, `packages/jst`, `./scripts/demo.mjs`), cut at
 * the first character that is not part of a path (so `packages/x/<noun>.ts` is checked as `packages/x`).
 * Not after a word, a dot, a slash or a dash: a URL's path (`https://…/docs/x`) is not the repository's.
 */
const REPO_PATH = /(?<![\w./-])(?:\.\/)?((?:docs|spec|packages|scripts|bench|test|agents|\.ci)\/[\w./-]*[\w-])/g;

/** Every problem in one text: a name outside the repository, or a repository path that does not exist. */
function problems(where: string, text: string, linkBase: string | null): string[] {
  const found: string[] = [];
  for (const [i, line] of text.split('\n').entries()) {
    const at = `${where}:${i + 1}`;
    if (OUTSIDE.test(line)) found.push(`${at} names a file outside the repository: ${line.trim()}`);
    for (const m of line.matchAll(REPO_PATH)) {
      if (!existsSync(join(ROOT, m[1]!))) found.push(`${at} names ${m[1]}, which is not in the repository`);
    }
    if (linkBase === null) continue;
    // Markdown links are relative to the file they are in.
    for (const m of line.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1]!.replace(/#.*$/, '');
      if (target === '' || /^[a-z][a-z+.-]*:/i.test(target)) continue; // an anchor, or a URL
      const path = resolve(linkBase, target);
      const inside = path === ROOT || path.startsWith(`${ROOT}${sep}`);
      if (!inside || !existsSync(path)) found.push(`${at} links to ${m[1]}, which is ${inside ? 'not in the repository' : 'outside the repository'}`);
    }
  }
  return found;
}

/** The Markdown a reader of the repository is pointed at: the README, docs/, the agents' skills. */
function documents(): string[] {
  const walk = (dir: string): string[] => readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) return walk(path);
    return e.name.endsWith('.md') ? [path] : [];
  });
  return ['README.md', ...walk('docs'), ...walk('agents')];
}

function help(bin: string, args: string[]): string {
  const r = spawnSync(process.execPath, [bin, ...args, '--help'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  expect(r.status, `${args.join(' ')} --help: ${r.stderr}`).toBe(0);
  return r.stdout;
}

/** The subcommands a commander `--help` lists under "Commands:" (help itself left out). */
function subcommands(text: string): string[] {
  const section = text.split(/^Commands:\n/m)[1];
  if (section === undefined) return [];
  const names: string[] = [];
  for (const line of section.split('\n')) {
    if (line.trim() === '') break;
    const name = /^ {2}([a-z][\w-]*)/.exec(line)?.[1];
    if (name && name !== 'help') names.push(name);
  }
  return names;
}

/** `--help` of jst and every command below it, by command path. */
function jstHelps(): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (path: string[]) => {
    const text = help(JST_BIN, path);
    out.set(['jst', ...path].join(' '), text);
    for (const sub of subcommands(text)) visit([...path, sub]);
  };
  visit([]);
  return out;
}

describe('the repository explains itself: README, docs and --help name only what a clone holds', () => {
  it('the design and the spec they cite are in docs/, with their section numbers', () => {
    const architecture = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
    for (const n of [3, 4, 5, 6, 7, 10, 11, 12, 13, 14, 15]) expect(architecture, `ARCHITECTURE §${n}`).toMatch(new RegExp(`^## ${n}\\. `, 'm'));
    const spec = readFileSync(join(ROOT, 'docs/spec.md'), 'utf8');
    for (let n = 1; n <= 9; n++) expect(spec, `spec §${n}`).toMatch(new RegExp(`^## ${n}\\. `, 'm'));
    expect(spec).toMatch(/^### Phase 1: Plan \(assigner\) rules\n\n1\. /m);
  });

  it('README, docs/ and agents/ name no file outside the repository, and every path or link they give exists', () => {
    const found = documents().flatMap((doc) => problems(doc, readFileSync(join(ROOT, doc), 'utf8'), dirname(join(ROOT, doc))));
    expect(found).toEqual([]);
  });

  it('every --help of jst and jst-tracker names no file outside the repository, and every path it gives exists', () => {
    const helps = jstHelps();
    // Every command of the contract is among those read (a parser that found none would pass vacuously).
    for (const cmd of ['jst plan', 'jst start', 'jst pr', 'jst review', 'jst done', 'jst issue view', 'jst mcp']) expect([...helps.keys()]).toContain(cmd);
    helps.set('jst-tracker', help(TRACKER_BIN, []));
    helps.set('jst-tracker serve', help(TRACKER_BIN, ['serve']));
    const found = [...helps].flatMap(([cmd, text]) => problems(`${cmd} --help`, text, null));
    expect(found).toEqual([]);
  });

  it('the checks catch what they look for', () => {
    // Spelt in pieces: standalone.test.ts flags the literal path in code (it is only text here).
    expect(problems('x', `see ${['..', 'shared', 'ARCHITECTURE.md'].join('/')} §3`, ROOT)).toHaveLength(1);
    expect(problems('x', 'limits: docs/no-such-file.md', ROOT)).toEqual(['x:1 names docs/no-such-file.md, which is not in the repository']);
    expect(problems('x', '[spec](../../elsewhere.md)', ROOT)[0]).toMatch(/outside the repository/);
    expect(problems('x', 'limits: docs/limits.md, [the board](docs/board.png), https://example.com/docs/x', ROOT)).toEqual([]);
  });
});
