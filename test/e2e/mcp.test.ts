import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJst } from '../support/jst-cli.js';
import { startMcp, TEST_SECRETS, textOf, type McpSession } from '../support/mcp.js';
import { startTestTracker, type TestTracker } from '../support/tracker.js';
import { MULTISTEP, SINGLE, planWorld, type PlanWorld } from './plan-fixture.js';

const EVERY_ROLE = ['healthcheck', 'issue_view', 'search', 'comment_list'];
const TOOLS_OF = {
  assigner: [...EVERY_ROLE, 'plan', 'plan_dry_run'],
  executor: [...EVERY_ROLE, 'start', 'note', 'pr_base', 'pr'],
  reviewer: [...EVERY_ROLE, 'review_brief', 'review_verdict', 'parent_pr', 'done'],
} as const;

describe('jst mcp (ARCHITECTURE §13): the agent interface over the same command code', () => {
  let t: TestTracker;
  const sessions: McpSession[] = [];
  const worlds: PlanWorld[] = [];

  async function mcp(role: string, cwd: string, o: Omit<Parameters<typeof startMcp>[1], 'cwd'> = {}): Promise<McpSession> {
    const s = await startMcp(role, { cwd, ...o });
    sessions.push(s);
    return s;
  }
  function world(o: Parameters<typeof planWorld>[1] = {}): PlanWorld {
    const w = planWorld(t, o);
    worlds.push(w);
    return w;
  }
  const issueCount = async () =>
    (await t.as('assigner').post('/search/jql', { jql: 'project = ABC', maxResults: 100, fields: ['summary'] })).body.issues.length as number;
  const statusOf = async (key: string): Promise<string> => (await t.as('assigner').get(`/issue/${key}?fields=status`)).body.fields.status.name;

  beforeAll(async () => {
    t = await startTestTracker('sqlite');
  });
  afterAll(async () => {
    for (const s of sessions) await s.close().catch(() => undefined);
    for (const w of worlds) w.repo.cleanup();
    await t?.close();
  });

  describe('listing per role', () => {
    for (const [role, names] of Object.entries(TOOLS_OF)) {
      it(`${role} sees exactly its tools, each with the §13 input and a cwd`, async () => {
        const w = world();
        const s = await mcp(role, w.repo.repo);
        const { tools } = await s.client.listTools();
        expect(tools.map((x) => x.name).sort()).toEqual([...names].sort());
        const props = Object.fromEntries(tools.map((x) => [x.name, Object.keys(x.inputSchema.properties ?? {}).sort()]));
        expect(props.healthcheck).toEqual(['cwd']);
        expect(props.issue_view).toEqual(['cwd', 'fields', 'key', 'raw']);
        expect(props.search).toEqual(['all', 'cwd', 'fields', 'jql', 'max', 'pageToken']);
        const required = Object.fromEntries(tools.map((x) => [x.name, x.inputSchema.required ?? []]));
        expect(required.search).toEqual(['jql']);
        expect(props.comment_list).toEqual(['cwd', 'key', 'marker']);
        expect(required.comment_list).toEqual(['key']);
        if (role === 'assigner') {
          expect(props.plan).toEqual(['abandon', 'again', 'cwd', 'fromBranch', 'plan']);
          expect(props.plan_dry_run).toEqual(['cwd', 'fromBranch', 'plan']);
          expect(required.plan).toEqual(['plan']);
        }
        if (role === 'executor') {
          expect(props.start).toEqual(['cwd', 'notes', 'onParent']);
          expect(props.note).toEqual(['cwd', 'markdown', 'text']);
          expect(required.note).toEqual(['text']);
          expect(props.pr_base).toEqual(['cwd']);
          expect(props.pr).toEqual(['body', 'cwd', 'draft', 'markdown', 'title']);
        }
        if (role === 'reviewer') {
          expect(props.review_brief).toEqual(['cwd', 'key']);
          expect(props.review_verdict).toEqual(['body', 'cwd', 'key', 'markdown', 'summary', 'verdict']);
          expect(required.review_verdict).toEqual(['key', 'verdict', 'summary']);
          const verdict = tools.find((x) => x.name === 'review_verdict')!.inputSchema.properties!.verdict as { enum: string[] };
          expect(verdict.enum).toEqual(['approve', 'request-changes']);
          expect(props.parent_pr).toEqual(['cwd', 'key']);
          expect(required.parent_pr).toEqual(['key']);
          expect(props.done).toEqual(['cwd', 'keys']);
          expect((tools.find((x) => x.name === 'done')!.inputSchema.properties!.keys as { type: string }).type).toBe('array');
        }
      });
    }

    it('a tool of another role is not there to call: the executor cannot plan or close, the reviewer cannot start', async () => {
      const w = world();
      const before = await issueCount();
      const ex = await mcp('executor', w.repo.repo);
      const r = await ex.call('plan', { plan: SINGLE });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toContain('Tool plan not found');
      expect((await ex.call('done', { keys: ['ABC-1'] })).isError).toBe(true);
      const rv = await mcp('reviewer', w.repo.repo);
      expect((await rv.call('start', {})).isError).toBe(true);
      expect(await issueCount()).toBe(before);
    });

    it('an unknown role exits 2 naming the valid ones', async () => {
      const r = await runJst(['mcp', '--role', 'boss'], { cwd: world().repo.repo });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('assigner, executor, reviewer');
      const none = await runJst(['mcp'], { cwd: world().repo.repo });
      expect(none.code).toBe(2);
      expect(none.stderr).toContain('assigner|executor|reviewer');
    });
  });

  describe('phase 1 and 2 through tools', () => {
    let w: PlanWorld;
    let keys: string[];
    let worktrees: string[];
    let progress: string[];

    beforeAll(async () => {
      w = world();
      const s = await mcp('assigner', w.repo.repo);
      progress = [];
      const r = await s.call('plan', { plan: MULTISTEP }, { progress });
      expect(r.isError, textOf(r)).toBeFalsy();
      const out = r.structuredContent as { keys: string[]; worktrees: string[]; report: string; handOff: string[]; dryRun: boolean };
      keys = out.keys;
      worktrees = out.worktrees;
      expect(out.dryRun).toBe(false);
      expect(textOf(r)).toBe(`${out.report}\n${out.handOff.join('\n')}`);
    });

    it('spec §1 phase 1: a whole multistep plan through the plan tool, one progress notification per step', async () => {
      expect(keys).toHaveLength(4);
      const [parent, ...subs] = keys;
      const p = (await t.as('assigner').get(`/issue/${parent}?fields=subtasks`)).body;
      expect(p.fields.subtasks.map((x: { key: string }) => x.key)).toEqual(subs);
      for (const wt of worktrees) expect(w.git('-C', wt, 'rev-parse', '--abbrev-ref', 'HEAD')).toMatch(/^feature\/ABC-\d+-/);
      expect(progress[0]).toBe('→ healthcheck --role assigner');
      expect(progress).toContain('→ git fetch origin');
      expect(progress.length).toBeGreaterThan(10);
    });

    it("the executor's start in a sub-task worktree (cwd): In Progress, the same result as jst start --json", async () => {
      const s = await mcp('executor', w.repo.repo);
      const r = await s.call('start', { cwd: worktrees[1], notes: 'parser first' });
      expect(r.isError, textOf(r)).toBeFalsy();
      const out = r.structuredContent as { key: string; status: string; previousStatus: string; notes: string; worktree: string };
      expect(out).toMatchObject({ key: keys[1], status: 'In Progress', previousStatus: 'To Do', notes: 'parser first', worktree: worktrees[1] });
      expect(await statusOf(keys[1]!)).toBe('In Progress');
      expect(textOf(r).split('\n')[0]).toBe(`${keys[1]}  ${MULTISTEP.steps[0]!.summary}`);
      // The CLI's --json, run now (already In Progress), differs only where the second run must.
      const cli = JSON.parse((await runJst(['start', 'parser first', '--json'], { cwd: worktrees[1]! })).stdout);
      // The notes were saved as task memory by the tool's start: the CLI's start lists them, and posts no second.
      expect(cli.taskMemory.map((x: { text: string }) => x.text)).toEqual(['parser first']);
      expect({ ...out, previousStatus: 'In Progress', transitioned: false, push: cli.push, taskMemory: cli.taskMemory }).toEqual(cli);
    });

    it("issue_view without a key reads the worktree's issue; with raw its result equals jst issue view --json", async () => {
      const s = await mcp('executor', w.repo.repo);
      const r = await s.call('issue_view', { cwd: worktrees[2], fields: ['summary', 'status'], raw: true });
      expect(r.isError, textOf(r)).toBeFalsy();
      const cli = await runJst(['--role', 'executor', 'issue', 'view', keys[2]!, '--fields', 'summary,status', '--json'], { cwd: w.repo.repo });
      expect(r.structuredContent).toEqual(JSON.parse(cli.stdout));
      expect(textOf(r)).toContain(`${keys[2]} ${MULTISTEP.steps[1]!.summary}`);
    });

    it('ARCHITECTURE §11: text taken from the tracker reaches the agent without control characters (structured content keeps it as sent)', async () => {
      const text = 'screen \u001b]0;owned\u0007\u001b[2J cleared';
      const posted = await t
        .as('executor')
        .post(`/issue/${keys[2]}/comment`, { body: { type: 'doc', version: 1, content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] } });
      expect(posted.status).toBe(201);
      const s = await mcp('executor', w.repo.repo);
      const r = await s.call('issue_view', { key: keys[2], fields: ['summary', 'comment'] });
      expect(r.isError, textOf(r)).toBeFalsy();
      expect(textOf(r)).toContain('screen');
      expect(textOf(r)).toContain('cleared');
      expect(textOf(r)).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    });

    it("search and healthcheck results equal the CLI's --json", async () => {
      const s = await mcp('reviewer', w.repo.repo);
      const jql = `parent = ${keys[0]} ORDER BY key`;
      const r = await s.call('search', { jql, max: 2, fields: 'summary' });
      const cli = await runJst(['--role', 'reviewer', 'search', jql, '--max', '2', '--fields', 'summary', '--json'], { cwd: w.repo.repo });
      // The page token is signed with the time it was made; both have one, the rest is equal.
      const { nextPageToken: token, ...rest } = r.structuredContent as { issues: unknown[]; nextPageToken?: string };
      const { nextPageToken: cliToken, ...cliRest } = JSON.parse(cli.stdout) as { nextPageToken?: string };
      expect(rest).toEqual(cliRest);
      expect(typeof token).toBe('string');
      expect(typeof cliToken).toBe('string');
      expect(rest.issues).toHaveLength(2);
      const h = await s.call('healthcheck');
      const hc = await runJst(['healthcheck', '--role', 'reviewer', '--json'], { cwd: w.repo.repo });
      expect(h.structuredContent).toEqual(JSON.parse(hc.stdout));
      expect(textOf(h)).toContain('tracker_login');
    });

    it('comment_list: the comments of jst comment list --json, oldest first, each with its whole text; marker keeps those starting with it; a bad key is isError', async () => {
      const s = await mcp('executor', w.repo.repo);
      const note = await s.call('note', { cwd: worktrees[1], text: 'the parser handles quoted fields' });
      expect(note.isError, textOf(note)).toBeFalsy();
      const r = await s.call('comment_list', { key: keys[1] });
      expect(r.isError, textOf(r)).toBeFalsy();
      const cli = JSON.parse((await runJst(['--role', 'executor', 'comment', 'list', keys[1]!, '--json'], { cwd: w.repo.repo })).stdout) as { id: string }[];
      const out = r.structuredContent as { key: string; comments: { id: string; author: string; text: string }[] };
      expect(out.key).toBe(keys[1]);
      expect(out.comments.map((c) => c.id)).toEqual(cli.map((c) => c.id));
      const memory = await s.call('comment_list', { key: keys[1], marker: 'Task memory' });
      const texts = (memory.structuredContent as typeof out).comments.map((c) => c.text);
      expect(texts.some((x) => x.includes('the parser handles quoted fields'))).toBe(true);
      expect(texts.every((x) => x.startsWith('Task memory'))).toBe(true);
      const before = cli.length;
      const bad = await s.call('comment_list', { key: 'not a key' });
      expect(bad.isError).toBe(true);
      expect(textOf(bad)).toContain('key');
      expect((await t.as('executor').get(`/issue/${keys[1]}/comment`)).body.total).toBe(before);
    });

    it("a cwd outside the server's repository is refused as a tool result", async () => {
      const s = await mcp('executor', w.repo.repo);
      const other = world();
      const r = await s.call('issue_view', { cwd: other.repo.repo, key: keys[0] });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toContain('is outside the repository this server runs in');
    });
  });

  describe("refusals and the person's decisions", () => {
    it("spec §1 rule 1: start in the main checkout is a tool result with isError and the command's own refusal; nothing changes", async () => {
      const w = world();
      const s = await mcp('executor', w.repo.repo);
      const r = await s.call('start', {});
      expect(r.isError).toBe(true);
      expect(textOf(r)).toContain("jst start runs inside an issue's worktree");
      expect((r.structuredContent as { error: { exitCode: number } }).error.exitCode).toBe(2);
    });

    it('spec §1 rule 6: a hotfix with steps is refused (isError), nothing created', async () => {
      const w = world();
      const before = await issueCount();
      const s = await mcp('assigner', w.repo.repo);
      const r = await s.call('plan', { plan: { ...MULTISTEP, path: 'hotfix' } });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toContain('a hotfix is a single issue');
      expect(await issueCount()).toBe(before);
      expect(w.git('branch', '--list', 'feature/*', 'hotfix/*')).toBe('');
    });

    it("spec §1 rule 5: open questions in the plan come back as the command's question, nothing created", async () => {
      const w = world();
      const before = await issueCount();
      const s = await mcp('assigner', w.repo.repo);
      const r = await s.call('plan', { plan: { request: 'Something vague' } });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toContain('summary: A one-line summary for the issue?');
      expect(await issueCount()).toBe(before);
    });

    const odd = (w: PlanWorld) => {
      w.git('checkout', '--quiet', '-b', 'experiment');
    };
    const RULE_2 = 'You are on experiment, neither the default base branch development nor the production branch main.';

    it('spec §1 rule 2: with no elicitation the question comes back as a refusal carrying it; nothing created', async () => {
      const w = world();
      odd(w);
      const before = await issueCount();
      const s = await mcp('assigner', w.repo.repo);
      const r = await s.call('plan', { plan: SINGLE });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toContain('this MCP client cannot ask it');
      expect(textOf(r)).toContain(RULE_2);
      expect((r.structuredContent as { error: { question: string; exitCode: number } }).error).toMatchObject({ exitCode: 3 });
      expect((r.structuredContent as { error: { question: string } }).error.question).toContain(RULE_2);
      expect(await issueCount()).toBe(before);
      expect(w.git('branch', '--list', 'feature/*')).toBe('');
    });

    it('spec §1 rule 2: a declined elicitation changes nothing', async () => {
      const w = world();
      odd(w);
      const before = await issueCount();
      const s = await mcp('assigner', w.repo.repo, { elicit: () => ({ action: 'decline' }) });
      const r = await s.call('plan', { plan: SINGLE });
      expect(s.elicitations).toHaveLength(1);
      expect(s.elicitations[0]!.message).toContain(RULE_2);
      expect(r.isError).toBe(true);
      expect(textOf(r)).toContain('the person declined the question');
      expect(await issueCount()).toBe(before);
      expect(w.git('branch', '--list', 'feature/*')).toBe('');
      expect(w.git('--git-dir', w.repo.origin, 'branch', '--list', 'feature/*')).toBe('');
    });

    it('spec §1 rule 2: an answered "no" refuses with the command\'s own text; an accepted "yes" plans from the default base', async () => {
      const w = world();
      odd(w);
      const before = await issueCount();
      const no = await mcp('assigner', w.repo.repo, { elicit: () => ({ action: 'accept', content: { yes: false } }) });
      const r = await no.call('plan', { plan: SINGLE });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toContain('not planning from experiment');
      expect(await issueCount()).toBe(before);

      const yes = await mcp('assigner', w.repo.repo, { elicit: () => ({ action: 'accept', content: { yes: true } }) });
      const ok = await yes.call('plan', { plan: SINGLE });
      expect(ok.isError, textOf(ok)).toBeFalsy();
      expect(yes.elicitations).toHaveLength(1);
      const out = ok.structuredContent as { keys: string[]; branches: string[] };
      expect(out.keys).toHaveLength(1);
      expect(await issueCount()).toBe(before + 1);
      expect(w.git('merge-base', '--is-ancestor', 'origin/development', out.branches[0]!)).toBe('');
    });

    it('plan_dry_run creates nothing and returns what jst plan --dry-run --json prints', async () => {
      const w = world();
      const before = await issueCount();
      const s = await mcp('assigner', w.repo.repo);
      const progress: string[] = [];
      const r = await s.call('plan_dry_run', { plan: SINGLE }, { progress });
      expect(r.isError, textOf(r)).toBeFalsy();
      const cli = await w.plan(['--plan', w.planFile(SINGLE), '--dry-run', '--json']);
      expect(r.structuredContent).toEqual(JSON.parse(cli.stdout));
      expect(progress.some((l) => l.startsWith('POST '))).toBe(true);
      expect(await issueCount()).toBe(before);
    });
  });

  it("no token in any tool result or on the server's stderr", async () => {
    const all = sessions.flatMap((s) => [...s.results, s.stderr()]).join('\n');
    expect(sessions.flatMap((s) => s.results).length).toBeGreaterThan(10);
    expect(sessions.some((s) => s.stderr().includes('→ healthcheck --role assigner'))).toBe(true);
    for (const secret of TEST_SECRETS) expect(all).not.toContain(secret);
  });
});
