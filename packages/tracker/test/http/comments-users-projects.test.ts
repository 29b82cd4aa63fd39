import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adf, createIssue, startTestTracker, storeKinds, type TestTracker } from '../../../../test/support/tracker.js';
import { EMAILS } from '../../../../test/support/seed.js';

describe.each(await storeKinds())('spec §4 comments, users and projects (%s)', (kind) => {
  let t: TestTracker;
  beforeAll(async () => {
    t = await startTestTracker(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('spec §4 endpoints 7 and 8: comments', () => {
    it('POST returns 201 with id, author and body; GET lists {startAt, maxResults, total, comments}', async () => {
      const key = await createIssue(t, 'assigner', {});
      const r = await t.as('assigner').post(`/issue/${key}/comment`, { body: adf('PR target branch: feature/x Worktree: /w') });
      expect(r.status).toBe(201);
      expect(r.body.author.emailAddress).toBe(EMAILS.assigner);
      expect(r.body.body).toEqual(adf('PR target branch: feature/x Worktree: /w'));
      expect(r.body.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+0000$/);
      const list = await t.as('executor').get(`/issue/${key}/comment`);
      expect(list.status).toBe(200);
      expect(list.body).toMatchObject({ startAt: 0, maxResults: 100, total: 1 });
      expect(list.body.comments[0].id).toBe(r.body.id);
      expect('emailAddress' in list.body.comments[0].author).toBe(false);
      expect('values' in list.body || 'isLast' in list.body).toBe(false);
    });

    it('pages with startAt/maxResults and orders by created, +created or -created', async () => {
      const key = await createIssue(t, 'assigner', {});
      for (let i = 1; i <= 5; i++) await t.as('executor').post(`/issue/${key}/comment`, { body: adf(`c${i}`) });
      const page = await t.as('assigner').get(`/issue/${key}/comment?startAt=1&maxResults=2`);
      expect(page.body).toMatchObject({ startAt: 1, maxResults: 2, total: 5 });
      expect(page.body.comments.map((c: any) => c.body.content[0].content[0].text)).toEqual(['c2', 'c3']);
      const desc = await t.as('assigner').get(`/issue/${key}/comment?orderBy=-created&maxResults=1`);
      expect(desc.body.comments[0].body.content[0].content[0].text).toBe('c5');
      expect((await t.as('assigner').get(`/issue/${key}/comment?orderBy=author`)).status).toBe(400);
      // jira.js's string form sends `false` for parameters it left out
      const quirk = await t.as('assigner').get(`/issue/${key}/comment?startAt=false&maxResults=false&orderBy=false&expand=false`);
      expect(quirk.body.total).toBe(5);
    });

    it('first pages of any size from 0 count every comment; the issue view shows each comment as GET …/comment does', async () => {
      const key = await createIssue(t, 'assigner', {});
      for (let i = 1; i <= 3; i++) await t.as('executor').post(`/issue/${key}/comment`, { body: adf(`first page ${i}`) });
      const two = await t.as('assigner').get(`/issue/${key}/comment?maxResults=2`);
      expect(two.body).toMatchObject({ startAt: 0, maxResults: 2, total: 3 });
      expect(two.body.comments.map((c: any) => c.body.content[0].content[0].text)).toEqual(['first page 1', 'first page 2']);
      const all = await t.as('assigner').get(`/issue/${key}/comment`);
      const view = await t.as('assigner').get(`/issue/${key}?fields=comment`);
      expect(view.body.fields.comment).toMatchObject({ maxResults: 3, total: 3, startAt: 0 });
      expect(view.body.fields.comment.comments).toEqual(all.body.comments);
    });

    it("spec §2: a comment author's emailAddress shows only to that author, in the issue view too, whoever reads first", async () => {
      const key = await createIssue(t, 'assigner', {});
      await t.as('executor').post(`/issue/${key}/comment`, { body: adf('mine') });
      for (const reader of ['assigner', 'executor', 'assigner', 'executor'] as const) {
        const view = await t.as(reader).get(`/issue/${key}?fields=comment`);
        const author = view.body.fields.comment.comments[0].author;
        if (reader === 'executor') expect(author.emailAddress).toBe(EMAILS.executor);
        else expect('emailAddress' in author).toBe(false);
      }
    });

    it('spec §7: a body that is not valid ADF is 400 {errors:{body}}; nothing is written', async () => {
      const key = await createIssue(t, 'assigner', {});
      const r = await t.as('assigner').post(`/issue/${key}/comment`, { body: 'just text' });
      expect(r.status).toBe(400);
      expect(r.body.errors.body).toMatch(
        /^The field value is not valid Atlassian Document Format \(ADF\) content\. The value of 'body' is not valid ADF: a plain string was sent\./,
      );
      expect((await t.as('assigner').post(`/issue/${key}/comment`, {})).status).toBe(400);
      expect((await t.as('assigner').get(`/issue/${key}/comment`)).body.total).toBe(0);
    });

    it('a viewer may comment; an outsider gets 404 for reading and writing', async () => {
      const key = await createIssue(t, 'assigner', {});
      expect((await t.as('viewer').post(`/issue/${key}/comment`, { body: adf('seen') })).status).toBe(201);
      expect((await t.as('outsider').post(`/issue/${key}/comment`, { body: adf('x') })).status).toBe(404);
      expect((await t.as('outsider').get(`/issue/${key}/comment`)).status).toBe(404);
    });
  });

  describe("Jira's updateComment: PUT /issue/{key}/comment/{id}, by the comment's author only", () => {
    const texts = async (key: string) =>
      ((await t.as('assigner').get(`/issue/${key}/comment`)).body.comments as { body: unknown }[]).map((c) => JSON.stringify(c.body));

    it('its author rewrites the body: 200 with the comment (same id, created kept, updated set); the list shows the new body, no new comment', async () => {
      const key = await createIssue(t, 'assigner', {});
      const posted = (await t.as('reviewer').post(`/issue/${key}/comment`, { body: adf('Review tally\nABC-2: no verdict yet') })).body;
      const r = await t.as('reviewer').put(`/issue/${key}/comment/${posted.id}`, { body: adf('Review tally\nABC-2: APPROVED — ok') });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ id: posted.id, self: posted.self, created: posted.created, body: adf('Review tally\nABC-2: APPROVED — ok') });
      expect(r.body.author.emailAddress).toBe(EMAILS.reviewer);
      expect(r.body.updated >= posted.updated).toBe(true);
      expect(await texts(key)).toEqual([JSON.stringify(adf('Review tally\nABC-2: APPROVED — ok'))]);
      // The issue view shows the same, also when it was read (and perhaps kept) before the edit.
      expect((await t.as('assigner').get(`/issue/${key}?fields=comment`)).body.fields.comment.comments[0].body).toEqual(
        adf('Review tally\nABC-2: APPROVED — ok'),
      );
    });

    it("someone else's comment: 403 for a member who can see it, 404 for a non-member (spec §7 masking); nothing changes", async () => {
      const key = await createIssue(t, 'assigner', {});
      const posted = (await t.as('reviewer').post(`/issue/${key}/comment`, { body: adf('mine') })).body;
      const before = await texts(key);
      const other = await t.as('assigner').put(`/issue/${key}/comment/${posted.id}`, { body: adf('not yours') });
      expect(other.status).toBe(403);
      expect(other.body.errorMessages[0]).toMatch(/only your own comments/);
      expect((await t.as('outsider').put(`/issue/${key}/comment/${posted.id}`, { body: adf('not yours') })).status).toBe(404);
      expect(await texts(key)).toEqual(before);
    });

    it("a comment id that is not one of this issue's: 404 in Jira's words; a bad body: 400; nothing changes", async () => {
      const key = await createIssue(t, 'assigner', {});
      const elsewhere = await createIssue(t, 'assigner', {});
      const posted = (await t.as('reviewer').post(`/issue/${key}/comment`, { body: adf('kept') })).body;
      const before = await texts(key);
      const onOther = await t.as('reviewer').put(`/issue/${elsewhere}/comment/${posted.id}`, { body: adf('x') });
      expect(onOther.status).toBe(404);
      expect(onOther.body.errorMessages).toEqual([`Can not find a comment for the id: ${posted.id}.`]);
      for (const id of ['99999999', '0', 'abc', '1e3']) {
        const r = await t.as('reviewer').put(`/issue/${key}/comment/${id}`, { body: adf('x') });
        expect(r.status, id).toBe(404);
        expect(r.body.errorMessages[0]).toMatch(/^Can not find a comment for the id: /);
      }
      expect((await t.as('reviewer').put(`/issue/${key}/comment/${posted.id}`, {})).status).toBe(400);
      expect((await t.as('reviewer').put(`/issue/${key}/comment/${posted.id}`, { body: 'plain text is not ADF' })).status).toBe(400);
      expect(
        (await t.as('reviewer').put(`/issue/${key}/comment/${posted.id}`, { body: adf('x'), visibility: { type: 'role', value: 'Developers' } })).status,
      ).toBe(400);
      expect(await texts(key)).toEqual(before);
    });
  });

  describe("spec §4 rule 19: Jira's getComment, GET /issue/{key}/comment/{id}", () => {
    it('spec §4 rule 19: 200 with the comment as GET …/comment lists it, by key or id, in both address forms; emailAddress only for its author', async () => {
      const key = await createIssue(t, 'assigner', {});
      await t.as('assigner').post(`/issue/${key}/comment`, { body: adf('first') });
      const posted = (await t.as('reviewer').post(`/issue/${key}/comment`, { body: adf('Review tally\nABC-2: APPROVED') })).body;
      const listed = (await t.as('executor').get(`/issue/${key}/comment`)).body.comments[1];
      const got = await t.as('executor').get(`/issue/${key}/comment/${posted.id}`);
      expect(got.status).toBe(200);
      expect(got.body).toEqual(listed);
      expect(got.body.body).toEqual(adf('Review tally\nABC-2: APPROVED'));
      expect('emailAddress' in got.body.author).toBe(false);
      expect((await t.as('reviewer').get(`/issue/${key}/comment/${posted.id}`)).body.author.emailAddress).toBe(EMAILS.reviewer);
      const issueId = (await t.as('executor').get(`/issue/${key}?fields=summary`)).body.id;
      expect((await t.as('executor').get(`/issue/${issueId}/comment/${posted.id}`)).body).toEqual(listed);
      const site = await t.as('executor', 'site').get(`/issue/${key}/comment/${posted.id}`);
      expect(site.status).toBe(200);
      expect(site.body.id).toBe(posted.id);
      // The vendor's `expand` (renderedBody) is accepted, without effect; a viewer and a read-scoped token may read.
      expect((await t.as('viewer').get(`/issue/${key}/comment/${posted.id}?expand=renderedBody`)).body).toEqual(listed);
      expect((await t.as('scopedRead').get(`/issue/${key}/comment/${posted.id}`)).status).toBe(200);
      // An edit shows in the next read.
      await t.as('reviewer').put(`/issue/${key}/comment/${posted.id}`, { body: adf('rewritten') });
      expect((await t.as('executor').get(`/issue/${key}/comment/${posted.id}`)).body.body).toEqual(adf('rewritten'));
    });

    it("spec §4 rule 19: a comment id that is not one of this issue's is 404 in Jira's words; an issue the caller cannot see is 404 (spec §7), without credentials 401", async () => {
      const key = await createIssue(t, 'assigner', {});
      const elsewhere = await createIssue(t, 'assigner', {});
      const posted = (await t.as('executor').post(`/issue/${key}/comment`, { body: adf('here') })).body;
      const onOther = await t.as('executor').get(`/issue/${elsewhere}/comment/${posted.id}`);
      expect(onOther.status).toBe(404);
      expect(onOther.body.errorMessages).toEqual([`Can not find a comment for the id: ${posted.id}.`]);
      for (const id of ['99999999', '0', 'abc', '1e3']) {
        const r = await t.as('executor').get(`/issue/${key}/comment/${id}`);
        expect(r.status, id).toBe(404);
        expect(r.body.errorMessages[0]).toMatch(/^Can not find a comment for the id: /);
      }
      const hidden = await t.as('outsider').get(`/issue/${key}/comment/${posted.id}`);
      expect(hidden.status).toBe(404);
      expect(hidden.body.errorMessages.join(' ')).toMatch(/Issue does not exist or you do not have permission to see it/);
      const missing = await t.as('executor').get(`/issue/ABC-999999/comment/${posted.id}`);
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual(hidden.body);
      const anonymous = await t.anonymous().get(`/issue/${key}/comment/${posted.id}`);
      expect(anonymous.status).toBe(401);
      // A scoped token works through the gateway only (spec §5).
      expect((await t.as('scopedRead', 'site').get(`/issue/${key}/comment/${posted.id}`)).status).toBe(401);
    });

    it('spec §4 rule 10: a comment id over 50 characters is 400 naming it; nothing is read', async () => {
      const key = await createIssue(t, 'assigner', {});
      const r = await t.as('executor').get(`/issue/${key}/comment/${'1'.repeat(51)}`);
      expect(r.status).toBe(400);
      expect(JSON.stringify(r.body)).toMatch(/\bid\b/);
    });
  });

  describe("Jira's updateComment under races: edits against each other and against a delete end in 200 or 404, never 500", () => {
    it("ten edits at once: each 200, and the comment holds one of them whole; edits racing the issue's delete: 200 or 404", async () => {
      const key = await createIssue(t, 'assigner', {});
      const posted = (await t.as('reviewer').post(`/issue/${key}/comment`, { body: adf('v0') })).body;
      const edits = await Promise.all(
        Array.from({ length: 10 }, (_, i) => t.as('reviewer').put(`/issue/${key}/comment/${posted.id}`, { body: adf(`v${i + 1}`) })),
      );
      expect(edits.map((r) => r.status)).toEqual(Array(10).fill(200));
      const now = (await t.as('assigner').get(`/issue/${key}/comment`)).body.comments as { body: unknown }[];
      expect(now).toHaveLength(1);
      expect(Array.from({ length: 10 }, (_, i) => JSON.stringify(adf(`v${i + 1}`)))).toContain(JSON.stringify(now[0]!.body));

      const doomed = await createIssue(t, 'assigner', {});
      const c = (await t.as('reviewer').post(`/issue/${doomed}/comment`, { body: adf('before') })).body;
      const racing = await Promise.all([
        ...Array.from({ length: 5 }, () => t.as('reviewer').put(`/issue/${doomed}/comment/${c.id}`, { body: adf('during') })),
        t.as('assigner').del(`/issue/${doomed}`),
        ...Array.from({ length: 5 }, () => t.as('reviewer').put(`/issue/${doomed}/comment/${c.id}`, { body: adf('during') })),
      ]);
      for (const r of racing) expect([200, 204, 404]).toContain(r.status);
      expect((await t.as('assigner').get(`/issue/${doomed}`)).status).toBe(404);
    });
  });

  describe('spec §4 endpoints 2 and 9: users', () => {
    it('/myself gives accountId, displayName and emailAddress', async () => {
      const r = await t.as('executor').get('/myself');
      expect(r.body).toMatchObject({ displayName: 'Eve Executor', emailAddress: EMAILS.executor, active: true, accountType: 'atlassian' });
      expect(r.body.accountId).toMatch(/^[0-9a-f]{24}$/);
    });

    it('client rule 4: /user/search?query=<email> finds the user; accountIds are stable and opaque', async () => {
      const me = (await t.as('executor').get('/myself')).body.accountId;
      const r = await t.as('assigner').get(`/user/search?query=${encodeURIComponent(EMAILS.executor)}`);
      expect(r.status).toBe(200);
      expect(Array.isArray(r.body)).toBe(true);
      expect(r.body).toHaveLength(1);
      expect(r.body[0].accountId).toBe(me);
      expect(r.body[0].accountId).not.toContain('executor');
      const upper = await t.as('assigner').get(`/user/search?query=${encodeURIComponent(EMAILS.executor.toUpperCase())}`);
      expect(upper.body[0].accountId).toBe(me);
    });

    it('finds by display-name prefix and by accountId; needs exactly one of query/accountId', async () => {
      const byName = await t.as('assigner').get('/user/search?query=rey');
      expect(byName.body.map((u: any) => u.displayName)).toEqual(['Rey Reviewer']);
      const id = byName.body[0].accountId;
      expect((await t.as('assigner').get(`/user/search?accountId=${id}`)).body[0].displayName).toBe('Rey Reviewer');
      expect((await t.as('assigner').get('/user/search')).status).toBe(400);
      expect((await t.as('assigner').get(`/user/search?query=rey&accountId=${id}`)).status).toBe(400);
      expect((await t.as('assigner').get('/user/search?query=zzz-nobody')).body).toEqual([]);
      expect((await t.as('assigner').get('/user/search?query=%25')).body).toEqual([]);
    });
  });

  describe('spec §4 endpoints 3 and 4: projects', () => {
    it('client rule 2: /project/search lists only projects the caller is a member of, paged', async () => {
      const r = await t.as('assigner').get('/project/search');
      expect(r.body.values.map((p: any) => p.key)).toEqual(['ABC', 'RST']);
      expect(r.body).toMatchObject({ startAt: 0, maxResults: 50, total: 2, isLast: true });
      expect(r.body.values[0]).toMatchObject({ key: 'ABC', name: 'Alpha', projectTypeKey: 'software', style: 'classic' });
      const outsider = await t.as('outsider').get('/project/search');
      expect(outsider.body.values.map((p: any) => p.key)).toEqual(['SEC']);
      const page = await t.as('assigner').get('/project/search?maxResults=1');
      expect(page.body).toMatchObject({ total: 2, isLast: false });
      expect(page.body.nextPage).toContain('startAt=1');
      const next = await t.as('assigner').raw(page.body.nextPage.slice(t.api.length), {});
      expect(next.body.values.map((p: any) => p.key)).toEqual(['RST']);
    });

    it('query= filters by key or name; keys= picks exact keys; orderBy name and -key', async () => {
      expect((await t.as('assigner').get('/project/search?query=ABC')).body.values.map((p: any) => p.key)).toEqual(['ABC']);
      expect((await t.as('assigner').get('/project/search?query=restricted')).body.values.map((p: any) => p.key)).toEqual(['RST']);
      expect((await t.as('assigner').get('/project/search?query=SEC')).body.values).toEqual([]);
      expect((await t.as('assigner').get('/project/search?keys=RST')).body.values.map((p: any) => p.key)).toEqual(['RST']);
      expect((await t.as('assigner').get('/project/search?orderBy=-key')).body.values.map((p: any) => p.key)).toEqual(['RST', 'ABC']);
      expect((await t.as('assigner').get('/project/search?orderBy=bogus')).status).toBe(400);
    });

    it('/project/<KEY>/statuses: one entry per issue type, each with the workflow statuses', async () => {
      const r = await t.as('executor').get('/project/ABC/statuses');
      expect(r.body.map((x: any) => x.name)).toEqual(['Task', 'Subtask']);
      expect(r.body[0].statuses.map((s: any) => s.name)).toEqual(['To Do', 'In Progress', 'In Review', 'Done']);
      expect(r.body[0].statuses[0].statusCategory.key).toBe('new');
      const rst = await t.as('executor').get('/project/RST/statuses');
      expect(rst.body[0].statuses.map((s: any) => s.name)).toEqual(['Backlog', 'Doing', 'Checking', 'Finished']);
      expect((await t.as('executor').get('/project/SEC/statuses')).status).toBe(404);
      expect((await t.as('executor').get('/project/NOPE/statuses')).status).toBe(404);
    });
  });
});
