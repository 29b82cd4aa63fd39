import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adf, createIssue, startTestTracker, storeKinds, type TestTracker } from '../../../../test/support/tracker.js';
import { CLOUD_ID, EMAILS } from '../../../../test/support/seed.js';

/** Issue 15: what popular Jira clients call in normal use, answered in the vendor's shapes (validated by the helpers). */
describe.each(await storeKinds())('ARCHITECTURE §1: every popular Jira client works unchanged (%s)', (kind) => {
  let t: TestTracker;
  beforeAll(async () => {
    t = await startTestTracker(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('boolean query parameters in any case', () => {
    it('DELETE ?deleteSubtasks=True (python jira) deletes the parent with its sub-tasks; TRUE and true too', async () => {
      for (const value of ['True', 'TRUE', 'true']) {
        const parent = await createIssue(t, 'assigner', {});
        const sub = await createIssue(t, 'assigner', { issuetype: { name: 'Subtask' }, parent: { key: parent } });
        expect((await t.as('assigner').del(`/issue/${parent}?deleteSubtasks=${value}`)).status).toBe(204);
        expect((await t.as('assigner').get(`/issue/${sub}`)).status).toBe(404);
      }
    });

    it('deleteSubtasks=False refuses a parent with sub-tasks (400), as false does', async () => {
      const parent = await createIssue(t, 'assigner', {});
      await createIssue(t, 'assigner', { issuetype: { name: 'Subtask' }, parent: { key: parent } });
      expect((await t.as('assigner').del(`/issue/${parent}?deleteSubtasks=False`)).status).toBe(400);
      expect((await t.as('assigner').get(`/issue/${parent}`)).status).toBe(200);
    });

    it('a value that is not a boolean is 400 naming the parameter, on every route that takes one, and nothing is written', async () => {
      const key = await createIssue(t, 'assigner', {});
      const cases: [string, string, unknown?][] = [
        ['DELETE', `/issue/${key}?deleteSubtasks=yes`],
        ['PUT', `/issue/${key}?notifyUsers=maybe`, { fields: { summary: 'changed' } }],
        ['PUT', `/issue/${key}?returnIssue=1`, { fields: { summary: 'changed' } }],
        ['PUT', `/issue/${key}?overrideScreenSecurity=no`, { fields: { summary: 'changed' } }],
        ['PUT', `/issue/${key}?overrideEditableFlag=on`, { fields: { summary: 'changed' } }],
        ['POST', '/issue?updateHistory=x', { fields: { project: { key: 'ABC' }, issuetype: { name: 'Task' }, summary: 'not made' } }],
        ['GET', `/issue/${key}?updateHistory=yes`],
        ['GET', `/issue/${key}?fieldsByKeys=2`],
        ['GET', `/issue/${key}/transitions?includeUnavailableTransitions=t`],
        ['GET', `/issue/${key}/editmeta?overrideEditableFlag=nope`],
        ['GET', '/search/jql?jql=project%3DABC&failFast=yes'],
      ];
      const before = await t.as('assigner').get('/search/jql?jql=project%3DABC&maxResults=5000');
      for (const [method, path, body] of cases) {
        const name = /[?&](\w+)=[^&]*$/.exec(path)![1]!;
        const r = await t
          .as('assigner')
          .raw(path, { method, ...(body ? { body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } } : {}) });
        expect(r.status, `${method} ${path}`).toBe(400);
        expect(r.body.errorMessages[0]).toBe(`The '${name}' parameter must be true or false (got '${/=([^&]*)$/.exec(path)![1]}').`);
      }
      expect((await t.as('assigner').get(`/issue/${key}`)).body.fields.summary).toBe('A task');
      expect((await t.as('assigner').get('/search/jql?jql=project%3DABC&maxResults=5000')).body.issues).toEqual(before.body.issues);
    });

    it('PUT ?returnIssue=TRUE answers 200 with the issue; GET ?updateHistory=True is served', async () => {
      const key = await createIssue(t, 'assigner', {});
      const r = await t.as('assigner').put(`/issue/${key}?returnIssue=TRUE&notifyUsers=False`, { fields: { summary: 'Renamed' } });
      expect(r.status).toBe(200);
      expect(r.body.fields.summary).toBe('Renamed');
      expect((await t.as('assigner').get(`/issue/${key}?updateHistory=True&fieldsByKeys=FALSE`)).status).toBe(200);
    });
  });

  describe("error texts open with the vendor's own words", () => {
    it('a transition not available, an assignee who may not hold issues, an empty comment; nothing is written', async () => {
      const key = await createIssue(t, 'assigner', {});
      const transition = await t.as('assigner').post(`/issue/${key}/transitions`, { transition: { id: '999' } });
      expect(transition.status).toBe(400);
      expect(transition.body.errorMessages[0]).toMatch(/^Transition id '999' is not valid for this issue\. /);
      const viewer = (await t.as('viewer').get('/myself')).body.accountId;
      const assign = await t.as('assigner').put(`/issue/${key}/assignee`, { accountId: viewer });
      expect(assign.status).toBe(400);
      expect(Object.values(assign.body.errors)[0]).toMatch(/^User 'Vic Viewer' cannot be assigned issues\. /);
      const comment = await t.as('assigner').post(`/issue/${key}/comment`, { body: null });
      expect(comment.status).toBe(400);
      expect(comment.body.errors.body).toMatch(/^Comment body can not be empty! /);
      const after = (await t.as('assigner').get(`/issue/${key}`)).body.fields;
      expect([after.status.name, after.assignee, after.comment.total]).toEqual(['To Do', null, 0]);
    });
  });

  describe('address forms: /rest/api/latest and /rest/api/2', () => {
    const latest = (form: 'site' | 'gateway') => `${t.url}${form === 'gateway' ? `/ex/jira/${CLOUD_ID}` : ''}/rest/api/latest`;

    it.each(['site', 'gateway'] as const)('/rest/api/latest answers as /rest/api/3 on the %s form (assign, read, the same bytes)', async (form) => {
      const key = await createIssue(t, 'assigner', {});
      const base = form === 'gateway' ? t.api : t.siteApi;
      const auth = { Authorization: `Basic ${Buffer.from(`${EMAILS.assigner}:tok-assigner-7f3a9c`).toString('base64')}`, 'Content-Type': 'application/json' };
      const me = await fetch(`${base}/myself`, { headers: auth });
      const account = ((await me.json()) as { accountId: string }).accountId;
      const put = await fetch(`${latest(form)}/issue/${key}/assignee`, { method: 'PUT', headers: auth, body: JSON.stringify({ accountId: account }) });
      expect(put.status).toBe(204);
      const v3 = await t.as('assigner', form).get(`/issue/${key}`);
      expect(v3.body.fields.assignee.accountId).toBe(account);
      // Read three times: the third may come from the read cache; each must equal the v3 router's render.
      for (let i = 0; i < 3; i++) {
        const r = await fetch(`${latest(form)}/issue/${key}`, { headers: auth });
        expect(r.status).toBe(200);
        expect(await r.text()).toBe(v3.text);
      }
    });

    it.each(['site', 'gateway'] as const)('/rest/api/2 on the %s form is 404 saying version 3 is served, for any method, and writes nothing', async (form) => {
      const base = `${t.url}${form === 'gateway' ? `/ex/jira/${CLOUD_ID}` : ''}/rest/api/2`;
      const auth = { Authorization: `Basic ${Buffer.from(`${EMAILS.assigner}:tok-assigner-7f3a9c`).toString('base64')}`, 'Content-Type': 'application/json' };
      const before = (await t.as('assigner').get('/search/jql?jql=project%3DABC&maxResults=5000')).body.issues.length;
      for (const [method, path] of [
        ['GET', '/myself'],
        ['POST', '/issue'],
        ['GET', '/issue/ABC-1'],
        ['GET', ''],
      ] as const) {
        const r = await fetch(`${base}${path}`, {
          method,
          headers: auth,
          ...(method === 'POST' ? { body: JSON.stringify({ fields: { project: { key: 'ABC' }, issuetype: { name: 'Task' }, summary: 'v2' } }) } : {}),
        });
        expect(r.status, `${method} ${path}`).toBe(404);
        const body = (await r.json()) as { errorMessages: string[]; errors: object };
        expect(body.errorMessages[0]).toMatch(/^REST API version 2 is not served by jst-tracker: use \/rest\/api\/3/);
        expect(body.errors).toEqual({});
      }
      expect((await t.as('assigner').get('/search/jql?jql=project%3DABC&maxResults=5000')).body.issues.length).toBe(before);
    });
  });

  describe('start-up lookups: projects', () => {
    it('GET /project lists only the projects the caller may browse, as an array', async () => {
      expect((await t.as('executor').get('/project')).body.map((p: any) => p.key)).toEqual(['ABC', 'RST']);
      expect((await t.as('viewer').get('/project')).body.map((p: any) => p.key)).toEqual(['ABC']);
      expect((await t.as('outsider').get('/project')).body.map((p: any) => p.key)).toEqual(['SEC']);
      const expanded = await t.as('executor').get('/project?expand=description,lead,issueTypes');
      expect(expanded.body[0].lead.displayName).toBe('Ada Assigner');
      expect(expanded.body[0].issueTypes.map((i: any) => i.name)).toEqual(['Task', 'Subtask']);
    });

    it('GET /project/{key|id} gives the project with its lead and issue types', async () => {
      const byKey = await t.as('executor').get('/project/ABC');
      expect(byKey.status).toBe(200);
      expect(byKey.body).toMatchObject({ key: 'ABC', name: 'Alpha', lead: { displayName: 'Ada Assigner' }, components: [], versions: [] });
      expect(byKey.body.issueTypes.map((i: any) => i.name)).toEqual(['Task', 'Subtask']);
      const byId = await t.as('executor').get(`/project/${byKey.body.id}`);
      expect(byId.body.key).toBe('ABC');
    });

    it('GET /project/{key}: unknown 404, not visible 404 (the same answer), by id too', async () => {
      const unknown = await t.as('executor').get('/project/NOPE');
      expect(unknown.status).toBe(404);
      expect(unknown.body.errorMessages).toEqual(["No project could be found with key 'NOPE'."]);
      const hidden = await t.as('executor').get('/project/SEC');
      expect(hidden.status).toBe(404);
      expect(hidden.body.errorMessages).toEqual(["No project could be found with key 'SEC'."]);
      const secId = (await t.as('outsider').get('/project/SEC')).body.id;
      expect((await t.as('executor').get(`/project/${secId}`)).status).toBe(404);
    });

    it('GET /project/search pages with startAt/maxResults and nextPage', async () => {
      const first = await t.as('executor').get('/project/search?maxResults=1');
      expect(first.body).toMatchObject({ startAt: 0, maxResults: 1, total: 2, isLast: false });
      expect(first.body.values.map((p: any) => p.key)).toEqual(['ABC']);
      const next = await t
        .as('executor')
        .raw(new URL(first.body.nextPage).pathname.replace(/^.*\/rest\/api\/3/, '') + new URL(first.body.nextPage).search, { method: 'GET' });
      expect(next.body).toMatchObject({ startAt: 1, total: 2, isLast: true });
      expect(next.body.values.map((p: any) => p.key)).toEqual(['RST']);
      expect((await t.as('executor').get('/project/search?startAt=-1')).status).toBe(400);
    });

    it('GET /project/search narrows by id (a hidden or unknown id matches nothing) and expands lead and issue types', async () => {
      const abc = (await t.as('executor').get('/project/ABC')).body.id;
      const sec = (await t.as('outsider').get('/project/SEC')).body.id;
      expect((await t.as('executor').get(`/project/search?id=${abc}`)).body.values.map((p: any) => p.key)).toEqual(['ABC']);
      expect((await t.as('executor').get(`/project/search?id=${sec}`)).body).toMatchObject({ total: 0, values: [] });
      expect((await t.as('executor').get('/project/search?id=x')).body.total).toBe(0);
      const expanded = await t.as('executor').get('/project/search?keys=ABC&expand=lead,issueTypes');
      expect(expanded.body.values[0]).toMatchObject({ lead: { displayName: 'Ada Assigner' }, issueTypes: [{ name: 'Task' }, { name: 'Subtask' }] });
      expect('lead' in (await t.as('executor').get('/project/search?keys=ABC')).body.values[0]).toBe(false);
    });
  });

  describe('start-up lookups: statuses, categories, fields, priorities, issue types', () => {
    it("GET /status lists the statuses of the caller's projects' workflows, once each", async () => {
      const names = (await t.as('executor').get('/status')).body.map((s: any) => s.name);
      expect(new Set(names)).toEqual(new Set(['To Do', 'In Progress', 'In Review', 'Done', 'Backlog', 'Doing', 'Checking', 'Finished']));
      expect(names.length).toBe(8);
      expect((await t.as('viewer').get('/status')).body.map((s: any) => s.name)).not.toContain('Backlog');
    });

    it('GET /statuscategory lists the four categories with integer ids', async () => {
      const r = await t.as('viewer').get('/statuscategory');
      expect(r.body.map((c: any) => [c.id, c.key])).toEqual([
        [1, 'undefined'],
        [2, 'new'],
        [4, 'indeterminate'],
        [3, 'done'],
      ]);
    });

    it('GET /field lists the system fields with their JQL clause names; python jira maps names to ids from it', async () => {
      const fields = (await t.as('viewer').get('/field')).body as any[];
      const byId = Object.fromEntries(fields.map((f) => [f.id, f]));
      expect(byId.summary).toMatchObject({ name: 'Summary', custom: false, searchable: true, orderable: true, clauseNames: ['summary'] });
      expect(byId.issuetype.clauseNames).toEqual(['issuetype', 'type']);
      expect(byId.comment).toMatchObject({ navigable: false, searchable: false });
      expect(byId.issuekey.name).toBe('Key');
    });

    it('GET /priority and GET /issuetype', async () => {
      expect((await t.as('viewer').get('/priority')).body.map((p: any) => p.name)).toEqual(['Highest', 'High', 'Medium', 'Low', 'Lowest']);
      expect((await t.as('viewer').get('/issuetype')).body.map((i: any) => i.name)).toEqual(['Task', 'Subtask']);
    });
  });

  describe('single items the lists link to (their self URLs resolve)', () => {
    it('GET /status/{id|name}, /statuscategory/{id|key}, /priority/{id}, /issuetype/{id} follow the self links of the lists', async () => {
      for (const list of ['/status', '/statuscategory', '/priority', '/issuetype']) {
        for (const item of (await t.as('executor').get(list)).body as any[]) {
          const r = await t.as('executor').raw(new URL(item.self).pathname.replace(/^.*\/rest\/api\/3/, ''), { method: 'GET' });
          expect(r.status, item.self).toBe(200);
          expect(r.body).toEqual(item);
        }
      }
      expect((await t.as('executor').get('/status/in%20progress')).body.name).toBe('In Progress');
      expect((await t.as('executor').get('/statuscategory/done')).body.id).toBe(3);
    });

    it('unknown ids are 404; a status of a project the caller cannot see is 404; no project means no issue types', async () => {
      for (const path of ['/status/Nope', '/statuscategory/9', '/priority/9', '/issuetype/1']) {
        expect((await t.as('executor').get(path)).status, path).toBe(404);
      }
      expect((await t.as('viewer').get('/status/Backlog')).status).toBe(404);
      expect((await t.as('executor').get('/status/Backlog')).status).toBe(200);
      const lonely = await t.as('outsider').get('/issuetype');
      expect(lonely.body.map((i: any) => i.name)).toEqual(['Task', 'Subtask']);
    });

    it('GET /user?accountId= gives the user (the self link of every rendered user); missing 400, unknown 404', async () => {
      const me = (await t.as('executor').get('/myself')).body;
      const r = await t.as('assigner').raw(new URL(me.self).pathname.replace(/^.*\/rest\/api\/3/, '') + new URL(me.self).search, { method: 'GET' });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ accountId: me.accountId, displayName: 'Eve Executor' });
      expect('emailAddress' in r.body).toBe(false);
      expect((await t.as('assigner').get('/user')).status).toBe(400);
      expect((await t.as('assigner').get('/user?accountId=nobody')).status).toBe(404);
    });
  });

  describe('create and edit metadata', () => {
    it('createmeta issue types: paged, none for a viewer; unknown and hidden projects 404', async () => {
      const r = await t.as('executor').get('/issue/createmeta/ABC/issuetypes');
      expect(r.body).toMatchObject({ startAt: 0, maxResults: 50, total: 2 });
      expect(r.body.issueTypes.map((i: any) => i.name)).toEqual(['Task', 'Subtask']);
      const page = await t.as('executor').get('/issue/createmeta/ABC/issuetypes?startAt=1&maxResults=1');
      expect(page.body.issueTypes.map((i: any) => i.name)).toEqual(['Subtask']);
      expect((await t.as('viewer').get('/issue/createmeta/ABC/issuetypes')).body.total).toBe(0);
      expect((await t.as('executor').get('/issue/createmeta/NOPE/issuetypes')).status).toBe(404);
      expect((await t.as('executor').get('/issue/createmeta/SEC/issuetypes')).status).toBe(404);
      expect((await t.as('executor').get('/issue/createmeta/ABC/issuetypes?maxResults=x')).status).toBe(400);
    });

    it('createmeta fields of an issue type: what a create takes; the parent required for a sub-task; unknown type 404', async () => {
      const task = await t.as('executor').get('/issue/createmeta/ABC/issuetypes/10001');
      const required = task.body.fields.filter((f: any) => f.required).map((f: any) => f.fieldId);
      expect(required).toEqual(['project', 'issuetype', 'summary']);
      expect(task.body.fields.map((f: any) => f.fieldId)).not.toContain('reporter');
      const sub = await t.as('assigner').get('/issue/createmeta/ABC/issuetypes/10002');
      expect(sub.body.fields.filter((f: any) => f.required).map((f: any) => f.fieldId)).toContain('parent');
      expect(sub.body.fields.map((f: any) => f.fieldId)).toContain('reporter');
      expect((await t.as('executor').get('/issue/createmeta/ABC/issuetypes/99999')).status).toBe(404);
      expect((await t.as('executor').get('/issue/createmeta/SEC/issuetypes/10001')).status).toBe(404);
    });

    it('editmeta: the fields the caller may change; none for a viewer; 404 for a hidden or unknown issue', async () => {
      const key = await createIssue(t, 'assigner', { description: adf('d') });
      expect(Object.keys((await t.as('executor').get(`/issue/${key}/editmeta`)).body.fields)).toEqual(['summary', 'description', 'assignee']);
      expect(Object.keys((await t.as('assigner').get(`/issue/${key}/editmeta?overrideScreenSecurity=False`)).body.fields)).toContain('reporter');
      expect((await t.as('viewer').get(`/issue/${key}/editmeta`)).body.fields).toEqual({});
      expect((await t.as('outsider').get(`/issue/${key}/editmeta`)).status).toBe(404);
      expect((await t.as('executor').get('/issue/ABC-999999/editmeta')).status).toBe(404);
    });

    it('every lookup needs a signed-in caller (401)', async () => {
      for (const path of [
        '/project',
        '/project/ABC',
        '/status',
        '/status/Done',
        '/statuscategory',
        '/statuscategory/2',
        '/field',
        '/priority',
        '/priority/3',
        '/issuetype',
        '/issuetype/10001',
        '/issue/createmeta/ABC/issuetypes',
        '/user?accountId=x',
      ]) {
        expect((await t.anonymous().get(path)).status, path).toBe(401);
      }
    });
  });
});
