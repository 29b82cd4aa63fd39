import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRepo, writeJstFiles, type TestRepo } from '../../../../test/support/repo.js';
import { EMAILS } from '../../../../test/support/seed.js';
import { adf, startTestTracker, type TestTracker } from '../../../../test/support/tracker.js';
import { tenantCommand } from '../../src/commands/account/tenant/spec.js';
import { whoamiCommand } from '../../src/commands/account/whoami/spec.js';
import { commentAddCommand } from '../../src/commands/comment/add/spec.js';
import { commentListCommand } from '../../src/commands/comment/list/spec.js';
import { issueAssignCommand } from '../../src/commands/issue/assign/spec.js';
import { issueCreateCommand } from '../../src/commands/issue/create/spec.js';
import { issueDeleteCommand } from '../../src/commands/issue/delete/spec.js';
import { issueTransitionCommand } from '../../src/commands/issue/transition/spec.js';
import { issueTransitionsCommand } from '../../src/commands/issue/transitions/spec.js';
import { issueViewCommand } from '../../src/commands/issue/view/spec.js';
import { projectExistsCommand } from '../../src/commands/project/exists/spec.js';
import { projectListCommand } from '../../src/commands/project/list/spec.js';
import { projectStatusesCommand } from '../../src/commands/project/statuses/spec.js';
import { searchCommand } from '../../src/commands/search/search/spec.js';
import { healthcheckCommand } from '../../src/commands/setup/healthcheck/spec.js';
import { runSpec } from './fake-context.js';

/** Each tracker verb's spec run in-process with a fake Context against a real jst-tracker (spec §4 operations). */
describe('command specs in-process: the tracker verbs', () => {
  let t: TestTracker;
  let repo: TestRepo;
  let cwd: string;
  beforeAll(async () => {
    t = await startTestTracker('sqlite');
    repo = makeRepo();
    cwd = repo.repo;
    writeJstFiles(cwd, { trackerUrl: t.url, worktreesDir: repo.worktreesDir });
  });
  afterAll(async () => {
    repo?.cleanup();
    await t?.close();
  });

  it("whoami and tenant: the role's identity and the site (JSON when piped, text on a terminal)", async () => {
    const me = await runSpec(whoamiCommand, cwd, {}, { role: 'executor' });
    expect(me.code).toBe(0);
    expect(JSON.parse(me.out).emailAddress).toBe(EMAILS.executor);
    const site = await runSpec(tenantCommand, cwd, {}, { role: 'assigner' });
    expect(JSON.parse(site.out)).toMatchObject({ cloudId: expect.any(String), apiBase: expect.stringContaining('/rest/api/3') });
  });

  it('project list / exists / statuses', async () => {
    expect(JSON.parse((await runSpec(projectListCommand, cwd, {})).out).map((p: { key: string }) => p.key)).toContain('ABC');
    expect((await runSpec(projectExistsCommand, cwd, { key: 'ABC' })).code).toBe(0);
    expect((await runSpec(projectExistsCommand, cwd, { key: 'NOPE' })).code).toBe(1);
    const statuses = JSON.parse((await runSpec(projectStatusesCommand, cwd, { key: 'ABC' })).out) as { statuses: { name: string }[] }[];
    expect(statuses[0]!.statuses.map((s) => s.name)).toContain('In Review');
  });

  it('issue create → assign → transitions → transition → view → comment add/list → search → delete', async () => {
    const file = join(repo.root, 'desc.txt');
    writeFileSync(file, 'First line\n**not bold**\n');
    const created = await runSpec(issueCreateCommand, cwd, { type: 'Task', summary: 'In-process', descriptionFile: file }, { json: false });
    expect(created.code).toBe(0);
    const key = created.out.trim();
    expect(key).toMatch(/^ABC-\d+$/);
    expect(JSON.parse((await runSpec(issueAssignCommand, cwd, { key, who: 'executor' })).out)).toMatchObject({ key, accountId: expect.any(String) });
    expect(
      JSON.parse((await runSpec(issueTransitionsCommand, cwd, { key }, { role: 'executor' })).out).map((x: { to: { name: string } }) => x.to.name),
    ).toContain('In Progress');
    expect(JSON.parse((await runSpec(issueTransitionCommand, cwd, { key, to: 'In Progress' }, { role: 'executor' })).out)).toMatchObject({
      key,
      status: 'In Progress',
    });
    const body = join(repo.root, 'comment.txt');
    writeFileSync(body, 'Task memory\nparser first\n');
    expect((await runSpec(commentAddCommand, cwd, { key, bodyFile: body }, { role: 'executor', json: false })).code).toBe(0);
    const marked = JSON.parse((await runSpec(commentListCommand, cwd, { key, marker: 'Task memory' })).out);
    expect(marked).toHaveLength(1);
    // The CLI face of issue view: the REST JSON; the tool's: the short view.
    const cli = await runSpec(issueViewCommand, cwd, { key, fields: 'summary,status' }, { role: 'executor' });
    expect(JSON.parse(cli.out)).toMatchObject({ key, fields: { summary: 'In-process', status: { name: 'In Progress' } } });
    const tool = await runSpec(issueViewCommand, cwd, { key }, { role: 'executor', tool: 'issue_view' });
    expect(tool.outcome!.json).toMatchObject({ key, summary: 'In-process', status: 'In Progress', markers: [{ line: 'Task memory' }], verdict: null });
    expect(tool.outcome!.text).toContain('First line');
    const found = await runSpec(searchCommand, cwd, { jql: `key = ${key}` }, { role: 'reviewer', tool: 'search' });
    expect(found.outcome!.json).toEqual({ issues: [{ key, summary: 'In-process', status: 'In Progress', assignee: expect.any(String), parent: null }] });
    await expect(runSpec(issueDeleteCommand, cwd, { key, yes: 'ABC-999' })).rejects.toMatchObject({ exitCode: 2 });
    expect((await t.as('assigner').get(`/issue/${key}`)).status).toBe(200);
    expect((await runSpec(issueDeleteCommand, cwd, { key, yes: key })).code).toBe(0);
    expect((await t.as('assigner').get(`/issue/${key}`)).status).toBe(404);
  }, 60_000);

  it('comment add refuses a stray positional with exit 2, posting nothing', async () => {
    const key = await t
      .as('assigner')
      .post('/issue', { fields: { project: { key: 'ABC' }, issuetype: { name: 'Task' }, summary: 'No stray' } })
      .then((r) => r.body.key as string);
    await expect(runSpec(commentAddCommand, cwd, { key, dash: 'oops' })).rejects.toMatchObject({ exitCode: 2 });
    expect((await t.as('assigner').get(`/issue/${key}/comment`)).body.total).toBe(0);
  });

  it("the reviewer's CHANGES REQUESTED verdict is in the short view; the same text by another account is not", async () => {
    const key = await t
      .as('assigner')
      .post('/issue', { fields: { project: { key: 'ABC' }, issuetype: { name: 'Task' }, summary: 'Reviewed' } })
      .then((r) => r.body.key as string);
    await t.as('executor').post(`/issue/${key}/comment`, { body: adf('CHANGES REQUESTED — by the executor') });
    expect((await runSpec(issueViewCommand, cwd, { key }, { tool: 'issue_view' })).outcome!.json).toMatchObject({ verdict: null });
    await t.as('reviewer').post(`/issue/${key}/comment`, { body: adf('CHANGES REQUESTED — by the reviewer') });
    const v = await runSpec(issueViewCommand, cwd, { key }, { tool: 'issue_view' });
    expect(v.outcome!.json).toMatchObject({ verdict: { kind: 'changes-requested', summary: 'by the reviewer' } });
    expect(v.outcome!.text).toMatch(/Changes requested by .+:\n {2}CHANGES REQUESTED — by the reviewer/);
  });

  it('healthcheck: the rows as JSON, exit 0 with no FAIL', async () => {
    const r = await runSpec(healthcheckCommand, cwd, {}, { role: 'assigner' });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).rows.map((x: { name: string }) => x.name)).toContain('tracker_login');
  });
});
