import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIssue, startTestTracker, storeKinds, type TestTracker } from '../../../../test/support/tracker.js';
import { EMAILS } from '../../../../test/support/seed.js';

describe.each(await storeKinds())('spec §3/§4 transitions and assignment (%s)', (kind) => {
  let t: TestTracker;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    t = await startTestTracker(kind);
    for (const who of ['assigner', 'executor', 'viewer', 'outsider'] as const) ids[who] = (await t.as(who).get('/myself')).body.accountId;
  });
  afterAll(async () => {
    await t?.close();
  });

  const rst = async () =>
    (await t.as('assigner').post('/issue', { fields: { project: { key: 'RST' }, issuetype: { name: 'Task' }, summary: 'r' } })).body.key as string;

  it('spec §4 endpoint 11: transitions list {transitions:[{id, name, to:{name}}]} from the workflow', async () => {
    const key = await createIssue(t, 'assigner', {});
    const r = await t.as('executor').get(`/issue/${key}/transitions`);
    expect(r.status).toBe(200);
    expect(r.body.transitions.map((x: any) => x.to.name)).toEqual(['In Progress', 'In Review', 'Done']);
    for (const x of r.body.transitions) expect(x.id).toMatch(/^\d+$/);
  });

  it('spec §4 client rule 5: transition by destination name (to.name, not name); 204 and the status moves', async () => {
    const key = await rst();
    const list = (await t.as('executor').get(`/issue/${key}/transitions`)).body.transitions;
    expect(list.map((x: any) => [x.name, x.to.name])).toEqual([['Start work', 'Doing']]);
    const pick = list.find((x: any) => x.to.name === 'Doing');
    const r = await t.as('executor').post(`/issue/${key}/transitions`, { transition: { id: pick.id } });
    expect(r.status).toBe(204);
    expect(r.text).toBe('');
    // client rule 7: confirm a 204 write by re-reading
    expect((await t.as('executor').get(`/issue/${key}?fields=status`)).body.fields.status.name).toBe('Doing');
    const next = (await t.as('executor').get(`/issue/${key}/transitions`)).body.transitions;
    expect(next.map((x: any) => x.to.name).sort()).toEqual(['Backlog', 'Checking']);
  });

  it('ids come from the workflow, not fixed: the same destination has different ids in different workflows', async () => {
    const a = (await t.as('executor').get(`/issue/${await createIssue(t, 'assigner', {})}/transitions`)).body.transitions;
    const b = (await t.as('executor').get(`/issue/${await rst()}/transitions`)).body.transitions;
    expect(a.find((x: any) => x.to.name === 'In Progress').id).not.toBe(b.find((x: any) => x.to.name === 'Doing').id);
  });

  it('spec §3 / §7: a transition not available from the current status, or an unknown id, is 400; nothing changes', async () => {
    const key = await rst();
    const all = (await t.as('executor').get(`/issue/${key}/transitions`)).body.transitions;
    expect(all.some((x: any) => x.to.name === 'Finished')).toBe(false);
    const approveId = '31'; // "Approve" (Checking → Finished) exists in the workflow but not from Backlog
    const r = await t.as('executor').post(`/issue/${key}/transitions`, { transition: { id: approveId } });
    expect(r.status).toBe(400);
    expect(r.body.errorMessages[0]).toMatch(/not valid/);
    expect((await t.as('executor').post(`/issue/${key}/transitions`, { transition: { id: '999' } })).status).toBe(400);
    expect((await t.as('executor').post(`/issue/${key}/transitions`, {})).status).toBe(400);
    expect((await t.as('executor').get(`/issue/${key}?fields=status`)).body.fields.status.name).toBe('Backlog');
  });

  it('spec §7: a viewer gets 403 for a transition, an outsider 404', async () => {
    const key = await createIssue(t, 'assigner', {});
    const id = (await t.as('viewer').get(`/issue/${key}/transitions`)).body.transitions[0].id;
    expect((await t.as('viewer').post(`/issue/${key}/transitions`, { transition: { id } })).status).toBe(403);
    expect((await t.as('outsider').post(`/issue/${key}/transitions`, { transition: { id } })).status).toBe(404);
  });

  it('spec §4 endpoint 10: PUT assignee {accountId} assigns, {accountId:null} unassigns, 204 each', async () => {
    const key = await createIssue(t, 'assigner', {});
    const r = await t.as('assigner').put(`/issue/${key}/assignee`, { accountId: ids.executor });
    expect(r.status).toBe(204);
    expect(r.text).toBe('');
    const got = await t.as('executor').get(`/issue/${key}?fields=assignee`);
    expect(got.body.fields.assignee).toMatchObject({ accountId: ids.executor, emailAddress: EMAILS.executor });
    expect((await t.as('assigner').put(`/issue/${key}/assignee`, { accountId: null })).status).toBe(204);
    expect((await t.as('assigner').get(`/issue/${key}?fields=assignee`)).body.fields.assignee).toBeNull();
  });

  it('client rule 4: assigning to oneself uses the accountId from /myself', async () => {
    const key = await createIssue(t, 'assigner', {});
    expect((await t.as('executor').put(`/issue/${key}/assignee`, { accountId: ids.executor })).status).toBe(204);
    expect((await t.as('executor').get(`/issue/${key}?fields=assignee`)).body.fields.assignee.emailAddress).toBe(EMAILS.executor);
  });

  it('spec §7: PUT assignee: 403 for a viewer, 404 for an outsider, 400 for an unknown or unassignable user or no accountId', async () => {
    const key = await createIssue(t, 'assigner', {});
    expect((await t.as('viewer').put(`/issue/${key}/assignee`, { accountId: ids.viewer })).status).toBe(403);
    expect((await t.as('outsider').put(`/issue/${key}/assignee`, { accountId: ids.outsider })).status).toBe(404);
    expect((await t.as('assigner').put(`/issue/${key}/assignee`, { accountId: 'nobody' })).status).toBe(400);
    expect((await t.as('assigner').put(`/issue/${key}/assignee`, { accountId: ids.viewer })).status).toBe(400);
    expect((await t.as('assigner').put(`/issue/${key}/assignee`, { accountId: ids.outsider })).status).toBe(400);
    expect((await t.as('assigner').put(`/issue/${key}/assignee`, {})).status).toBe(400);
    expect((await t.as('assigner').put(`/issue/${key}/assignee`, { accountId: 42 })).status).toBe(400);
    expect((await t.as('assigner').get(`/issue/${key}?fields=assignee`)).body.fields.assignee).toBeNull();
  });

  it('concurrent transitions on one issue: each is validated against the status it replaces', async () => {
    const key = await rst();
    const start = (await t.as('executor').get(`/issue/${key}/transitions`)).body.transitions.find((x: any) => x.to.name === 'Doing').id;
    const results = await Promise.all(Array.from({ length: 8 }, () => t.as('executor').post(`/issue/${key}/transitions`, { transition: { id: start } })));
    // Backlog → Doing is possible once; the others find the issue already in Doing and are refused.
    expect(results.filter((r) => r.status === 204)).toHaveLength(1);
    expect(results.filter((r) => r.status === 400 || r.status === 409)).toHaveLength(7);
    expect((await t.as('executor').get(`/issue/${key}?fields=status`)).body.fields.status.name).toBe('Doing');
  });
});
