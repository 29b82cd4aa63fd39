import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textToAdf, validateAdf } from '../../packages/adf/src/index.js';
import { commentList as commentListOutcome } from '../../packages/jst/src/commands/comment/list/run.js';
import { issueViewOutcome } from '../../packages/jst/src/commands/issue/view/run.js';
import { emit } from '../../packages/jst/src/core/output.js';
import { createContext } from '../../packages/jst/src/compose.js';
import type { Context, Io } from '../../packages/jst/src/core/context.js';
import { jstFolder, runJst } from '../support/jst-cli.js';
import { startMcp, textOf } from '../support/mcp.js';
import { startTestTracker, type TestTracker } from '../support/tracker.js';
import { SINGLE, planWorld } from './plan-fixture.js';

/** The text form of the two read verbs, printed as the CLI prints an outcome (their runs return it). */
const issueView = async (c: Context, role: 'executor', key: string, o: { fields: string }) => emit(c.io, await issueViewOutcome(c, role, key, o), false);
const commentList = async (c: Context, role: 'executor', key: string, o: { marker?: string }) => emit(c.io, await commentListOutcome(c, role, key, o), false);

const MARKDOWN = '## Scope\n\n- one `x()`\n  - nested\n\n```sh\nnpm test\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n';

/** A terminal-like Io: text output (not JSON), no colour, stdout collected. */
function terminal(): { io: Io; out: () => string } {
  let text = '';
  const io: Io = {
    stdout: {
      write: (s: string) => {
        text += s;
        return true;
      },
      isTTY: true,
    },
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
  const issueCount = async () =>
    (await t.as('assigner').post('/search/jql', { jql: 'project = ABC', fields: ['summary'], maxResults: 100 })).body.issues.length as number;

  beforeAll(async () => {
    t = await startTestTracker('sqlite');
    dir = jstFolder(t);
    writeFileSync(join(dir, 'scope.md'), MARKDOWN);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('issue create --markdown stores headings, nested lists, code and tables as ADF nodes', async () => {
    const key = await ok([
      '--role',
      'assigner',
      'issue',
      'create',
      '--type',
      'Task',
      '--summary',
      'md',
      '--description-file',
      join(dir, 'scope.md'),
      '--markdown',
    ]);
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
    expect(md!.body).toMatchObject({
      content: [
        {
          type: 'paragraph',
          content: [
            { type: 'text', text: 'Blocked', marks: [{ type: 'strong' }] },
            { type: 'text', text: ' on ' },
            { type: 'text', text: 'ABC-2', marks: [{ type: 'code' }] },
          ],
        },
      ],
    });
    expect(literal!.body).toEqual(textToAdf('**Blocked** on `ABC-2`'));
  });

  it('refusals change nothing: --markdown with --adf-file, and Markdown over the size limit (exit 2)', async () => {
    const before = await issueCount();
    writeFileSync(join(dir, 'doc.json'), JSON.stringify(textToAdf('x')));
    const both = await jst(['--role', 'assigner', 'issue', 'create', '--type', 'Task', '--summary', 'x', '--adf-file', join(dir, 'doc.json'), '--markdown']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--markdown applies to text, not to --adf-file');
    writeFileSync(join(dir, 'huge.md'), 'x'.repeat(40_000));
    const huge = await jst([
      '--role',
      'assigner',
      'issue',
      'create',
      '--type',
      'Task',
      '--summary',
      'x',
      '--description-file',
      join(dir, 'huge.md'),
      '--markdown',
    ]);
    expect(huge.code).toBe(2);
    expect(huge.stderr).toContain('huge.md: Markdown input is 40000 characters; the limit is 32767 (MARKDOWN_LIMITS.maxChars)');
    expect(await issueCount()).toBe(before);
  });

  it('Markdown that would cost the parser seconds is refused before parsing (exit 2, the limit named) and nothing is posted: jst note, comment add, the MCP note tool', async () => {
    const w = planWorld(t);
    const r = await w.plan(['--plan', w.planFile({ ...SINGLE, request: 'markdown bombs' }), '--json']);
    expect(r.code, r.stderr).toBe(0);
    const { keys, worktrees } = JSON.parse(r.stdout) as { keys: string[]; worktrees: string[] };
    const key = keys[0]!;
    const before = (await comments(key)).length;
    writeFileSync(join(dir, 'bomb.md'), `${'*'.repeat(16_383)}a${'*'.repeat(16_383)}`);
    const started = Date.now();
    const note = await runJst(['note', '--body-file', join(dir, 'bomb.md'), '--markdown'], { cwd: worktrees[0]! });
    expect(note.code, note.stderr).toBe(2);
    expect(note.stderr).toContain(
      "bomb.md: Markdown has a run of 16383 '*' characters at line 1; the limit is 100 in one run (MARKDOWN_LIMITS.maxDelimiterRun)",
    );
    expect(Date.now() - started).toBeLessThan(10_000); // a process start and the refusal, not 30 s of parsing
    const brackets = await jst(['--role', 'reviewer', 'comment', 'add', key, '-', '--markdown'], '['.repeat(16_000));
    expect(brackets.code).toBe(2);
    expect(brackets.stderr).toContain('(MARKDOWN_LIMITS.maxMarkupPerBlock)');
    const mcp = await startMcp('executor', { cwd: worktrees[0]! });
    try {
      const tool = await mcp.call('note', { text: `${'*'.repeat(16_383)}a${'*'.repeat(16_383)}`, markdown: true });
      expect(tool.isError).toBe(true);
      expect(textOf(tool)).toContain('(MARKDOWN_LIMITS.maxDelimiterRun)');
    } finally {
      await mcp.close();
    }
    expect((await comments(key)).length).toBe(before);
  });

  it('issue view and comment list (text form) print ADF with its shape; --json stays the raw ADF', async () => {
    const key = await ok([
      '--role',
      'assigner',
      'issue',
      'create',
      '--type',
      'Task',
      '--summary',
      'view me',
      '--description-file',
      join(dir, 'scope.md'),
      '--markdown',
    ]);
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

  it('jst plan with "markdown": true writes scope and criteria as ADF nodes; without it they stay literal', async () => {
    const w = planWorld(t);
    const md = { ...SINGLE, markdown: true, scope: '# Login page\n\nThe **heading** only', acceptanceCriteria: ['Heading reads `Sign in`'] };
    const r = await w.plan(['--plan', w.planFile(md), '--json']);
    expect(r.code, r.stderr).toBe(0);
    const d = await description(JSON.parse(r.stdout).keys[0]);
    expect(validateAdf(d).ok).toBe(true);
    const scope: number = d.content.findIndex(
      (n: { type: string; content?: Array<{ text?: string }> }) => n.type === 'heading' && n.content?.[0]?.text === 'Scope',
    );
    expect(d.content.slice(scope + 1, scope + 3)).toEqual([
      { type: 'heading', attrs: { level: 3 }, content: [{ type: 'text', text: 'Login page' }] },
      {
        type: 'paragraph',
        content: [
          { type: 'text', text: 'The ' },
          { type: 'text', text: 'heading', marks: [{ type: 'strong' }] },
          { type: 'text', text: ' only' },
        ],
      },
    ]);
    expect(d.content[scope + 4].content[0].content[0].content).toEqual([
      { type: 'text', text: 'Heading reads ' },
      { type: 'text', text: 'Sign in', marks: [{ type: 'code' }] },
    ]);

    const w2 = planWorld(t);
    const r2 = await w2.plan(['--plan', w2.planFile({ ...md, markdown: false, request: 'literal plan' }), '--json']);
    expect(r2.code, r2.stderr).toBe(0);
    const d2 = await description(JSON.parse(r2.stdout).keys[0]);
    expect(d2.content).toContainEqual({ type: 'paragraph', content: [{ type: 'text', text: md.scope }] });
  });
});
