import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jstFolder, runJst } from '../support/jst-cli.js';
import { startMcp, textOf } from '../support/mcp.js';
import { EMAILS, testSeed } from '../support/seed.js';
import { adf, startTestTracker, type TestTracker } from '../support/tracker.js';

/**
 * spec §3 rule 5 / ARCHITECTURE §21: jst's refusal when the tracker's workflow condition withholds
 * a move. The tracker does not say who may make it; jst says what the accounts it holds were
 * offered, and nothing changes.
 */

/** ABC: Done for the reviewer only; ADM: Done for the assigner only (so the reviewer's own `jst done` meets a condition). */
function seed() {
  const s = JSON.parse(JSON.stringify(testSeed())) as { sites: any[] };
  const site = s.sites[0];
  site.projects[0].workflow = { kanban: true, only: { Done: ['reviewer'] } };
  site.projects.push({
    key: 'ADM',
    name: 'Assigner closes',
    lead: EMAILS.assigner,
    workflow: { kanban: true, only: { Done: ['assigner'] } },
    roles: { assigner: EMAILS.assigner, executor: EMAILS.executor, reviewer: EMAILS.reviewer },
    members: [
      { email: EMAILS.assigner, role: 'admin' },
      { email: EMAILS.executor, role: 'member' },
      { email: EMAILS.reviewer, role: 'member' },
    ],
  });
  return s;
}

describe('spec §3 rule 5: jst names the workflow condition that withholds a move', () => {
  let t: TestTracker;
  let dir: string;
  beforeAll(async () => {
    t = await startTestTracker('sqlite', seed());
    dir = jstFolder(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  const issue = async (project: string, status?: string): Promise<string> => {
    const r = await t.as('assigner').post('/issue', { fields: { project: { key: project }, issuetype: { name: 'Task' }, summary: 'conditioned' } });
    const key = r.body.key as string;
    if (status) {
      const id = (await t.as('assigner').get(`/issue/${key}/transitions`)).body.transitions.find((x: any) => x.to.name === status).id;
      expect((await t.as('assigner').post(`/issue/${key}/transitions`, { transition: { id } })).status).toBe(204);
    }
    return key;
  };
  const statusOf = async (key: string) => (await t.as('assigner').get(`/issue/${key}?fields=status`)).body.fields.status.name as string;

  it('spec §3 rule 5: the executor moving to Done is told that the workflow lets only the reviewer (exit 1, nothing changed)', async () => {
    const key = await issue('ABC', 'In Review');
    const r = await runJst(['--role', 'executor', 'issue', 'transition', key, '--to', 'Done'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`the tracker's workflow lets only the reviewer move ${key} to "Done"`);
    expect(r.stderr).toContain(`the transition into "Done" has a condition ${EMAILS.executor} does not meet`);
    expect(r.stderr).toContain(`In jst's flow the reviewer makes it: jst done ${key}`);
    expect(await statusOf(key)).toBe('In Review');
    const json = await runJst(['--role', 'executor', 'issue', 'transition', key, '--to', 'Done', '--json'], { cwd: dir });
    expect(json.code).toBe(1);
    const error = JSON.parse(json.stdout).error;
    expect(error).toMatchObject({ code: 'refused', exitCode: 1 });
    expect(error.message).toContain(`the tracker's workflow lets only the reviewer move ${key} to "Done"`);
  });

  it("spec §3 rule 5: holding only its own role's credentials, jst says what it knows and names no one it could not ask", async () => {
    const key = await issue('ABC', 'In Review');
    const agent = jstFolder(t, { local: { TRACKER_ASSIGNER_TOKEN: '', TRACKER_REVIEWER_TOKEN: '' } });
    const r = await runJst(['--role', 'executor', 'issue', 'transition', key, '--to', 'Done'], { cwd: agent });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`the tracker's workflow does not let the executor move ${key} to "Done"`);
    expect(r.stderr).not.toContain('lets only');
    expect(await statusOf(key)).toBe('In Review');
  });

  it("spec §3 rule 5: the reviewer's own jst done, refused by a condition, stops before the yes and says the account is not in the condition's role", async () => {
    const key = await issue('ADM', 'In Review');
    expect((await t.as('reviewer').post(`/issue/${key}/comment`, { body: adf('APPROVED — fine') })).status).toBe(201);
    const r = await runJst(['done', key], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`the tracker's workflow lets only the assigner move ${key} to "Done"`);
    expect(r.stderr).toContain(`the project's admin puts ${EMAILS.reviewer} in that role`);
    expect(r.stderr).not.toMatch(/Move .* to "Done"\?/);
    expect(await statusOf(key)).toBe('In Review');
  });

  it("spec §3 rule 5 over MCP: the reviewer's done tool gets the same refusal, before any question is asked", async () => {
    const key = await issue('ADM', 'In Review');
    expect((await t.as('reviewer').post(`/issue/${key}/comment`, { body: adf('APPROVED — fine') })).status).toBe(201);
    const s = await startMcp('reviewer', { cwd: dir, elicit: () => ({ action: 'accept', content: { yes: true } }) });
    try {
      const r = await s.call('done', { keys: [key] });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toContain(`the tracker's workflow lets only the assigner move ${key} to "Done"`);
      expect(s.elicitations).toEqual([]);
    } finally {
      await s.close();
    }
    expect(await statusOf(key)).toBe('In Review');
  });

  it("a transition the workflow itself lacks (no condition) keeps the client's words", async () => {
    const key = await t.as('assigner').post('/issue', { fields: { project: { key: 'RST' }, issuetype: { name: 'Task' }, summary: 'r' } });
    const r = await runJst(['--role', 'executor', 'issue', 'transition', key.body.key, '--to', 'Finished'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`No transition of ${key.body.key} leads to "Finished"`);
    expect(r.stderr).not.toContain("tracker's workflow");
  });
});
