import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adf, createIssue, startTestTracker, storeKinds, type TestTracker } from '../../../../test/support/tracker.js';
import { EMAILS } from '../../../../test/support/seed.js';

const task = (fields: Record<string, unknown> = {}) => ({
  fields: { project: { key: 'ABC' }, issuetype: { name: 'Task' }, summary: 'Write the parser', ...fields },
});

describe.each(await storeKinds())('spec §4 issues (%s)', (kind) => {
  let t: TestTracker;
  let ids: Record<'assigner' | 'executor' | 'reviewer' | 'viewer', string>;
  beforeAll(async () => {
    t = await startTestTracker(kind);
    ids = {} as typeof ids;
    for (const who of ['assigner', 'executor', 'reviewer', 'viewer'] as const) ids[who] = (await t.as(who).get('/myself')).body.accountId;
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('spec §4 endpoint 6 / client rule 3: create', () => {
    it('returns 201 {id, key, self}; the key is PROJECT-n and creator and reporter are the caller', async () => {
      const r = await t.as('assigner').post('/issue', task({ description: adf('Scope: parse it'), assignee: { accountId: ids.executor } }));
      expect(r.status).toBe(201);
      expect(Object.keys(r.body).sort()).toEqual(['id', 'key', 'self']);
      expect(r.body.key).toMatch(/^ABC-\d+$/);
      expect(r.body.self).toBe(`${t.api}/issue/${r.body.id}`);
      const got = await t.as('assigner').get(`/issue/${r.body.key}?fields=creator,reporter,assignee,status,issuetype,description`);
      expect(got.body.fields.creator.accountId).toBe(ids.assigner);
      expect(got.body.fields.reporter.accountId).toBe(ids.assigner);
      expect(got.body.fields.assignee.accountId).toBe(ids.executor);
      expect(got.body.fields.issuetype.name).toBe('Task');
      expect(got.body.fields.description).toEqual(adf('Scope: parse it'));
      // spec §3: new issues land in the workflow's initial status
      expect(got.body.fields.status.name).toBe('To Do');
    });

    it('keys come from a per-project counter: consecutive, never reused after a delete', async () => {
      const a = await createIssue(t, 'assigner', {});
      const b = await createIssue(t, 'assigner', {});
      expect(Number(b.split('-')[1])).toBe(Number(a.split('-')[1]) + 1);
      expect((await t.as('assigner').del(`/issue/${b}`)).status).toBe(204);
      const c = await createIssue(t, 'assigner', {});
      expect(Number(c.split('-')[1])).toBe(Number(b.split('-')[1]) + 1);
    });

    it('the issue id works wherever the key does', async () => {
      const r = await t.as('assigner').post('/issue', task());
      const byId = await t.as('assigner').get(`/issue/${r.body.id}?fields=summary`);
      expect(byId.body.key).toBe(r.body.key);
    });

    it('spec §2: a key is read in any letter case; a number with a leading zero, or 0, names no issue (404)', async () => {
      const key = await createIssue(t, 'assigner', {});
      const [project, n] = key.split('-') as [string, string];
      expect((await t.as('assigner').get(`/issue/${key.toLowerCase()}?fields=summary`)).body.key).toBe(key);
      for (const other of [`${project}-0${n}`, `${project}-0`]) {
        const r = await t.as('assigner').get(`/issue/${other}?fields=summary`);
        expect(r.status, other).toBe(404);
        expect(r.body.errorMessages).toEqual(['Issue does not exist or you do not have permission to see it.']);
      }
    });

    it("a Subtask needs parent.key; it is honoured and shows in the parent's subtasks", async () => {
      const parent = await createIssue(t, 'assigner', { summary: 'Parent' });
      const r = await t.as('assigner').post('/issue', task({ issuetype: { name: 'Subtask' }, parent: { key: parent }, summary: 'Child' }));
      expect(r.status).toBe(201);
      const child = await t.as('assigner').get(`/issue/${r.body.key}?fields=parent,issuetype`);
      expect(child.body.fields.parent.key).toBe(parent);
      expect(child.body.fields.issuetype.subtask).toBe(true);
      const p = await t.as('assigner').get(`/issue/${parent}?fields=subtasks,parent`);
      expect(p.body.fields.subtasks.map((s: { key: string }) => s.key)).toEqual([r.body.key]);
      expect(p.body.fields.subtasks[0].fields.summary).toBe('Child');
      // spec §2: parent is present only when the issue has one
      expect('parent' in p.body.fields).toBe(false);
    });

    it('spec §7: a Subtask without parent, with a parent in another project, or under a Subtask is 400', async () => {
      expect((await t.as('assigner').post('/issue', task({ issuetype: { name: 'Subtask' } }))).body.errors.parent).toMatch(/parent/);
      const other = await t.as('assigner').post('/issue', { fields: { project: { key: 'RST' }, issuetype: { name: 'Task' }, summary: 'elsewhere' } });
      const cross = await t.as('assigner').post('/issue', task({ issuetype: { name: 'Subtask' }, parent: { key: other.body.key } }));
      expect(cross.status).toBe(400);
      expect(cross.body.errors.parent).toMatch(/same project/);
      const parent = await createIssue(t, 'assigner', {});
      const sub = await t.as('assigner').post('/issue', task({ issuetype: { name: 'Subtask' }, parent: { key: parent } }));
      const nested = await t.as('assigner').post('/issue', task({ issuetype: { name: 'Subtask' }, parent: { key: sub.body.key } }));
      expect(nested.status).toBe(400);
      expect(nested.body.errors.parent).toMatch(/itself a Subtask/);
      const taskWithParent = await t.as('assigner').post('/issue', task({ parent: { key: parent } }));
      expect(taskWithParent.status).toBe(400);
      const missingParent = await t.as('assigner').post('/issue', task({ issuetype: { name: 'Subtask' }, parent: { key: 'ABC-99999' } }));
      expect(missingParent.status).toBe(400);
    });

    it('spec §7: a description that is not valid ADF (a plain string) is 400 {errors:{description}}', async () => {
      const r = await t.as('assigner').post('/issue', task({ description: 'plain text' }));
      expect(r.status).toBe(400);
      expect(r.body.errorMessages).toEqual([]);
      expect(r.body.errors.description).toMatch(
        /^The field value is not valid Atlassian Document Format \(ADF\) content\. The value of 'description' is not valid ADF: a plain string was sent\./,
      );
      const bad = await t.as('assigner').post('/issue', task({ description: { type: 'doc', version: 1, content: [{ type: 'blink' }] } }));
      expect(bad.body.errors.description).toMatch(/\$\.content\[0\]/);
    });

    it('spec §7: an unknown issue type or an unknown field is 400 naming it', async () => {
      const type = await t.as('assigner').post('/issue', task({ issuetype: { name: 'Epic' } }));
      expect(type.status).toBe(400);
      expect(type.body.errors.issuetype).toContain('Epic');
      const field = await t.as('assigner').post('/issue', task({ priority: { name: 'High' } }));
      expect(field.status).toBe(400);
      expect(field.body.errors.priority).toContain("'priority'");
    });

    it('missing summary, project or fields; a project the caller cannot see: 400 naming the field', async () => {
      expect((await t.as('assigner').post('/issue', task({ summary: '' }))).body.errors.summary).toBeDefined();
      expect((await t.as('assigner').post('/issue', task({ summary: 'two\nlines' }))).body.errors.summary).toMatch(/newline/);
      expect((await t.as('assigner').post('/issue', { fields: { issuetype: { name: 'Task' }, summary: 'x' } })).body.errors.project).toBeDefined();
      expect((await t.as('assigner').post('/issue', {})).status).toBe(400);
      const hidden = await t.as('assigner').post('/issue', { fields: { project: { key: 'SEC' }, issuetype: { name: 'Task' }, summary: 'x' } });
      expect(hidden.status).toBe(400);
      expect(hidden.body.errors.project).toBeDefined();
    });

    it('the assignee must be a project member who may be assigned, else 400', async () => {
      const viewer = await t.as('assigner').post('/issue', task({ assignee: { accountId: ids.viewer } }));
      expect(viewer.status).toBe(400);
      expect(viewer.body.errors.assignee).toMatch(/cannot be assigned/);
      const nobody = await t.as('assigner').post('/issue', task({ assignee: { accountId: 'no-such-account' } }));
      expect(nobody.status).toBe(400);
      const outsider = (await t.as('outsider').get('/myself')).body.accountId;
      expect((await t.as('assigner').post('/issue', task({ assignee: { accountId: outsider } }))).status).toBe(400);
    });

    it('ARCHITECTURE §5: a viewer may not create (403); the reporter may be set on create only by an admin', async () => {
      expect((await t.as('viewer').post('/issue', task())).status).toBe(403);
      expect((await t.as('executor').post('/issue', task({ reporter: { accountId: ids.reviewer } }))).status).toBe(403);
      const r = await t.as('assigner').post('/issue', task({ reporter: { accountId: ids.reviewer } }));
      const got = await t.as('assigner').get(`/issue/${r.body.key}?fields=reporter,creator`);
      expect(got.body.fields.reporter.accountId).toBe(ids.reviewer);
      expect(got.body.fields.creator.accountId).toBe(ids.assigner);
    });
  });

  describe('spec §4 endpoint 5: read with fields', () => {
    it('honours a comma list, *all, *navigable and -name exclusions', async () => {
      const key = await createIssue(t, 'assigner', {});
      await t.as('assigner').post(`/issue/${key}/comment`, { body: adf('hello') });
      const some = await t.as('assigner').get(`/issue/${key}?fields=summary,status`);
      expect(Object.keys(some.body.fields).sort()).toEqual(['status', 'summary']);
      const all = await t.as('assigner').get(`/issue/${key}?fields=*all`);
      expect(all.body.fields.comment.comments).toHaveLength(1);
      const dflt = await t.as('assigner').get(`/issue/${key}`);
      expect(Object.keys(dflt.body.fields).sort()).toEqual(Object.keys(all.body.fields).sort());
      const nav = await t.as('assigner').get(`/issue/${key}?fields=*navigable`);
      expect('comment' in nav.body.fields).toBe(false);
      expect(nav.body.fields.summary).toBe('A task');
      const minus = await t.as('assigner').get(`/issue/${key}?fields=*all,-comment,-description`);
      expect('comment' in minus.body.fields || 'description' in minus.body.fields).toBe(false);
      const repeated = await t.as('assigner').get(`/issue/${key}?fields=summary&fields=status`);
      expect(Object.keys(repeated.body.fields).sort()).toEqual(['status', 'summary']);
    });

    it('the executor and reviewer field sets (spec §4 endpoint 5)', async () => {
      const key = await createIssue(t, 'assigner', { assignee: { accountId: ids.executor } });
      const exec = await t.as('executor').get(`/issue/${key}?fields=summary,description,issuetype,status,parent,subtasks,comment`);
      expect(Object.keys(exec.body.fields).sort()).toEqual(['comment', 'description', 'issuetype', 'status', 'subtasks', 'summary']);
      const rev = await t.as('reviewer').get(`/issue/${key}?fields=summary,description,issuetype,status,parent,subtasks`);
      expect('comment' in rev.body.fields).toBe(false);
    });

    it('spec §2 / client rule 8: assignee.emailAddress only when the issue is assigned to the caller', async () => {
      const key = await createIssue(t, 'assigner', { assignee: { accountId: ids.executor } });
      const mine = await t.as('executor').get(`/issue/${key}?fields=assignee`);
      expect(mine.body.fields.assignee).toMatchObject({ accountId: ids.executor, emailAddress: EMAILS.executor });
      const theirs = await t.as('assigner').get(`/issue/${key}?fields=assignee`);
      expect(theirs.body.fields.assignee.accountId).toBe(ids.executor);
      expect('emailAddress' in theirs.body.fields.assignee).toBe(false);
    });

    it('spec §7: a missing issue, or one the caller may not browse, is 404 alike', async () => {
      const key = await createIssue(t, 'assigner', {});
      const hidden = await t.as('outsider').get(`/issue/${key}`);
      const missing = await t.as('assigner').get('/issue/ABC-999999');
      expect(hidden.status).toBe(404);
      expect(missing.status).toBe(404);
      expect(hidden.body).toEqual(missing.body);
      expect((await t.as('assigner').get('/issue/NOPE-1')).status).toBe(404);
      expect((await t.as('assigner').get('/issue/not a key')).status).toBe(404);
    });
  });

  describe('spec §4 endpoint 14: edit', () => {
    it('edits summary, description and assignee with 204 and no body', async () => {
      const key = await createIssue(t, 'assigner', {});
      const r = await t.as('executor').put(`/issue/${key}`, { fields: { summary: 'Renamed', description: adf('new'), assignee: { accountId: ids.reviewer } } });
      expect(r.status).toBe(204);
      expect(r.text).toBe('');
      const got = await t.as('assigner').get(`/issue/${key}?fields=summary,description,assignee`);
      expect(got.body.fields.summary).toBe('Renamed');
      expect(got.body.fields.description).toEqual(adf('new'));
      expect(got.body.fields.assignee.accountId).toBe(ids.reviewer);
    });

    it('returnIssue=true answers 200 with the issue', async () => {
      const key = await createIssue(t, 'assigner', {});
      const r = await t.as('assigner').put(`/issue/${key}?returnIssue=true&fields=summary`, { fields: { summary: 'Back' } });
      expect(r.status).toBe(200);
      expect(r.body.fields.summary).toBe('Back');
    });

    it('spec §2: changing the reporter needs admin (403 for a member); the creator never changes', async () => {
      const key = await createIssue(t, 'executor', {});
      expect((await t.as('executor').put(`/issue/${key}`, { fields: { reporter: { accountId: ids.reviewer } } })).status).toBe(403);
      expect((await t.as('assigner').put(`/issue/${key}`, { fields: { reporter: { accountId: ids.reviewer } } })).status).toBe(204);
      const creator = await t.as('assigner').put(`/issue/${key}`, { fields: { creator: { accountId: ids.reviewer } } });
      expect(creator.status).toBe(400);
      expect(creator.body.errors.creator).toBeDefined();
      const got = await t.as('assigner').get(`/issue/${key}?fields=reporter,creator`);
      expect(got.body.fields.reporter.accountId).toBe(ids.reviewer);
      expect(got.body.fields.creator.accountId).toBe(ids.executor);
    });

    it('a viewer gets 403, an outsider 404, a plain-string description 400; nothing is written', async () => {
      const key = await createIssue(t, 'assigner', { summary: 'Keep me' });
      expect((await t.as('viewer').put(`/issue/${key}`, { fields: { summary: 'x' } })).status).toBe(403);
      expect((await t.as('outsider').put(`/issue/${key}`, { fields: { summary: 'x' } })).status).toBe(404);
      const bad = await t.as('assigner').put(`/issue/${key}`, { fields: { summary: 'x', description: 'plain' } });
      expect(bad.status).toBe(400);
      expect(bad.body.errors.description).toMatch(/not valid ADF/);
      expect((await t.as('assigner').get(`/issue/${key}?fields=summary`)).body.fields.summary).toBe('Keep me');
    });
  });

  describe('spec §4 endpoint 13 / client rule 6: delete', () => {
    it('refuses a parent with sub-tasks unless deleteSubtasks=true, then deletes them all; reads give 404', async () => {
      const parent = await createIssue(t, 'assigner', {});
      const subs = [];
      for (let i = 0; i < 2; i++)
        subs.push((await t.as('assigner').post('/issue', task({ issuetype: { name: 'Subtask' }, parent: { key: parent } }))).body.key);
      const refused = await t.as('assigner').del(`/issue/${parent}`);
      expect(refused.status).toBe(400);
      expect(refused.body.errorMessages[0]).toMatch(/deleteSubtasks=true/);
      expect((await t.as('assigner').get(`/issue/${parent}`)).status).toBe(200);
      const ok = await t.as('assigner').del(`/issue/${parent}?deleteSubtasks=true`);
      expect(ok.status).toBe(204);
      expect(ok.text).toBe('');
      for (const key of [parent, ...subs]) expect((await t.as('assigner').get(`/issue/${key}`)).status).toBe(404);
    });

    it('spec §7: member and viewer get 403, an outsider 404; a bad deleteSubtasks value is 400', async () => {
      const key = await createIssue(t, 'assigner', {});
      expect((await t.as('executor').del(`/issue/${key}`)).status).toBe(403);
      expect((await t.as('viewer').del(`/issue/${key}`)).status).toBe(403);
      expect((await t.as('outsider').del(`/issue/${key}`)).status).toBe(404);
      expect((await t.as('assigner').del(`/issue/${key}?deleteSubtasks=yes`)).status).toBe(400);
      expect((await t.as('assigner').get(`/issue/${key}`)).status).toBe(200);
      expect((await t.as('assigner').del(`/issue/${key}`)).status).toBe(204);
      expect((await t.as('assigner').del(`/issue/${key}`)).status).toBe(404);
    });
  });
});
