import { Version3Client } from 'jira.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertErrorCollection, assertMatchesVendorSchema } from '../../../../test/support/openapi.js';
import { CLOUD_ID, EMAILS, credentialOf, type Who } from '../../../../test/support/seed.js';
import { startTestTracker, storeKinds, type TestTracker } from '../../../../test/support/tracker.js';

/**
 * The real third-party client, unpatched: jira.js 5.x `Version3Client` with Basic auth, pointed at
 * the gateway form as the toolkit is. Every body it receives is checked against the vendor's
 * OpenAPI by an axios interceptor on the client's own instance (jira.js v5's `onResponse`
 * middleware is handed `response.data.data`, i.e. nothing useful).
 */

interface AxiosLike {
  interceptors: { response: { use(ok: (r: AxiosResponseLike) => AxiosResponseLike, fail: (e: unknown) => unknown): number } };
}
interface AxiosResponseLike {
  status: number;
  data: unknown;
  config: { method?: string; baseURL?: string; url?: string };
}

const adf = (text: string) => ({ type: 'doc', version: 1, content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] });
const textOf = (doc: unknown): string =>
  JSON.stringify(doc)
    .match(/"text":"([^"]*)"/g)
    ?.map((m) => m.slice(8, -1))
    .join('') ?? '';

describe.each(await storeKinds())('jira.js 5.x Version3Client against jst-tracker (%s)', (kind) => {
  let t: TestTracker;
  const violations: string[] = [];
  let checked = 0;

  /** A Version3Client for `who`, at the gateway form unless `host` is given. */
  function jira(who: Who, host = `${t.url}/ex/jira/${CLOUD_ID}`): Version3Client {
    const { email, token } = credentialOf(who);
    const client = new Version3Client({ host, authentication: { basic: { email, apiToken: token } } });
    const check = (r: AxiosResponseLike) => {
      const url = `${r.config.baseURL ?? ''}${r.config.url ?? ''}`;
      checked++;
      try {
        if (r.status >= 400) assertErrorCollection(r.data);
        else if (r.data !== '' && r.data !== undefined) assertMatchesVendorSchema((r.config.method ?? 'get').toUpperCase(), url, r.status, r.data);
      } catch (e) {
        violations.push((e as Error).message);
      }
    };
    (client as unknown as { instance: AxiosLike }).instance.interceptors.response.use(
      (r) => {
        check(r);
        return r;
      },
      (e) => {
        const r = (e as { response?: AxiosResponseLike }).response;
        if (r) check(r);
        return Promise.reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
    return client;
  }

  let assigner: Version3Client;
  let executor: Version3Client;
  let ids: { assigner: string; executor: string };

  beforeAll(async () => {
    t = await startTestTracker(kind);
    assigner = jira('assigner');
    executor = jira('executor');
    ids = { assigner: (await assigner.myself.getCurrentUser()).accountId, executor: (await executor.myself.getCurrentUser()).accountId };
  });
  afterAll(async () => {
    await t?.close();
    expect(checked, 'responses seen by the vendor-schema interceptor').toBeGreaterThan(50);
  });
  afterEach(() => {
    expect(violations.splice(0)).toEqual([]);
  });

  const createTask = async (client: Version3Client, summary: string, project = 'ABC') =>
    (await client.issues.createIssue({ fields: { project: { key: project }, issuetype: { name: 'Task' }, summary } })).key;

  it('spec §4 endpoint 2 / §5 rule 6: myself.getCurrentUser gives the caller’s accountId and emailAddress', async () => {
    const me = await assigner.myself.getCurrentUser();
    expect(me.emailAddress).toBe(EMAILS.assigner);
    expect(me.displayName).toBe('Ada Assigner');
    expect(me.accountId).toBe(ids.assigner);
    expect(me.self).toContain(`/ex/jira/${CLOUD_ID}/rest/api/3/user`);
  });

  it('spec §4 rule 2: projects.searchProjects with query finds the project by exact key', async () => {
    const page = await executor.projects.searchProjects({ query: 'ABC' });
    const abc = page.values.find((p) => p.key === 'ABC');
    expect(abc).toMatchObject({ key: 'ABC', name: 'Alpha', projectTypeKey: 'software', style: 'classic' });
    expect(page.isLast).toBe(true);
    const none = await executor.projects.searchProjects({ query: 'SEC' });
    expect(none.values.some((p) => p.key === 'SEC')).toBe(false);
  });

  it('spec §4 endpoint 4: projects.getAllStatuses lists the workflow’s status names', async () => {
    const types = await executor.projects.getAllStatuses('ABC');
    expect(types.length).toBeGreaterThan(0);
    for (const type of types) expect(type.statuses.map((s) => s.name)).toEqual(['To Do', 'In Progress', 'In Review', 'Done']);
    const rst = await executor.projects.getAllStatuses({ projectIdOrKey: 'RST' });
    expect(rst[0]!.statuses.map((s) => s.name)).toEqual(['Backlog', 'Doing', 'Checking', 'Finished']);
  });

  it('spec §4 rule 4: userSearch.findUsers by e-mail gives the accountId to assign to', async () => {
    const users = await assigner.userSearch.findUsers({ query: EMAILS.executor });
    expect(users[0]!.accountId).toBe(ids.executor);
    expect(users[0]!.emailAddress).toBeUndefined();
  });

  it('spec §4 rule 3 / rule 8: createIssue (ADF description, assignee) and a Subtask with parent.key; getIssue shows parent, subtasks, and emailAddress only to the assignee', async () => {
    const created = await assigner.issues.createIssue({
      fields: {
        project: { key: 'ABC' },
        issuetype: { name: 'Task' },
        summary: 'Parent via jira.js',
        description: adf('Scope: everything'),
        assignee: { accountId: ids.executor },
      },
    });
    expect(created.key).toMatch(/^ABC-\d+$/);
    expect(created.self).toContain(`/ex/jira/${CLOUD_ID}/rest/api/3/issue/${created.id}`);
    const sub = await assigner.issues.createIssue({
      fields: { project: { key: 'ABC' }, issuetype: { name: 'Subtask' }, summary: 'Child', parent: { key: created.key } },
    });

    const fields = ['summary', 'status', 'parent', 'subtasks', 'assignee', 'comment'];
    const byAssigner = await assigner.issues.getIssue({ issueIdOrKey: created.key, fields });
    expect(byAssigner.fields.summary).toBe('Parent via jira.js');
    expect(byAssigner.fields.status.name).toBe('To Do');
    expect(byAssigner.fields.parent).toBeUndefined();
    expect(byAssigner.fields.subtasks.map((s) => s.key)).toEqual([sub.key]);
    expect(byAssigner.fields.assignee?.accountId).toBe(ids.executor);
    expect(byAssigner.fields.assignee?.emailAddress).toBeUndefined();
    const byExecutor = await executor.issues.getIssue({ issueIdOrKey: created.key, fields });
    expect(byExecutor.fields.assignee?.emailAddress).toBe(EMAILS.executor);

    const child = await executor.issues.getIssue({ issueIdOrKey: sub.key, fields });
    expect(child.fields.parent?.key).toBe(created.key);
    expect(child.fields.subtasks).toEqual([]);
    expect(child.fields.assignee).toBeNull();
    const described = await executor.issues.getIssue({ issueIdOrKey: created.id, fields: ['description'] });
    expect(described.fields.description).toEqual(adf('Scope: everything'));
  });

  it('spec §4 endpoints 7/8: addComment with ADF and with a plain string (jira.js wraps it into ADF); getComments', async () => {
    const key = await createTask(assigner, 'Commented');
    const first = await assigner.issueComments.addComment({ issueIdOrKey: key, comment: adf('PR target branch: development Worktree: /w/x') });
    expect(first.author?.accountId).toBe(ids.assigner);
    const second = await executor.issueComments.addComment({ issueIdOrKey: key, comment: 'plain words' });
    expect(second.body).toEqual(adf('plain words'));

    const page = await executor.issueComments.getComments({ issueIdOrKey: key });
    expect(page.total).toBe(2);
    expect(page.comments!.map((c) => textOf(c.body))).toEqual(['PR target branch: development Worktree: /w/x', 'plain words']);
    expect(page.comments!.map((c) => c.author?.accountId)).toEqual([ids.assigner, ids.executor]);
    const issue = await executor.issues.getIssue({ issueIdOrKey: key, fields: ['comment'] });
    expect(issue.fields.comment.comments.map((c) => c.id)).toEqual([first.id, second.id]);
  });

  it("spec §4 rule 19: getComment reads one comment, with and without expand; another issue's comment id is 404", async () => {
    const key = await createTask(assigner, 'One comment');
    const posted = await assigner.issueComments.addComment({ issueIdOrKey: key, comment: adf('Review tally') });
    const got = await executor.issueComments.getComment({ issueIdOrKey: key, id: posted.id! });
    expect(got.id).toBe(posted.id);
    expect(textOf(got.body)).toBe('Review tally');
    expect(got.author?.accountId).toBe(ids.assigner);
    expect((await executor.issueComments.getComment({ issueIdOrKey: key, id: posted.id!, expand: 'renderedBody' })).id).toBe(posted.id);
    const other = await createTask(assigner, 'Another');
    await expect(executor.issueComments.getComment({ issueIdOrKey: other, id: posted.id! })).rejects.toMatchObject({ status: 404 });
  });

  it('spec §4 endpoint 10 / rule 7: assignIssue to an accountId and to null, confirmed by re-reading', async () => {
    const key = await createTask(assigner, 'Assign me');
    await assigner.issues.assignIssue({ issueIdOrKey: key, accountId: ids.executor });
    expect((await executor.issues.getIssue({ issueIdOrKey: key, fields: ['assignee'] })).fields.assignee?.accountId).toBe(ids.executor);
    await executor.issues.assignIssue({ issueIdOrKey: key, accountId: null });
    expect((await executor.issues.getIssue({ issueIdOrKey: key, fields: ['assignee'] })).fields.assignee).toBeNull();
  });

  it('spec §4 rule 5: getTransitions, pick by to.name, doTransition, re-read the status', async () => {
    const key = await createTask(assigner, 'Move me');
    const { transitions } = await executor.issues.getTransitions({ issueIdOrKey: key });
    const pick = transitions!.find((tr) => tr.to?.name === 'In Progress');
    expect(pick?.id).toBeTruthy();
    await executor.issues.doTransition({ issueIdOrKey: key, transition: { id: pick!.id! } });
    expect((await executor.issues.getIssue({ issueIdOrKey: key, fields: ['status'] })).fields.status.name).toBe('In Progress');
  });

  it('spec §4 rule 5: a transition is matched by its destination (to.name), not its own name (RST workflow)', async () => {
    const key = await createTask(assigner, 'Restricted', 'RST');
    const { transitions } = await executor.issues.getTransitions({ issueIdOrKey: key });
    expect(transitions!.some((tr) => tr.name === 'Doing')).toBe(false);
    const pick = transitions!.find((tr) => tr.to?.name === 'Doing');
    expect(pick?.name).toBe('Start work');
    await executor.issues.doTransition({ issueIdOrKey: key, transition: { id: pick!.id! } });
    expect((await executor.issues.getIssue({ issueIdOrKey: key, fields: ['status'] })).fields.status.name).toBe('Doing');
    // No route to Finished from Doing: the client finds no match and stops (spec §3: do not guess).
    const next = await executor.issues.getTransitions({ issueIdOrKey: key });
    expect(next.transitions!.find((tr) => tr.to?.name === 'Finished')).toBeUndefined();
  });

  it('spec §3 / §7: an invalid transition id, or one the workflow forbids from here, makes jira.js throw with status 400', async () => {
    const key = await createTask(assigner, 'Stay put', 'RST');
    await expect(executor.issues.doTransition({ issueIdOrKey: key, transition: { id: '999' } })).rejects.toMatchObject({ status: 400 });
    // Learn the id of "Approve" (Checking → Finished) on another issue, then use it from Backlog.
    const other = await createTask(assigner, 'Walk to Checking', 'RST');
    const move = async (to: string) => {
      const tr = (await executor.issues.getTransitions({ issueIdOrKey: other })).transitions!.find((x) => x.to?.name === to)!;
      await executor.issues.doTransition({ issueIdOrKey: other, transition: { id: tr.id! } });
    };
    await move('Doing');
    await move('Checking');
    const approve = (await executor.issues.getTransitions({ issueIdOrKey: other })).transitions!.find((tr) => tr.to?.name === 'Finished');
    expect(approve?.name).toBe('Approve');
    await expect(executor.issues.doTransition({ issueIdOrKey: key, transition: { id: approve!.id! } })).rejects.toMatchObject({ status: 400 });
    expect((await executor.issues.getIssue({ issueIdOrKey: key, fields: ['status'] })).fields.status.name).toBe('Backlog');
  });

  it('spec §4 rule 6 / §7: deleteIssue on a parent with sub-tasks is 400 without deleteSubtasks; with it both are gone (404)', async () => {
    const parent = await createTask(assigner, 'Delete me');
    const sub = await assigner.issues.createIssue({
      fields: { project: { key: 'ABC' }, issuetype: { name: 'Subtask' }, summary: 'Delete me too', parent: { key: parent } },
    });
    await expect(assigner.issues.deleteIssue({ issueIdOrKey: parent })).rejects.toMatchObject({ status: 400 });
    await expect(assigner.issues.deleteIssue({ issueIdOrKey: parent, deleteSubtasks: false })).rejects.toMatchObject({ status: 400 });
    expect((await assigner.issues.getIssue({ issueIdOrKey: sub.key, fields: ['summary'] })).key).toBe(sub.key);
    await assigner.issues.deleteIssue({ issueIdOrKey: parent, deleteSubtasks: true });
    await expect(assigner.issues.getIssue({ issueIdOrKey: parent })).rejects.toMatchObject({ status: 404 });
    await expect(assigner.issues.getIssue({ issueIdOrKey: sub.key })).rejects.toMatchObject({ status: 404 });
  });

  it('spec §7: a member may not delete (403) and a non-member sees 404, through jira.js', async () => {
    const key = await createTask(assigner, 'Guarded');
    await expect(executor.issues.deleteIssue({ issueIdOrKey: key })).rejects.toMatchObject({ status: 403 });
    await expect(jira('outsider').issues.getIssue({ issueIdOrKey: key })).rejects.toMatchObject({ status: 404 });
  });

  it('spec §5 rule 4: host = site form works for a classic token; a scoped token there is 401', async () => {
    const site = jira('executor', t.url);
    expect((await site.myself.getCurrentUser()).accountId).toBe(ids.executor);
    const key = await createTask(site, 'Via the site form');
    const issue = await site.issues.getIssue({ issueIdOrKey: key, fields: ['summary'] });
    expect(issue.self).toBe(`${t.url}/rest/api/3/issue/${issue.id}`);
    await expect(jira('scopedAll', t.url).myself.getCurrentUser()).rejects.toMatchObject({ status: 401 });
    expect((await jira('scopedAll').myself.getCurrentUser()).emailAddress).toBe('bot@acme.test');
  });

  it('ARCHITECTURE §1: the lookups — project, statuses, status categories, fields, priorities, issue types, create and edit metadata, server info', async () => {
    const project = await executor.projects.getProject({ projectIdOrKey: 'ABC' });
    expect(project).toMatchObject({ key: 'ABC', name: 'Alpha', lead: { accountId: ids.assigner } });
    await expect(jira('viewer').projects.getProject({ projectIdOrKey: 'RST' })).rejects.toMatchObject({ status: 404 });
    expect((await executor.workflowStatuses.getStatuses()).map((s) => s.name)).toEqual(expect.arrayContaining(['To Do', 'Done', 'Backlog', 'Finished']));
    expect((await executor.workflowStatusCategories.getStatusCategories()).map((c) => c.key)).toEqual(['undefined', 'new', 'indeterminate', 'done']);
    expect((await executor.issueFields.getFields()).find((f) => f.id === 'summary')).toMatchObject({ name: 'Summary', searchable: true });
    expect((await executor.issuePriorities.getPriorities()).find((p) => p.isDefault)?.name).toBe('Medium');
    expect((await executor.issueTypes.getIssueAllTypes()).map((i) => i.name)).toEqual(['Task', 'Subtask']);
    const types = await executor.issues.getCreateIssueMetaIssueTypes({ projectIdOrKey: 'ABC' });
    expect(types.issueTypes?.map((i) => i.name)).toEqual(['Task', 'Subtask']);
    const fields = await executor.issues.getCreateIssueMetaIssueTypeId({ projectIdOrKey: 'ABC', issueTypeId: types.issueTypes![0]!.id! });
    expect(fields.fields?.filter((f) => f.required).map((f) => f.fieldId)).toEqual(['project', 'issuetype', 'summary']);
    const key = await createTask(assigner, 'Edit metadata');
    expect(Object.keys((await executor.issues.getEditIssueMeta({ issueIdOrKey: key })).fields ?? {})).toEqual(['summary', 'description', 'assignee']);
    await expect(jira('outsider').issues.getEditIssueMeta({ issueIdOrKey: key })).rejects.toMatchObject({ status: 404 });
    expect((await executor.serverInfo.getServerInfo()).deploymentType).toBe('Cloud');
  });

  it('spec §7: a wrong token makes jira.js throw with status 401', async () => {
    const bad = new Version3Client({ host: `${t.url}/ex/jira/${CLOUD_ID}`, authentication: { basic: { email: EMAILS.assigner, apiToken: 'not-the-token' } } });
    await expect(bad.myself.getCurrentUser()).rejects.toMatchObject({ status: 401 });
  });
});
