import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIssue, startTestTracker, storeKinds, type TestTracker } from '../../../../test/support/tracker.js';

/** What Jira Cloud reports for its system fields under `expand=names,schema`, written out by hand. */
const NAMES = {
  summary: 'Summary',
  description: 'Description',
  issuetype: 'Issue Type',
  project: 'Project',
  status: 'Status',
  parent: 'Parent',
  subtasks: 'Sub-tasks',
  assignee: 'Assignee',
  reporter: 'Reporter',
  creator: 'Creator',
  created: 'Created',
  updated: 'Updated',
  labels: 'Labels',
  comment: 'Comment',
};
const SCHEMA = {
  summary: { type: 'string', system: 'summary' },
  description: { type: 'string', system: 'description' },
  issuetype: { type: 'issuetype', system: 'issuetype' },
  project: { type: 'project', system: 'project' },
  status: { type: 'status', system: 'status' },
  parent: { type: 'issuelink', system: 'parent' },
  subtasks: { type: 'array', items: 'issuelinks', system: 'subtasks' },
  assignee: { type: 'user', system: 'assignee' },
  reporter: { type: 'user', system: 'reporter' },
  creator: { type: 'user', system: 'creator' },
  created: { type: 'datetime', system: 'created' },
  updated: { type: 'datetime', system: 'updated' },
  labels: { type: 'array', items: 'string', system: 'labels' },
  comment: { type: 'comments-page', system: 'comment' },
};
const only = <T>(table: Record<string, T>, keys: string[]) => Object.fromEntries(keys.map((k) => [k, table[k]!]));

describe.each(await storeKinds())('expand=names,schema on GET /issue and /search/jql (%s)', (kind) => {
  let t: TestTracker;
  let task: string;
  let subtask: string;
  beforeAll(async () => {
    t = await startTestTracker(kind);
    task = await createIssue(t, 'assigner', { summary: 'Parent task' });
    subtask = await createIssue(t, 'assigner', { issuetype: { name: 'Subtask' }, parent: { key: task }, summary: 'Child' });
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('GET /issue', () => {
    it('without expand there is neither names nor schema', async () => {
      const r = await t.as('assigner').get(`/issue/${task}`);
      expect(r.body).not.toHaveProperty('names');
      expect(r.body).not.toHaveProperty('schema');
    });

    it('expand=names,schema covers every field present on the issue (a task has no parent)', async () => {
      const r = await t.as('assigner').get(`/issue/${task}?expand=names,schema`);
      expect(r.status).toBe(200);
      const present = Object.keys(r.body.fields);
      expect(present).not.toContain('parent');
      expect(r.body.names).toEqual(only(NAMES, present));
      expect(r.body.schema).toEqual(only(SCHEMA, present));
    });

    it('names and schema follow the fields parameter; each comes only when asked for; other expands are ignored', async () => {
      const names = await t.as('assigner').get(`/issue/${subtask}?fields=summary,parent,assignee&expand=renderedFields,names,changelog`);
      expect(names.body.names).toEqual({ summary: 'Summary', parent: 'Parent', assignee: 'Assignee' });
      expect(names.body).not.toHaveProperty('schema');
      const schema = await t.as('assigner').get(`/issue/${subtask}?fields=status,created&expand=schema`);
      expect(schema.body.schema).toEqual({ status: SCHEMA.status, created: SCHEMA.created });
      expect(schema.body).not.toHaveProperty('names');
    });

    it('PUT /issue?returnIssue=true honours expand the same way', async () => {
      const r = await t.as('assigner').put(`/issue/${task}?returnIssue=true&fields=summary&expand=names`, { fields: { summary: 'Renamed task' } });
      expect(r.status).toBe(200);
      expect(r.body.fields).toEqual({ summary: 'Renamed task' });
      expect(r.body.names).toEqual({ summary: 'Summary' });
    });
  });

  describe('spec §4 endpoint 15: /search/jql', () => {
    const jql = 'project = ABC ORDER BY key';

    it.each(['POST', 'GET'] as const)('%s: expand "names,schema" gives names and schema of the returned fields', async (via) => {
      const fields = [
        'summary',
        'status',
        'assignee',
        'issuetype',
        'project',
        'parent',
        'description',
        'created',
        'updated',
        'subtasks',
        'comment',
        'reporter',
        'creator',
      ];
      const r =
        via === 'POST'
          ? await t.as('assigner').post('/search/jql', { jql, fields, expand: 'names,schema' })
          : await t.as('assigner').get(`/search/jql?jql=${encodeURIComponent(jql)}&fields=${fields.join(',')}&expand=names,schema`);
      expect(r.status).toBe(200);
      expect(r.body.issues).toHaveLength(2);
      // The sub-task carries `parent`, so the page does.
      expect(r.body.names).toEqual(only(NAMES, fields));
      expect(r.body.schema).toEqual(only(SCHEMA, fields));
      for (const issue of r.body.issues) {
        expect(issue).not.toHaveProperty('names');
        expect(issue).not.toHaveProperty('schema');
      }
    });

    it('expand with only one of them, or with other values, gives just that; none without expand', async () => {
      const names = await t.as('assigner').post('/search/jql', { jql, fields: ['summary'], expand: 'renderedFields, names ,changelog' });
      expect(names.body.names).toEqual({ summary: 'Summary' });
      expect(names.body).not.toHaveProperty('schema');
      const schema = await t.as('assigner').get(`/search/jql?jql=${encodeURIComponent(jql)}&fields=assignee&expand=schema&expand=operations`);
      expect(schema.body.schema).toEqual({ assignee: SCHEMA.assignee });
      expect(schema.body).not.toHaveProperty('names');
      const plain = await t.as('assigner').post('/search/jql', { jql, fields: ['summary'], expand: 'changelog' });
      expect(Object.keys(plain.body).sort()).toEqual(['isLast', 'issues']);
    });

    it('parent is named only when an issue of the page has one; ids only gives empty tables', async () => {
      const r = await t.as('assigner').post('/search/jql', { jql: `key = ${task}`, fields: ['summary', 'parent'], expand: 'names,schema' });
      expect(r.body.names).toEqual({ summary: 'Summary' });
      expect(r.body.schema).toEqual({ summary: SCHEMA.summary });
      const ids = await t.as('assigner').post('/search/jql', { jql, expand: 'names,schema' });
      expect(ids.body.issues[0]).toEqual({ id: expect.any(String) });
      expect(ids.body).toMatchObject({ names: {}, schema: {} });
    });

    it('an expand that is not a string is 400', async () => {
      const r = await t.as('assigner').post('/search/jql', { jql, expand: ['names'] });
      expect(r.status).toBe(400);
      expect(r.body.errorMessages).toEqual(["'expand' must be a comma-separated string."]);
    });
  });
});
