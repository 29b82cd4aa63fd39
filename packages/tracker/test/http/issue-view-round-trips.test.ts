import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adf, createIssue, startTestTracker, storeKinds, type TestTracker } from '../../../../test/support/tracker.js';

/**
 * ARCHITECTURE §19: on PostgreSQL, where a round trip is the cost, an uncached `GET /issue` is one
 * statement: the issue, its project and the reader's role, its first comments and their total, its
 * sub-tasks and its parent. Counted at the driver (every query a pg client sends is a round trip),
 * with the read cache off so every read is rendered from the database.
 */
const EXECUTOR_FIELDS = 'summary,description,issuetype,status,parent,subtasks,comment';
const postgres = (await storeKinds()).includes('postgres');

describe.skipIf(!postgres)('GET /issue on PostgreSQL: one round trip', () => {
  let t: TestTracker;
  let sent = 0;
  const query = pg.Client.prototype.query;

  beforeAll(async () => {
    t = await startTestTracker('postgres', undefined, { server: { readCacheBytes: 0 } });
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      sent++;
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof query;
  });
  afterAll(async () => {
    pg.Client.prototype.query = query;
    await t?.close();
  });

  /** The round trips of one read, after a first one (which may read the people and statuses it names once). */
  async function roundTrips(path: string): Promise<{ trips: number; body: any }> {
    expect((await t.as('executor').get(path)).status).toBe(200);
    const before = sent;
    const reply = await t.as('executor').get(path);
    expect(reply.status).toBe(200);
    return { trips: sent - before, body: reply.body };
  }

  it('an issue with sub-tasks and a full first page of comments, a sub-task with its parent, a bare issue: one each', async () => {
    const parent = await createIssue(t, 'assigner', { summary: 'Parent', description: adf('The parent') });
    const children = [
      await createIssue(t, 'assigner', { issuetype: { name: 'Subtask' }, parent: { key: parent }, summary: 'First child' }),
      await createIssue(t, 'assigner', { issuetype: { name: 'Subtask' }, parent: { key: parent }, summary: 'Second child' }),
    ];
    for (let i = 0; i < 3; i++) expect((await t.as('assigner').post(`/issue/${parent}/comment`, { body: adf(`comment ${i}`) })).status).toBe(201);
    const bare = await createIssue(t, 'assigner', { summary: 'Bare' });

    const withChildren = await roundTrips(`/issue/${parent}?fields=${EXECUTOR_FIELDS}`);
    expect(withChildren.trips).toBe(1);
    expect(withChildren.body.fields.subtasks.map((s: any) => s.key)).toEqual(children);
    expect(withChildren.body.fields.subtasks[1].fields.summary).toBe('Second child');
    expect(withChildren.body.fields.comment.total).toBe(3);

    // More comments than the first page holds (COMMENT_PAGE_MAX, 100): the total still comes with it.
    const busy = await createIssue(t, 'assigner', { summary: 'Busy' });
    for (let i = 0; i < 101; i++) expect((await t.as('assigner').post(`/issue/${busy}/comment`, { body: adf(`busy ${i}`) })).status).toBe(201);
    const paged = await roundTrips(`/issue/${busy}?fields=${EXECUTOR_FIELDS}`);
    expect(paged.trips).toBe(1);
    expect(paged.body.fields.comment.total).toBe(101);
    expect(paged.body.fields.comment.comments).toHaveLength(100);

    const child = await roundTrips(`/issue/${children[0]}?fields=${EXECUTOR_FIELDS}`);
    expect(child.trips).toBe(1);
    expect(child.body.fields.parent.key).toBe(parent);
    expect(child.body.fields.parent.fields.summary).toBe('Parent');

    const alone = await roundTrips(`/issue/${bare}?fields=${EXECUTOR_FIELDS}`);
    expect(alone.trips).toBe(1);
    expect(alone.body.fields.subtasks).toEqual([]);
    expect(alone.body.fields.comment).toMatchObject({ total: 0, comments: [] });
  });
});
