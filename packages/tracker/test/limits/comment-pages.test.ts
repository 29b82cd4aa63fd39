import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adf, createIssue, startTestTracker, storeKinds, type TestTracker } from '../../../../test/support/tracker.js';

/**
 * Issue 14 item 1: at most 5,000 comments per issue, and an issue with thousands of comments is
 * read a page at a time (the `comment` field and GET …/comment carry at most 100).
 */

const PAGE = 100;

/** Writes `n` comments on an issue straight into the store: the setup of a flood, not the thing tested. */
async function flood(t: TestTracker, key: string, n: number): Promise<void> {
  const { store } = t.server;
  const issue = await store.kysely.selectFrom('issues').select(['id', 'reporter_id']).where('key', '=', key).executeTakeFirstOrThrow();
  const now = new Date().toISOString();
  for (let start = 0; start < n; start += 500) {
    const rows = Array.from({ length: Math.min(500, n - start) }, (_, i) => ({
      issue_id: issue.id,
      author_id: issue.reporter_id,
      body: JSON.stringify(adf(`flood ${start + i}`)),
      created_at: now,
      updated_at: now,
    }));
    await store.kysely.insertInto('comments').values(rows).execute();
  }
}

const texts = (comments: any[]) => comments.map((c) => c.body.content[0].content[0].text);

describe.each(await storeKinds())('docs/limits.md: comments per issue and comment pages (%s)', (kind) => {
  let t: TestTracker;
  let full: string;
  beforeAll(async () => {
    t = await startTestTracker(kind);
    full = await createIssue(t, 'assigner', { summary: 'flooded' });
    await flood(t, full, 4_999);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('the 5,000th comment is accepted; the 5,001st is 400 with a clear message and is not written', async () => {
    const last = await t.as('viewer').post(`/issue/${full}/comment`, { body: adf('number 5000') });
    expect(last.status).toBe(201);
    const over = await t.as('viewer').post(`/issue/${full}/comment`, { body: adf('number 5001') });
    expect(over.status).toBe(400);
    expect(over.body).toEqual({
      errorMessages: [
        `The issue ${full} already has 5,000 comments, the most one issue may carry. Add the comment to another issue (for example a new sub-task).`,
      ],
      errors: {},
    });
    const newest = await t.as('assigner').get(`/issue/${full}/comment?orderBy=-created&maxResults=1`);
    expect(newest.body.total).toBe(5_000);
    expect(texts(newest.body.comments)).toEqual(['number 5000']);
  });

  it('GET issue carries the first 100 comments in the vendor shape {comments, maxResults, total, startAt, self}', async () => {
    const r = await t.as('assigner').get(`/issue/${full}?fields=comment`);
    expect(r.status).toBe(200);
    const { comment } = r.body.fields;
    expect(comment).toMatchObject({ maxResults: PAGE, total: 5_000, startAt: 0 });
    expect(comment.self).toMatch(new RegExp(`/rest/api/3/issue/\\d+/comment$`));
    expect(texts(comment.comments)).toEqual(Array.from({ length: PAGE }, (_, i) => `flood ${i}`));
  });

  it('a small issue keeps its whole comment list with maxResults = total', async () => {
    const key = await createIssue(t, 'assigner', {});
    await t.as('viewer').post(`/issue/${key}/comment`, { body: adf('only one') });
    const r = await t.as('assigner').get(`/issue/${key}?fields=comment`);
    expect(r.body.fields.comment).toMatchObject({ maxResults: 1, total: 1, startAt: 0 });
  });

  it('GET …/comment caps maxResults at 100 and pages on with startAt to the last comment', async () => {
    const capped = await t.as('assigner').get(`/issue/${full}/comment?maxResults=5000`);
    expect(capped.body).toMatchObject({ startAt: 0, maxResults: PAGE, total: 5_000 });
    expect(capped.body.comments).toHaveLength(PAGE);
    const tail = await t.as('assigner').get(`/issue/${full}/comment?startAt=4950&maxResults=100`);
    expect(tail.body).toMatchObject({ startAt: 4_950, total: 5_000 });
    expect(texts(tail.body.comments)).toEqual([...Array.from({ length: 49 }, (_, i) => `flood ${4_950 + i}`), 'number 5000']);
  });

  it('a search asking for comments carries at most 100 per issue', async () => {
    const r = await t.as('assigner').post('/search/jql', { jql: 'summary ~ "flooded"', fields: ['comment'] });
    expect(r.status).toBe(200);
    expect(r.body.issues).toHaveLength(1);
    expect(r.body.issues[0].fields.comment).toMatchObject({ maxResults: PAGE, total: 5_000, startAt: 0 });
    expect(r.body.issues[0].fields.comment.comments).toHaveLength(PAGE);
  });
});
