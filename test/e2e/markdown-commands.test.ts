import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textToAdf } from '../../packages/adf/src/index.js';
import { issueView, commentList } from '../../packages/jst/src/commands/read.js';
import { createContext, type Io } from '../../packages/jst/src/context.js';
import { jstFolder, runJst } from '../support/jst-cli.js';
import { startTestTracker, type TestTracker } from '../support/tracker.js';

const MARKDOWN = '## Scope\n\n- one `x()`\n  - nested\n\n```sh\nnpm test\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n';

/** A terminal-like Io: text output (not JSON), no colour, stdout collected. */
function terminal(): { io: Io; out: () => string } {
  let text = '';
  const io: Io = {
    stdout: { write: (s: string) => { text += s; return true; }, isTTY: true },
    stderr: { write: () => true, isTTY: false },
    stdin: new PassThrough(),
    color: false,
    interactive: false,
  };
  return { io, out: () => text };
}

describe('Markdown on request, literal text without it (ARCHITECTURE §11, spec §2)', () => {
  let t: TestTracker;
  let dir: string;
  const jst = (args: string[], input?: string) => runJst(args, { cwd: dir, ...(input !== undefined ? { input } : {}) });
  const ok = async (args: string[], input?: string) => {
    const r = await jst(args, input);
    if (r.code !== 0) throw new Error(`jst ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
    return r.stdout.trim();
  };
  const description = async (key: string) => (await t.as('executor').get(`/issue/${key}?fields=description`)).body.fields.description;
  const comments = async (key: string) => (await t.as('executor').get(`/issue/${key}/comment`)).body.comments as Array<{ body: unknown }>;
  const issueCount = async () => (await t.as('assigner').post('/search/jql', { jql: 'project = ABC', fields: ['summary'], maxResults: 100 })).body.issues.length as number;

  beforeAll(async () => {
    t = await startTestTracker('sqlite');
    dir = jstFolder(t);
    writeFileSync(join(dir, 'scope.md'), MARKDOWN);
  });
  afterAll(async () => { await t?.close(); });

  it('issue create --markdown stores headings, nested lists, code and tables as ADF nodes', async () => {
    const key = await ok(['--role', 'assigner', 'issue', 'create', '--type', 'Task', '--summary', 'md', '--description-file', join(dir, 'scope.md'), '--markdown']);
    const d = await description(key);
    expect(d.content.map((n: { type: string }) => n.type)).toEqual(['heading', 'bulletList', 'codeBlock', 'table']);
    expect(d.content[0]).toEqual({ type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: 'Scope' }] });
    expect(d.content[2]).toEqual({ type: 'codeBlock', attrs: { language: 'sh' }, content: [{ type: 'text', text: 'npm test' }] });
  });

  it('spec §2: issue create without --markdown keeps the same text literal, one paragraph per line', async () => {
    const key = await ok(['--role', 'assigner', 'issue', 'create', '--type', 'Task', '--summary', 'literal', '--description-file', join(dir, 'scope.md')]);
    expect(await description(key)).toEqual(textToAdf(MARKDOWN));
  });

  it('comment add --markdown (stdin) converts; without it the text stays literal', async () => {
    const key = await ok(['--role', 'assigner', 'issue', 'create', '--type', 'Task', '--summary', 'comments']);
    await ok(['--role', 'reviewer', 'comment', 'add', key, '-', '--markdown'], '**Blocked** on `ABC-2`\n');
    await ok(['--role', 'reviewer', 'comment', 'add', key, '-'], '**Blocked** on `ABC-2`\n');
    const [md, literal] = await comments(key);
    expect(md!.body).toMatchObject({ content: [{ type: 'paragraph', content: [
      { type: 'text', text: 'Blocked', marks: [{ type: 'strong' }] }, { type: 'text', text: ' on ' }, { type: 'text', text: 'ABC-2', marks: [{ type: 'code' }] },
    ] }] });
    expect(literal!.body).toEqual(textToAdf('**Blocked** on `ABC-2`'));
  });

  it('refusals change nothing: --markdown with --adf-file, and Markdown over the size limit (exit 2)', async () => {
    const before = await issueCount();
    writeFileSync(join(dir, 'doc.json'), JSON.stringify(textToAdf('x')));
    const both = await jst(['--role', 'assigner', 'issue', 'create', '--type', 'Task', '--summary', 'x', '--adf-file', join(dir, 'doc.json'), '--markdown']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--markdown applies to text, not to --adf-file');
    writeFileSync(join(dir, 'huge.md'), 'x'.repeat(40_000));
    const huge = await jst(['--role', 'assigner', 'issue', 'create', '--type', 'Task', '--summary', 'x', '--description-file', join(dir, 'huge.md'), '--markdown']);
    expect(huge.code).toBe(2);
    expect(huge.stderr).toContain('huge.md: Markdown input is 40000 characters; the limit is 32767 (MARKDOWN_LIMITS.maxChars)');
    expect(await issueCount()).toBe(before);
  });

  it('issue view and comment list (text form) print ADF with its shape; --json stays the raw ADF', async () => {
    const key = await ok(['--role', 'assigner', 'issue', 'create', '--type', 'Task', '--summary', 'view me', '--description-file', join(dir, 'scope.md'), '--markdown']);
    await ok(['--role', 'reviewer', 'comment', 'add', key, '-', '--markdown'], '> quoted\n\n1. first\n2. second\n');
    const ctx = (io: Io) => createContext({ cwd: dir, env: { ...process.env, HOME: dir }, io });
    const view = terminal();
    expect(await issueView(ctx(view.io), 'executor', key, { fields: 'summary,description,comment' })).toBe(0);
    expect(view.out()).toContain('## Scope\n\n- one `x()`\n  - nested\n\n```sh\nnpm test\n```\n\n| a   | b   |\n| --- | --- |\n| 1   | 2   |');
    expect(view.out()).toContain('> quoted\n\n1. first\n2. second');
    const list = terminal();
    expect(await commentList(ctx(list.io), 'executor', key, {})).toBe(0);
    expect(list.out()).toContain('> quoted\n\n1. first\n2. second');
    const json = JSON.parse(await ok(['--role', 'executor', 'issue', 'view', key, '--fields', 'description', '--json']));
    expect(json.fields.description).toEqual(await description(key));
  });
});
