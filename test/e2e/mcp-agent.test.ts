import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { codehostOf, type EmbeddedCodehost } from '../support/embedded-codehost.js';
import { JST_BIN, runJst } from '../support/jst-cli.js';
import { startMcp, testEnv, TEST_SECRETS, textOf, type McpSession } from '../support/mcp.js';
import { git } from '../support/repo.js';
import { testSeed, withCodehost } from '../support/seed.js';
import { adf, startTestTracker, type TestTracker } from '../support/tracker.js';
import { HOTFIX, MULTISTEP, SINGLE, planWorld, type PlanWorld } from './plan-fixture.js';

const REPO = 'acme/widgets';
const READ_TOOLS = {
  assigner: ['healthcheck', 'issue_view', 'search', 'comment_list', 'plan_dry_run'],
  executor: ['healthcheck', 'issue_view', 'search', 'comment_list', 'pr_base'],
  reviewer: ['healthcheck', 'issue_view', 'search', 'comment_list', 'review_brief'],
} as const;

/**
 * ARCHITECTURE §13: the agent interface finishes the lifecycle. Every tool result of every session
 * here is validated against the outputSchema its server listed (ajv, beside the SDK client's own check).
 */
describe('jst mcp (ARCHITECTURE §13): one declaration per command, the whole lifecycle through tools', () => {
  let t: TestTracker;
  let ch: EmbeddedCodehost;
  const sessions: { s: McpSession; tools: Tool[] }[] = [];
  const worlds: PlanWorld[] = [];
  let shimDir: string;

  const world = (): PlanWorld => {
    // origin on the tracker's own code host (ARCHITECTURE §14), no CODEHOST_REPO.
    const w = planWorld(t, { codehost: ch });
    worlds.push(w);
    return w;
  };
  async function mcp(role: string, cwd: string, o: Omit<Parameters<typeof startMcp>[1], 'cwd'> = {}): Promise<McpSession> {
    const s = await startMcp(role, { cwd, ...o });
    sessions.push({ s, tools: (await s.client.listTools()).tools });
    return s;
  }
  const statusOf = async (key: string): Promise<string> => (await t.as('assigner').get(`/issue/${key}?fields=status`)).body.fields.status.name;
  const issueCount = async () =>
    (await t.as('assigner').post('/search/jql', { jql: 'project = ABC', maxResults: 100, fields: ['summary'] })).body.issues.length as number;
  const commit = (dir: string, file: string, text: string) => {
    writeFileSync(join(dir, file), text);
    git(dir, 'add', file);
    git(dir, 'commit', '--quiet', '-m', `edit ${file}`);
  };
  const ok = (r: CallToolResult) => {
    expect(r.isError, textOf(r)).toBeFalsy();
    return r.structuredContent as Record<string, any>;
  };
  /** The person, in a terminal: the printed command run by sh as printed, with `jst` on PATH. */
  const person = async (command: string, cwd: string) =>
    promisify(execFile)('sh', ['-c', command], { cwd, encoding: 'utf8', env: { ...testEnv(cwd), PATH: `${shimDir}:${process.env.PATH ?? ''}` } });

  beforeAll(async () => {
    t = await startTestTracker('sqlite', withCodehost(testSeed()));
    ch = codehostOf(t);
    shimDir = mkdtempSync(join(tmpdir(), 'jst-shim-'));
    writeFileSync(join(shimDir, 'jst'), `#!/bin/sh\nexec "${process.execPath}" "${JST_BIN}" "$@"\n`);
    chmodSync(join(shimDir, 'jst'), 0o755);
  });
  afterAll(async () => {
    for (const { s } of sessions) await s.close().catch(() => undefined);
    for (const w of worlds) w.repo.cleanup();
    rmSync(shimDir, { recursive: true, force: true });
    await t?.close();
  });

  describe('the tool list', () => {
    for (const [role, names] of Object.entries(READ_TOOLS)) {
      it(`jst mcp --role ${role} --read-only lists only the tools whose readOnlyHint is true`, async () => {
        const w = world();
        const s = await mcp(role, w.repo.repo, { args: [JST_BIN, 'mcp', '--role', role, '--read-only'] });
        const { tools } = await s.client.listTools();
        expect(tools.map((x) => x.name).sort()).toEqual([...names].sort());
        for (const x of tools) expect(x.annotations?.readOnlyHint).toBe(true);
      });
    }

    it("--tools a,b lists only those; an unknown name exits 2 naming the role's tools", async () => {
      const w = world();
      const s = await mcp('executor', w.repo.repo, { args: [JST_BIN, 'mcp', '--role', 'executor', '--tools', 'issue_view,note'] });
      expect((await s.client.listTools()).tools.map((x) => x.name)).toEqual(['issue_view', 'note']);
      const bad = await runJst(['mcp', '--role', 'executor', '--tools', 'issue_view,done'], { cwd: w.repo.repo });
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('done');
      expect(bad.stderr).toContain('pr_base');
    });

    it('every tool has an object outputSchema and truthful annotations; every tool takes cwd', async () => {
      const w = world();
      for (const role of ['assigner', 'executor', 'reviewer']) {
        const s = await mcp(role, w.repo.repo);
        for (const x of (await s.client.listTools()).tools) {
          expect(x.outputSchema?.type, x.name).toBe('object');
          expect(Object.keys(x.inputSchema.properties ?? {}), x.name).toContain('cwd');
          expect(x.annotations, x.name).toMatchObject({
            readOnlyHint: expect.any(Boolean),
            destructiveHint: expect.any(Boolean),
            idempotentHint: expect.any(Boolean),
            openWorldHint: true,
          });
        }
      }
      const reviewer = sessions.at(-1)!.tools;
      const hint = (name: string) => reviewer.find((x) => x.name === name)!.annotations!;
      expect(hint('done')).toMatchObject({ readOnlyHint: false, destructiveHint: true });
      expect(hint('review_brief')).toMatchObject({ readOnlyHint: true, destructiveHint: false });
      expect(hint('review_verdict')).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: true });
    });

    it("a misspelt or mistyped input is refused naming the tool's inputs, not a CLI flag", async () => {
      const w = world();
      const s = await mcp('reviewer', w.repo.repo);
      const r = await s.call('search', { jql: 'project = ABC', page_token: 'x' });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toContain('page_token');
      expect(textOf(r)).toContain('pageToken');
      expect(textOf(r)).not.toMatch(/--[a-z]/);
      const m = await s.call('search', { jql: 'project = ABC', max: 0 });
      expect(m.isError).toBe(true);
      expect(textOf(m)).toContain('max');
    });
  });

  describe('results sized for a model', () => {
    it("a default issue_view of an issue with a one-page description and five comments is at most 4 KB, and still shows the key, the status, the description's start and the latest comments", async () => {
      const w = world();
      const page = Array.from({ length: 40 }, (_, i) => `Line ${i + 1} of the description: the export must keep the order of the visible rows.`).join('\n');
      const key = (
        await t.as('assigner').post('/issue', {
          fields: {
            project: { key: 'ABC' },
            issuetype: { name: 'Task' },
            summary: 'A long issue',
            description: { type: 'doc', version: 1, content: page.split('\n').map((l) => ({ type: 'paragraph', content: [{ type: 'text', text: l }] })) },
          },
        })
      ).body.key as string;
      for (let i = 1; i <= 5; i++)
        await t.as('assigner').post(`/issue/${key}/comment`, { body: adf(`Comment ${i}: ${'a thought about the export, '.repeat(12)}`) });
      const s = await mcp('executor', w.repo.repo);
      const r = await s.call('issue_view', { key });
      const out = ok(r);
      const bytes = Buffer.byteLength(textOf(r)) + Buffer.byteLength(JSON.stringify(out));
      expect(bytes).toBeLessThanOrEqual(4096);
      expect(out).toMatchObject({ key, status: 'To Do', summary: 'A long issue', comments: 5 });
      expect(textOf(r)).toContain('Line 1 of the description');
      expect(textOf(r)).toContain('Comment 5:');
      expect(textOf(r)).toContain('Comment 4:');
      // raw: the REST JSON, as jst issue view --json.
      const raw = await s.call('issue_view', { key, raw: true });
      const cli = await runJst(['--role', 'executor', 'issue', 'view', key, '--json'], { cwd: w.repo.repo });
      expect(ok(raw)).toEqual(JSON.parse(cli.stdout));
      expect(JSON.stringify(raw.structuredContent).length).toBeGreaterThan(bytes);
    });

    it('search returns short rows and a nextPageToken that it takes back as pageToken', async () => {
      const w = world();
      for (const summary of ['Row one', 'Row two', 'Row three'])
        await t.as('assigner').post('/issue', { fields: { project: { key: 'ABC' }, issuetype: { name: 'Task' }, summary } });
      const s = await mcp('reviewer', w.repo.repo);
      const first = ok(await s.call('search', { jql: 'project = ABC ORDER BY key', max: 2 }));
      expect(first.issues).toHaveLength(2);
      expect(Object.keys(first.issues[0]).sort()).toEqual(['assignee', 'key', 'parent', 'status', 'summary']);
      expect(typeof first.nextPageToken).toBe('string');
      const second = ok(await s.call('search', { jql: 'project = ABC ORDER BY key', max: 2, pageToken: first.nextPageToken }));
      expect(second.issues.map((i: { key: string }) => i.key)).not.toContain(first.issues[0].key);
      const cli = await runJst(['--role', 'reviewer', 'search', 'project = ABC ORDER BY key', '--max', '2', '--page-token', first.nextPageToken, '--json'], {
        cwd: w.repo.repo,
      });
      expect(JSON.parse(cli.stdout).issues.map((i: { key: string }) => i.key)).toEqual(second.issues.map((i: { key: string }) => i.key));
    });
  });

  describe('plans are not repeated by accident', () => {
    it('the same plan twice through the tool creates nothing the second time: alreadyPlanned with the issues it made; again: true plans anew', async () => {
      const w = world();
      const s = await mcp('assigner', w.repo.repo);
      const first = ok(await s.call('plan', { plan: SINGLE }));
      expect(first.alreadyPlanned).toBe(false);
      const before = await issueCount();
      const second = ok(await s.call('plan', { plan: SINGLE }));
      expect(second).toMatchObject({ alreadyPlanned: true, keys: first.keys, branches: first.branches, worktrees: first.worktrees });
      expect(await issueCount()).toBe(before);
      const anew = ok(await s.call('plan', { plan: SINGLE, again: true }));
      expect(anew.alreadyPlanned).toBe(false);
      expect(anew.keys).not.toEqual(first.keys);
      expect(await issueCount()).toBe(before + 1);
    });

    it('jst plan: the same plan file again exits 0 with "alreadyPlanned": true and creates nothing; --again plans anew', async () => {
      const w = world();
      const file = w.planFile(SINGLE);
      const first = await w.plan(['--plan', file, '--json']);
      expect(first.code, first.stderr).toBe(0);
      const before = await issueCount();
      const again = await w.plan(['--plan', file, '--json']);
      expect(again.code, again.stderr).toBe(0);
      expect(JSON.parse(again.stdout)).toMatchObject({ alreadyPlanned: true, keys: JSON.parse(first.stdout).keys });
      const text = await w.plan(['--plan', file]);
      expect(text.code).toBe(0);
      expect(text.stdout).toContain('Already planned');
      expect(text.stdout).toContain('--again');
      expect(await issueCount()).toBe(before);
      const anew = await w.plan(['--plan', file, '--again', '--json']);
      expect(anew.code, anew.stderr).toBe(0);
      expect(JSON.parse(anew.stdout).alreadyPlanned).toBe(false);
      expect(await issueCount()).toBe(before + 1);
    });
  });

  describe("the person's decisions and the inputs that say them beforehand", () => {
    it('spec §1 rule 7 over MCP: the hotfix yes is asked through elicitation; "no" creates nothing, "yes" plans the hotfix', async () => {
      const w = world();
      const before = await issueCount();
      const no = await mcp('assigner', w.repo.repo, { elicit: () => ({ action: 'accept', content: { yes: false } }) });
      const refused = await no.call('plan', { plan: { ...HOTFIX, request: 'Hotfix asked through elicitation' } });
      expect(refused.isError).toBe(true);
      expect(no.elicitations.map((e) => e.message)).toEqual([expect.stringContaining('This is the HOTFIX path')]);
      expect(await issueCount()).toBe(before);
      const yes = await mcp('assigner', w.repo.repo, { elicit: () => ({ action: 'accept', content: { yes: true } }) });
      const planned = ok(await yes.call('plan', { plan: { ...HOTFIX, request: 'Hotfix asked through elicitation' } }));
      expect(planned.branches[0]).toMatch(/^hotfix\//);
      expect(await issueCount()).toBe(before + 1);
    });

    it('spec §1 rule 2 over MCP: fromBranch is the yes to plan from an unusual branch; a fromBranch naming another branch is refused naming the input', async () => {
      const w = world();
      w.git('checkout', '--quiet', '-b', 'release-prep');
      const s = await mcp('assigner', w.repo.repo);
      const wrong = await s.call('plan', { plan: { ...SINGLE, request: 'From an unusual branch' }, fromBranch: 'other' });
      expect(wrong.isError).toBe(true);
      expect(textOf(wrong)).toContain('fromBranch: "other" does not name the current branch release-prep');
      expect(textOf(wrong)).not.toContain('--from-branch');
      const planned = ok(await s.call('plan', { plan: { ...SINGLE, request: 'From an unusual branch' }, fromBranch: 'release-prep' }));
      expect(planned.keys).toHaveLength(1);
    });
  });

  describe('the whole lifecycle through tools', () => {
    it("with elicitation: plan → start → pr → changes requested → the executor sees them → fix → pr → approve → done → parent_pr → the parent's verdict → the parent Done", async () => {
      const w = world();
      const yes = () => ({ action: 'accept' as const, content: { yes: true } });
      const as = await mcp('assigner', w.repo.repo);
      const planned = ok(await as.call('plan', { plan: { ...MULTISTEP, steps: MULTISTEP.steps.slice(0, 2) } }));
      const [P, A, B] = planned.keys as [string, string, string];
      const [, aw, bw] = planned.worktrees as [string, string, string];
      const [, ab, bb] = planned.branches as [string, string, string];
      const ex = await mcp('executor', w.repo.repo);
      const rv = await mcp('reviewer', w.repo.repo, { elicit: yes });

      for (const [dir, key] of [
        [aw, A],
        [bw, B],
      ] as const) {
        ok(await ex.call('start', { cwd: dir, notes: 'first pass' }));
        commit(dir, `${key}.ts`, `export const k = '${key}';\n`);
        ok(await ex.call('note', { cwd: dir, text: `${key}: first pass committed` }));
        expect(ok(await ex.call('pr', { cwd: dir, body: 'First pass.' }))).toMatchObject({ key, transitioned: true });
      }
      // The reviewer asks for changes on A: A goes back to In Progress.
      const brief = ok(await rv.call('review_brief', { key: P }));
      expect(brief.prs.map((e: { key: string }) => e.key).sort()).toEqual([A, B].sort());
      // Refusals and next steps name the tools' inputs, not the CLI's flags.
      expect(brief.next.join('\n')).toContain(`review_verdict {"key": "${A}", "verdict": "approve"`);
      expect(brief.next.join('\n')).not.toMatch(/--[a-z]/);
      const blank = await rv.call('review_verdict', { key: A, verdict: 'approve', summary: '  ' });
      expect(blank.isError).toBe(true);
      expect(textOf(blank)).toMatch(/^summary must be one non-empty line/);
      ok(await rv.call('review_verdict', { key: A, verdict: 'request-changes', summary: 'Quote fields with commas', body: 'A field "a,b" breaks the row.' }));
      expect(await statusOf(A)).toBe('In Progress');
      // spec: the executor sees the review — verdict, who, body — before the task memory.
      const view = await ex.call('issue_view', { cwd: aw });
      expect(ok(view).verdict).toMatchObject({ kind: 'changes-requested', line: 'CHANGES REQUESTED — Quote fields with commas' });
      expect(textOf(view)).toContain('A field "a,b" breaks the row.');
      const again = await ex.call('start', { cwd: aw });
      const text = textOf(again);
      expect(ok(again).verdict).toMatchObject({
        kind: 'changes-requested',
        summary: 'Quote fields with commas',
        body: expect.stringContaining('A field "a,b" breaks the row.'),
      });
      expect(text.indexOf('CHANGES REQUESTED — Quote fields with commas')).toBeGreaterThan(-1);
      expect(text.indexOf('CHANGES REQUESTED — Quote fields with commas')).toBeLessThan(text.indexOf('Task memory'));
      expect(text).toMatch(/Changes requested by .+:/);
      commit(aw, 'quote.ts', 'export const quote = true;\n');
      ok(await ex.call('pr', { cwd: aw }));
      expect(await statusOf(A)).toBe('In Review');

      for (const key of [A, B]) ok(await rv.call('review_verdict', { key, verdict: 'approve', summary: 'Clean and tested' }));
      // The parent's pull request waits for the sub-task pull requests to be merged.
      const early = await rv.call('parent_pr', { key: P });
      expect(early.isError).toBe(true);
      expect(textOf(early)).toContain('not');
      const elicited = rv.elicitations.length;
      expect(ok(await rv.call('done', { keys: [A, B] }))).toMatchObject({ moved: [A, B] });
      expect(rv.elicitations.length - elicited).toBe(2);
      // Merged on the code host (GitHub's PUT …/merge), into the parent branch.
      for (const branch of [ab, bb]) {
        const pull = (await ch.pulls(REPO)).find((p) => p.head === branch)!;
        expect((await ch.octokit().pulls.merge({ owner: 'acme', repo: 'widgets', pull_number: pull.number })).data.merged).toBe(true);
      }
      const parent = ok(await rv.call('parent_pr', { key: P }));
      expect(parent).toMatchObject({ key: P, parentPr: { allMerged: true, opened: true } });
      expect(await statusOf(P)).toBe('In Review');
      ok(await rv.call('review_verdict', { key: P, verdict: 'approve', summary: 'The export works end to end' }));
      expect(ok(await rv.call('done', { keys: [P] }))).toMatchObject({ moved: [P] });
      for (const key of [P, A, B]) expect(await statusOf(key)).toBe('Done');
      // The whole lifecycle through three MCP servers, each step depending on the one before: 8-16 s
      // alone, twice that on a loaded two-CPU machine. Legitimately long, so it has its own timeout.
    }, 120_000);

    it("without elicitation: the hotfix yes and the Done yes come from the person's terminal, as the exact commands the tools print", async () => {
      const w = world();
      const as = await mcp('assigner', w.repo.repo);
      const before = await issueCount();
      const refused = await as.call('plan', { plan: HOTFIX });
      expect(refused.isError).toBe(true);
      const command = (refused.structuredContent as { error: { command: string; exitCode: number } }).error.command;
      expect((refused.structuredContent as { error: { exitCode: number } }).error.exitCode).toBe(3);
      expect(command).toMatch(/^cd .+ && jst plan --plan .+ --confirm-hotfix$/);
      expect(textOf(refused)).toContain(command);
      expect(await issueCount()).toBe(before);
      await person(command, w.repo.root); // rejects on a non-zero exit
      expect(await issueCount()).toBe(before + 1);
      // The agent carries on: the same plan now answers with what the person's run made.
      const planned = ok(await as.call('plan', { plan: HOTFIX }));
      expect(planned.alreadyPlanned).toBe(true);
      const [K] = planned.keys as [string];
      const [kw] = planned.worktrees as [string];
      expect(planned.branches[0]).toMatch(/^hotfix\//);

      const ex = await mcp('executor', w.repo.repo);
      ok(await ex.call('start', { cwd: kw }));
      commit(kw, 'checkout.ts', 'export const fixed = true;\n');
      ok(await ex.call('pr', { cwd: kw }));
      const rv = await mcp('reviewer', w.repo.repo);
      ok(await rv.call('review_verdict', { key: K, verdict: 'approve', summary: 'Fix verified' }));
      const done = await rv.call('done', { keys: [K] });
      expect(done.isError).toBe(true);
      const doneCommand = (done.structuredContent as { error: { command: string } }).error.command;
      expect(doneCommand).toBe(`jst done ${K} --yes ${K}`);
      expect(textOf(done)).toContain(doneCommand);
      expect(await statusOf(K)).toBe('In Review');
      await person(doneCommand, w.repo.repo);
      expect(await statusOf(K)).toBe('Done');
    });
  });

  it('ARCHITECTURE §11: a "CHANGES REQUESTED — " comment by an account other than the reviewer\'s is not shown as a verdict', async () => {
    const w = world();
    const s = await mcp('assigner', w.repo.repo);
    const [key] = ok(await s.call('plan', { plan: { ...SINGLE, request: 'A verdict by the wrong account' } })).keys as [string];
    await t.as('assigner').post(`/issue/${key}/comment`, { body: adf('CHANGES REQUESTED — not from the reviewer') });
    const view = ok(await s.call('issue_view', { key }));
    expect(view.verdict).toBeNull();
    // Nor listed among the markers: the same first line by another account is an ordinary comment.
    expect(view.markers.map((m: { line: string }) => m.line)).not.toContain('CHANGES REQUESTED — not from the reviewer');
    await t.as('reviewer').post(`/issue/${key}/comment`, { body: adf('CHANGES REQUESTED — from the reviewer\nAdd a test.') });
    expect(ok(await s.call('issue_view', { key })).verdict).toMatchObject({ line: 'CHANGES REQUESTED — from the reviewer', body: 'Add a test.' });
    // The executor's start (CLI) prints it too, before the task memory.
  });

  it('every structuredContent of every session validates against the outputSchema its tool declared; no secret anywhere', () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    let checked = 0;
    for (const { s, tools } of sessions) {
      for (const { name, result } of s.calls) {
        const tool = tools.find((x) => x.name === name);
        if (!tool || result.structuredContent === undefined) continue;
        const valid = ajv.validate(tool.outputSchema!, result.structuredContent);
        expect(valid, `${name}: ${ajv.errorsText()} in ${JSON.stringify(result.structuredContent).slice(0, 300)}`).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(30);
    const all = sessions.flatMap(({ s }) => [...s.results, s.stderr()]).join('\n');
    for (const secret of TEST_SECRETS) expect(all).not.toContain(secret);
  });
});
