import JiraApi from 'jira-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOUD_ID, credentialOf, EMAILS, type Who } from '../../../../test/support/seed.js';
import { startTestTracker, type TestTracker } from '../../../../test/support/tracker.js';
import { vendorProxy, type VendorProxy } from './vendor-proxy.js';

/**
 * Issue 15: the unmodified npm `jira-client` 8.2 (apiVersion 3) against a real tracker on the
 * embedded store, at the gateway form, through a proxy that checks every reply against the
 * vendor's OpenAPI. Calls the client does not wrap (paging /search/jql, delete with sub-tasks) go
 * through its own public makeUri / makeRequestHeader / doRequest, as its README suggests.
 */
const adf = (text: string) => ({ type: 'doc', version: 1, content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] });

/**
 * jira-client rejects a 4xx with Error(JSON.stringify(body)): the ErrorCollection is the message,
 * the status is not kept, so it is read from the proxy's log of the call (calls run one at a time).
 */
async function failure(proxy: VendorProxy, call: Promise<unknown>): Promise<{ statusCode: number; error: any }> {
  try {
    await call;
  } catch (e) {
    const last = proxy.calls[proxy.calls.length - 1]!;
    return { statusCode: Number(last.split(' ').pop()), error: JSON.parse((e as Error).message) };
  }
  throw new Error('expected the call to fail');
}

describe('jira-client 8.2 (apiVersion 3) against jst-tracker (sqlite)', () => {
  let t: TestTracker;
  let proxy: VendorProxy;
  const jira = (who: Who) => {
    const { email, token } = credentialOf(who);
    const url = new URL(proxy.url);
    return new JiraApi({
      protocol: 'http',
      host: url.hostname,
      port: url.port,
      base: `/ex/jira/${CLOUD_ID}`,
      username: email,
      password: token,
      apiVersion: '3',
      strictSSL: false,
    });
  };

  beforeAll(async () => {
    t = await startTestTracker('sqlite');
    proxy = await vendorProxy(t.url);
  });
  afterAll(async () => {
    await proxy?.close();
    await t?.close();
  });

  it('start-up and lookups: serverInfo, myself, fields, projects, project, statuses, priorities, issue types', async () => {
    const assigner = jira('assigner');
    expect((await assigner.getServerInfo()).deploymentType).toBe('Cloud');
    expect((await assigner.getCurrentUser()).emailAddress).toBe(EMAILS.assigner);
    expect((await assigner.listFields()).map((f: any) => f.id)).toEqual(expect.arrayContaining(['summary', 'status', 'assignee']));
    expect((await assigner.listProjects()).map((p: any) => p.key)).toEqual(['ABC', 'RST']);
    expect((await jira('viewer').listProjects()).map((p: any) => p.key)).toEqual(['ABC']);
    expect(await assigner.getProject('ABC')).toMatchObject({ key: 'ABC', name: 'Alpha', lead: { displayName: 'Ada Assigner' } });
    expect((await failure(proxy, jira('viewer').getProject('RST'))).statusCode).toBe(404);
    expect((await assigner.listStatus()).map((s: any) => s.name)).toEqual(expect.arrayContaining(['To Do', 'In Progress', 'Backlog']));
    expect((await assigner.listPriorities()).map((p: any) => p.name)).toContain('Medium');
    expect((await assigner.listIssueTypes()).map((i: any) => i.name)).toEqual(['Task', 'Subtask']);
  });

  it('create, get, comment add/list, transitions list/do, assign, search with paging, delete with sub-tasks', async () => {
    const assigner = jira('assigner');
    const executor = jira('executor');
    const parent = await assigner.addNewIssue({
      fields: { project: { key: 'ABC' }, issuetype: { name: 'Task' }, summary: 'From jira-client', description: adf('scope') },
    });
    const sub = await assigner.addNewIssue({
      fields: { project: { key: 'ABC' }, issuetype: { name: 'Subtask' }, summary: 'Its sub-task', parent: { key: parent.key } },
    });
    for (let i = 0; i < 3; i++) await assigner.addNewIssue({ fields: { project: { key: 'ABC' }, issuetype: { name: 'Task' }, summary: `Filler ${i}` } });
    const got = await assigner.findIssue(parent.key);
    expect(got.fields).toMatchObject({ summary: 'From jira-client', status: { name: 'To Do' }, subtasks: [{ key: sub.key }] });

    const comment = await executor.addComment(parent.key, adf('Task memory'));
    expect(comment.author.displayName).toBe('Eve Executor');
    expect((await assigner.getComments(parent.key)).comments.map((c: any) => c.id)).toEqual([comment.id]);
    const plain = await failure(proxy, executor.addComment(parent.key, 'plain text'));
    expect(plain.statusCode).toBe(400);
    expect(plain.error.errors.body).toMatch(/^The field value is not valid Atlassian Document Format \(ADF\) content\./);

    const { transitions } = await executor.listTransitions(parent.key);
    const start = transitions.find((tr: any) => tr.to.name === 'In Progress');
    await executor.transitionIssue(parent.key, { transition: { id: start.id } });
    expect((await assigner.findIssue(parent.key)).fields.status.name).toBe('In Progress');

    const [user] = await assigner.searchUsers({ query: EMAILS.executor });
    await assigner.updateAssigneeWithId(parent.key, user.accountId);
    expect((await assigner.findIssue(parent.key)).fields.assignee.displayName).toBe('Eve Executor');

    // searchJira posts to the removed /search: the vendor's 410. /search/jql pages with nextPageToken.
    const removed = await failure(proxy, assigner.searchJira('project = ABC'));
    expect(removed.statusCode).toBe(410);
    const keys: string[] = [];
    let nextPageToken: string | undefined;
    let pages = 0;
    do {
      const page = await assigner.doRequest(
        assigner.makeRequestHeader(assigner.makeUri({ pathname: '/search/jql' }), {
          method: 'POST',
          body: { jql: 'project = ABC ORDER BY key', maxResults: 2, fields: ['summary'], ...(nextPageToken ? { nextPageToken } : {}) },
        }),
      );
      keys.push(...page.issues.map((i: any) => i.key));
      nextPageToken = page.nextPageToken;
      pages++;
    } while (nextPageToken);
    expect(keys).toEqual(['ABC-1', 'ABC-2', 'ABC-3', 'ABC-4', 'ABC-5']);
    expect(pages).toBe(3);

    // deleteIssue sends no deleteSubtasks: a parent with a sub-task is refused; then with the flag.
    expect((await failure(proxy, assigner.deleteIssue(parent.key))).statusCode).toBe(400);
    await assigner.doRequest(
      assigner.makeRequestHeader(assigner.makeUri({ pathname: `/issue/${parent.key}`, query: { deleteSubtasks: 'True' } }), { method: 'DELETE' }),
    );
    for (const key of [parent.key, sub.key]) expect((await t.as('assigner').get(`/issue/${key}`)).status).toBe(404);
    const left = await t.as('assigner').get('/search/jql?jql=project%3DABC%20ORDER%20BY%20key&fields=summary');
    expect(left.body.issues.map((i: any) => i.key)).toEqual(['ABC-3', 'ABC-4', 'ABC-5']);
  });

  it("every JSON reply the client received matches the vendor's OpenAPI", () => {
    expect(proxy.checked).toBeGreaterThan(20);
    expect(proxy.violations).toEqual([]);
  });
});
