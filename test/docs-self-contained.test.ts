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
  const walk = (dir: string): string[] =>
    readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
      const path = `${dir}/${e.name}`;
      if (e.isDirectory()) return walk(path);
      return e.name.endsWith('.md') ? [path] : [];
    });
  return ['README.md', ...walk('docs'), ...walk('agents')];
}

/** A text file the repository tracks, outside the vendored descriptions and the bundles. */
function trackedText(): string[] {
  const r = spawnSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout
    .split('\0')
    .filter(
      (f) => f && !f.startsWith('spec/') && /(\.(ts|mts|cts|js|mjs|cjs|json|md|sh|css|conf)|^\.ci\/run)$/.test(f) && !/(^|\/)package-lock\.json$/.test(f),
    );
}

/** What docs/spec.md and docs/architecture.md define: headings, and per spec part its numbered rules, operations and endpoints. */
interface Defined {
  architecture: Set<number>;
  parts: Map<number, { rules: number[]; operations: Set<number>; endpoints: Set<number> }>;
}

function defined(): Defined {
  const architecture = new Set([...read('docs/architecture.md').matchAll(/^## (\d+)\. /gm)].map((m) => Number(m[1])));
  const parts = new Map<number, { rules: number[]; operations: Set<number>; endpoints: Set<number> }>();
  let part: { rules: number[]; operations: Set<number>; endpoints: Set<number> } | undefined;
  let sub = '';
  for (const line of read('docs/spec.md').split('\n')) {
    const h2 = /^## (\d+)\. /.exec(line);
    if (h2) {
      parts.set(Number(h2[1]), (part = { rules: [], operations: new Set(), endpoints: new Set() }));
      sub = '';
      continue;
    }
    if (/^## /.test(line)) {
      part = undefined;
      continue;
    }
    if (!part) continue;
    if (line.startsWith('### ')) {
      sub = line;
      continue;
    }
    const item = /^(\d+)\. /.exec(line);
    if (item && /operations/i.test(sub)) part.operations.add(Number(item[1]));
    else if (item) part.rules.push(Number(item[1]));
    const row = /^\| (\d+) \|/.exec(line);
    if (row) part.endpoints.add(Number(row[1]));
  }
  return { architecture, parts };
}

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/**
 * A citation: `spec §4`, `spec §5.4`, `spec §1 rule 7`, `spec §4 client rules 4 and 8`,
 * `spec §4 endpoints 7/8`, `spec §1 operation 6`, `ARCHITECTURE §11`, `ARCHITECTURE §11/§12`,
 * `docs/architecture.md §3`. A bare `§N` (its document named earlier in the sentence) is not checked.
 */
const CITATION =
  /\b(spec|ARCHITECTURE|architecture\.md|spec\.md) §(\d+)(?:\.(\d+))?((?:\/§\d+)*)(?: (?:client |server )?(rules?|endpoints?|operations?) (\d+(?:(?:, | and | or |\/|-|–)\d+)*))?/g;

/** Every citation in one text that names a section, rule, endpoint or operation the documents do not have. */
function dangling(where: string, text: string, d: Defined): string[] {
  const found: string[] = [];
  for (const [i, line] of text.split('\n').entries()) {
    for (const m of line.matchAll(CITATION)) {
      const at = `${where}:${i + 1} cites "${m[0]}"`;
      const sections = [Number(m[2]), ...[...(m[4] ?? '').matchAll(/\d+/g)].map((x) => Number(x[0]))];
      if (/^architecture/i.test(m[1]!)) {
        for (const n of sections) if (!d.architecture.has(n)) found.push(`${at}: docs/architecture.md has no §${n}`);
        continue;
      }
      for (const n of sections) if (!d.parts.has(n)) found.push(`${at}: docs/spec.md has no part §${n}`);
      const part = d.parts.get(Number(m[2]));
      if (!part) continue;
      const numbers = m[6] ? m[6].split(/\D+/).map(Number) : m[3] ? [Number(m[3])] : [];
      const kind = m[5] ?? (m[3] ? 'rule' : '');
      for (const n of numbers) {
        const ok = kind.startsWith('endpoint') ? part.endpoints.has(n) : kind.startsWith('operation') ? part.operations.has(n) : part.rules.includes(n);
        if (!ok) found.push(`${at}: docs/spec.md §${m[2]} has no ${kind.replace(/s$/, '')} ${n}`);
      }
    }
  }
  return found;
}

/** The titles of describe / it / test calls in one test file (each with its line). */
function testTitles(text: string): { line: number; title: string }[] {
  const out: { line: number; title: string }[] = [];
  const call =
    /\b(?:describe|it|test)(?:\.(?:each|skip|only|skipIf|runIf|concurrent|sequential|todo|fails)(?:\([^()]*(?:\([^()]*\)[^()]*)*\))?)*\(\s*(['"`])((?:\\.|(?!\1)[^\\])*)\1/g;
  // The line of the title itself (its opening quote), which may follow the call's on a line of its own.
  for (const m of text.matchAll(call)) out.push({ line: text.slice(0, m.index + m[0].length - m[2]!.length - 1).split('\n').length, title: m[2]! });
  return out;
}

/** An issue's number in a title: `issue 14`, `issue #6`, `#18`. */
const ISSUE_NUMBER = /\bissues? #?\d+|(?<![\w&])#\d+\b/i;

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
    for (let n = 1; n <= 23; n++) expect(architecture, `ARCHITECTURE §${n}`).toMatch(new RegExp(`^## ${n}\\. `, 'm'));
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

  it('every "spec §N (rule M)" and "ARCHITECTURE §N" that code, tests, scripts, docs and --help cite is a heading or a numbered rule of docs/', () => {
    const d = defined();
    const self = 'test/docs-self-contained.test.ts'; // its own examples of dangling citations
    const files = trackedText().filter((f) => f !== self);
    // The check reads what it should: the code and tests cite the two documents hundreds of times.
    expect(files.reduce((n, f) => n + [...read(f).matchAll(CITATION)].length, 0)).toBeGreaterThan(400);
    expect(files.flatMap((file) => dangling(file, read(file), d))).toEqual([]);
  });

  it('docs/spec.md numbers each rule once within its part, and its rule index names files that exist', () => {
    const d = defined();
    for (const [n, part] of d.parts)
      expect(
        part.rules.filter((r, i) => part.rules.indexOf(r) !== i),
        `spec §${n}: rule numbers used twice`,
      ).toEqual([]);
    expect(d.parts.get(1)!.rules).toEqual([...Array(13).keys()].map((i) => i + 1));
    expect([...d.parts.get(4)!.endpoints]).toEqual([...Array(15).keys()].map((i) => i + 1));
    const index = read('docs/spec.md').split(/^## Rule index$/m)[1] ?? '';
    const rows = index.split('\n').filter((l) => l.startsWith('| §'));
    expect(rows.length).toBeGreaterThan(20);
    const missing = rows
      .flatMap((row) =>
        [
          ...row
            .split('|')
            .slice(2, 4)
            .join('|')
            .matchAll(/`([^`]+)`/g),
        ].map((m) => m[1]!),
      )
      .map((p) => (p.startsWith('test/') ? p : `packages/${p}`))
      .filter((p) => !existsSync(join(ROOT, p)));
    expect(missing).toEqual([]);
  });

  it('no tracked file names a file outside the repository (a sibling input folder, its ARCHITECTURE.md or STYLE.md)', () => {
    const self = 'test/docs-self-contained.test.ts';
    const found = trackedText()
      .filter((f) => f !== self)
      .flatMap((file) =>
        read(file)
          .split('\n')
          .flatMap((line, i) => (OUTSIDE.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
      );
    expect(found).toEqual([]);
  });

  it('test titles say the behaviour or the rule, never an issue number', () => {
    const self = 'test/docs-self-contained.test.ts'; // its own examples of such titles
    const files = trackedText().filter((f) => f !== self && /^(test|packages\/[^/]+\/test)\/.*\.ts$/.test(f));
    expect(files.length).toBeGreaterThan(50);
    const found = files.flatMap((file) =>
      testTitles(read(file))
        .filter((t) => ISSUE_NUMBER.test(t.title))
        .map((t) => `${file}:${t.line}: ${t.title}`),
    );
    expect(found).toEqual([]);
  });

  it('the checks catch what they look for', () => {
    // Spelt in pieces: standalone.test.ts flags the literal path in code (it is only text here).
    expect(problems('x', `see ${['..', 'shared', 'ARCHITECTURE.md'].join('/')} §3`, ROOT)).toHaveLength(1);
    expect(problems('x', 'limits: docs/no-such-file.md', ROOT)).toEqual(['x:1 names docs/no-such-file.md, which is not in the repository']);
    expect(problems('x', '[spec](../../elsewhere.md)', ROOT)[0]).toMatch(/outside the repository/);
    expect(problems('x', 'limits: docs/limits.md, [the board](docs/board.png), https://example.com/docs/x', ROOT)).toEqual([]);
    const d = defined();
    expect(
      dangling('x', '// spec §1 rule 7, spec §4 client rules 4 and 8, spec §4 endpoint 15, spec §5.4, ARCHITECTURE §11/§12, spec §1 operation 6', d),
    ).toEqual([]);
    expect(dangling('x', 'spec §11; spec §1 rule 14; spec §4 endpoint 16; ARCHITECTURE §24; spec §5.12; spec §1 operations 1-10', d)).toEqual([
      'x:1 cites "spec §11": docs/spec.md has no part §11',
      'x:1 cites "spec §1 rule 14": docs/spec.md §1 has no rule 14',
      'x:1 cites "spec §4 endpoint 16": docs/spec.md §4 has no endpoint 16',
      'x:1 cites "ARCHITECTURE §24": docs/architecture.md has no §24',
      'x:1 cites "spec §5.12": docs/spec.md §5 has no rule 12',
      'x:1 cites "spec §1 operations 1-10": docs/spec.md §1 has no operation 10',
    ]);
    const titles = testTitles(
      `describe.each(kinds)('issue 14 item 1: limits (%s)', () => {\n  it(\n    'spec §1 rule 2: refused', () => {});\n  it(\`#18 \${x}\`, () => {});`,
    );
    expect(titles.map((t) => [t.line, t.title])).toEqual([
      [1, 'issue 14 item 1: limits (%s)'],
      [3, 'spec §1 rule 2: refused'],
      [4, '#18 ${x}'],
    ]);
    expect(titles.map((t) => ISSUE_NUMBER.test(t.title))).toEqual([true, false, true]);
    expect(ISSUE_NUMBER.test('issue create prints the key; ABC-1 and &#39; stay')).toBe(false);
  });
});
