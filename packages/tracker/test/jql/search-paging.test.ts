import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createIssue, startTestTracker, storeKinds, type TestTracker } from '../../../../test/support/tracker.js';
import { collect, searchFixture, type SearchFixture } from './fixture.js';

const DAY = 86_400_000;
const UNBOUNDED = 'Unbounded JQL queries are not allowed here. Please add a search restriction to your query.';

describe.each(await storeKinds())('spec §4 endpoint 15: /search/jql paging, permissions and fields (%s)', (kind) => {
  let fx: SearchFixture;
  beforeAll(async () => {
    fx = await searchFixture(kind);
  });
  afterAll(async () => {
    await fx?.close();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const keysOf = (ids: string[]) => ids.map((id) => fx.byId.get(id)!.key);
  const inProject = (key: string) =>
    [...fx.issues.values()]
      .filter((r) => r.fields.project.key === key)
      .map((r) => r.key)
      .sort();
  const firstPage = async (jql: string, maxResults = 3) => {
    const r = await fx.t.as('assigner').post('/search/jql', { jql, maxResults });
    expect(r.status).toBe(200);
    return r.body as { issues: { id: string }[]; nextPageToken?: string; isLast: boolean };
  };

  describe('nextPageToken paging', () => {
    it.each(['POST', 'GET'] as const)('%s: pages follow each other without gaps or repeats, in order', async (via) => {
      const jql = 'project in (ABC, RST) ORDER BY key';
      const whole = await collect(fx.t.as('assigner'), jql, { maxResults: 5000 });
      const paged = await collect(fx.t.as('assigner'), jql, { maxResults: 4, via });
      expect(whole.pages).toBe(1);
      expect(paged.ids).toEqual(whole.ids);
      expect(paged.pages).toBe(Math.ceil(whole.ids.length / 4));
      expect(new Set(paged.tokens).size).toBe(paged.tokens.length);
    });

    it('the default order (newest first, ties by id) pages the same way', async () => {
      const whole = await collect(fx.t.as('assigner'), 'project = ABC', { maxResults: 5000 });
      expect((await collect(fx.t.as('assigner'), 'project = ABC', { maxResults: 1 })).ids).toEqual(whole.ids);
    });

    it('the last page has isLast and no nextPageToken; the response has no total, startAt or maxResults', async () => {
      const page = await firstPage('project = RST', 50);
      expect(page.isLast).toBe(true);
      expect(Object.keys(page).sort()).toEqual(['isLast', 'issues']);
      const first = await firstPage('project = ABC');
      expect(first.isLast).toBe(false);
      expect(Object.keys(first).sort()).toEqual(['isLast', 'issues', 'nextPageToken']);
    });

    it('a token works for the same query spelled differently', async () => {
      const first = await firstPage('project = ABC ORDER BY key');
      const next = await fx.t.as('assigner').post('/search/jql', { jql: "PROJECT='ABC'  order by KEY", maxResults: 3, nextPageToken: first.nextPageToken });
      expect(next.status).toBe(200);
      expect(keysOf(next.body.issues.map((i: { id: string }) => i.id))).toEqual(
        inProject('ABC')
          .sort((a, b) => Number(a.split('-')[1]) - Number(b.split('-')[1]))
          .slice(3, 6),
      );
    });

    it('a token used with another jql is 400', async () => {
      const first = await firstPage('project = ABC ORDER BY key');
      const r = await fx.t.as('assigner').post('/search/jql', { jql: 'project = ABC ORDER BY key DESC', nextPageToken: first.nextPageToken });
      expect(r.status).toBe(400);
      expect(r.body.errorMessages[0]).toMatch(/^The nextPageToken belongs to a different search/);
    });

    it('a token is bound to the caller who got it', async () => {
      const first = await firstPage('project = ABC');
      const r = await fx.t.as('executor').post('/search/jql', { jql: 'project = ABC', nextPageToken: first.nextPageToken });
      expect(r.status).toBe(400);
    });

    it('a forged or altered token is 400, on POST and GET', async () => {
      const { nextPageToken } = await firstPage('project = ABC ORDER BY key');
      const [body, sig] = nextPageToken!.split('.');
      const payload = JSON.parse(Buffer.from(body!, 'base64url').toString());
      payload.a[1] = 0; // "start again after ABC-0": a different position, same signature
      const forged = `${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${sig}`;
      for (const token of [forged, `${body}.${sig!.slice(1)}`, 'not-a-token']) {
        const post = await fx.t.as('assigner').post('/search/jql', { jql: 'project = ABC ORDER BY key', nextPageToken: token });
        expect(post.status).toBe(400);
        expect(post.body.errorMessages[0]).toMatch(/^The nextPageToken is not valid/);
        const get = await fx.t.as('assigner').get(`/search/jql?${new URLSearchParams({ jql: 'project = ABC ORDER BY key', nextPageToken: token })}`);
        expect(get.status).toBe(400);
      }
    });

    it('a token expires 7 days after the search started', async () => {
      const { nextPageToken } = await firstPage('project = ABC');
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() + 7 * DAY + 60_000);
      const r = await fx.t.as('assigner').post('/search/jql', { jql: 'project = ABC', nextPageToken });
      expect(r.status).toBe(400);
      expect(r.body.errorMessages[0]).toMatch(/expired/);
    });

    it('relative dates keep the moment of the first page on later pages', async () => {
      const jql = 'created >= -1w ORDER BY key';
      const whole = await collect(fx.t.as('assigner'), jql, { maxResults: 5000 });
      const first = await firstPage(jql, 2);
      // Two days later, "-1w" on a fresh search would drop issues; the token keeps the first page's now.
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() + 2 * DAY);
      const rest = await collect(fx.t.as('assigner'), jql, { maxResults: 5000 });
      const next = await fx.t.as('assigner').post('/search/jql', { jql, maxResults: 5000, nextPageToken: first.nextPageToken });
      expect([...first.issues.map((i) => i.id), ...next.body.issues.map((i: { id: string }) => i.id)]).toEqual(whole.ids);
      expect(rest.ids.length).toBeLessThan(whole.ids.length);
    });
  });

  describe('results respect permissions; counts never leak', () => {
    it('a viewer sees ABC only, and its pages hold only what it may see', async () => {
      const all = await collect(fx.t.as('viewer'), 'created <= now()', { maxResults: 2 });
      expect(keysOf(all.ids).sort()).toEqual(inProject('ABC'));
      expect(all.pages).toBe(Math.ceil(inProject('ABC').length / 2));
    });

    it('the outsider sees SEC only', async () => {
      const all = await collect(fx.t.as('outsider'), 'created <= now() OR project = SEC', { maxResults: 5000 });
      expect(keysOf(all.ids)).toEqual(inProject('SEC'));
    });

    it('a project the caller cannot see is 400 "does not exist", exactly as an unknown one', async () => {
      const hidden = await fx.t.as('assigner').post('/search/jql', { jql: 'project = SEC' });
      const unknown = await fx.t.as('assigner').post('/search/jql', { jql: 'project = NOPE' });
      expect(hidden.status).toBe(400);
      expect(hidden.body).toEqual({ errorMessages: ["The value 'SEC' does not exist for the field 'project'."], errors: {} });
      expect(unknown.body.errorMessages[0]).toBe(hidden.body.errorMessages[0]!.replace('SEC', 'NOPE'));
      const viewer = await fx.t.as('viewer').post('/search/jql', { jql: 'project in (ABC, RST)' });
      expect(viewer.body.errorMessages).toEqual(["The value 'RST' does not exist for the field 'project'."]);
    });

    it('an issue key the caller cannot see is 400 as a missing one', async () => {
      const secKey = inProject('SEC')[0]!;
      const r = await fx.t.as('assigner').post('/search/jql', { jql: `key = ${secKey}` });
      expect(r.body.errorMessages).toEqual([`An issue with key '${secKey}' does not exist for field 'key'.`]);
      const missing = await fx.t.as('assigner').post('/search/jql', { jql: 'key = ABC-9999' });
      expect(missing.body.errorMessages).toEqual(["An issue with key 'ABC-9999' does not exist for field 'key'."]);
    });
  });

  describe('fields', () => {
    it('by default (and for fields=[id]) each issue is {id}', async () => {
      for (const body of [{ jql: 'project = RST' }, { jql: 'project = RST', fields: ['id'] }]) {
        const r = await fx.t.as('assigner').post('/search/jql', body);
        expect(r.body.issues.length).toBe(inProject('RST').length);
        for (const issue of r.body.issues) expect(Object.keys(issue)).toEqual(['id']);
      }
    });

    it.each([
      ['POST fields[]', (jql: string) => ({ method: 'POST' as const, body: { jql, fields: ['summary', 'status', 'assignee', 'parent'] } })],
      ['GET comma list', (jql: string) => ({ method: 'GET' as const, query: `jql=${encodeURIComponent(jql)}&fields=summary,status,assignee,parent` })],
      [
        'GET repeated',
        (jql: string) => ({ method: 'GET' as const, query: `jql=${encodeURIComponent(jql)}&fields=summary&fields=status&fields=assignee,parent` }),
      ],
    ])('with fields (%s), each issue is what GET /issue answers for those fields', async (_name, request) => {
      const jql = 'project = ABC and issuetype = Subtask';
      const req = request(jql);
      const r = req.method === 'POST' ? await fx.t.as('executor').post('/search/jql', req.body) : await fx.t.as('executor').get(`/search/jql?${req.query}`);
      expect(r.status).toBe(200);
      expect(r.body.issues.length).toBe(3);
      for (const issue of r.body.issues) {
        expect(issue).toEqual((await fx.t.as('executor').get(`/issue/${issue.key}?fields=summary,status,assignee,parent`)).body);
      }
    });

    it('*all renders as GET /issue does by default; key alone gives {expand, id, self, key, fields}', async () => {
      const all = await fx.t.as('assigner').post('/search/jql', { jql: 'project = RST', fields: ['*all'] });
      for (const issue of all.body.issues) expect(issue).toEqual((await fx.t.as('assigner').get(`/issue/${issue.id}`)).body);
      const key = await fx.t.as('assigner').post('/search/jql', { jql: 'project = RST', fields: ['key'] });
      expect(Object.keys(key.body.issues[0]).sort()).toEqual(['expand', 'fields', 'id', 'key', 'self']);
    });
  });

  describe('requests and errors', () => {
    it('both address forms and a scoped read token are served', async () => {
      expect((await fx.t.as('assigner', 'site').post('/search/jql', { jql: 'project = RST' })).body.issues.length).toBe(inProject('RST').length);
      expect((await fx.t.as('scopedRead').get('/search/jql?jql=project%3DABC')).status).toBe(200);
      expect((await fx.t.anonymous().post('/search/jql', { jql: 'project = ABC' })).status).toBe(401);
    });

    it('a JQL syntax error is 400 {errorMessages, errors:{}} quoting the token and its position', async () => {
      const r = await fx.t.as('assigner').post('/search/jql', { jql: 'project = ABC AND status = Done)' });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ errorMessages: ["Error in the JQL Query: Expecting either 'OR' or 'AND' but got ')'. (line 1, character 32)"], errors: {} });
    });

    it.each([[{}], [{ jql: '' }], [{ jql: 'order by key' }], [{ jql: null }]])('an unbounded query is 400 (%j)', async (body) => {
      const r = await fx.t.as('assigner').post('/search/jql', body);
      expect(r.status).toBe(400);
      expect(r.body.errorMessages).toEqual([UNBOUNDED]);
    });

    it('maxResults must be a positive integer', async () => {
      for (const maxResults of [0, -1, 2.5, '5']) {
        expect((await fx.t.as('assigner').post('/search/jql', { jql: 'project = ABC', maxResults })).status).toBe(400);
      }
      expect((await fx.t.as('assigner').get('/search/jql?jql=project%3DABC&maxResults=ten')).status).toBe(400);
    });

    it('a body field the vendor does not define, or of the wrong type, is 400; the others are accepted', async () => {
      expect((await fx.t.as('assigner').post('/search/jql', { jql: 'project = ABC', startAt: 5 })).body.errorMessages[0]).toMatch(
        /^Unrecognized field "startAt"/,
      );
      expect((await fx.t.as('assigner').post('/search/jql', { jql: 'project = ABC', fields: 'summary' })).status).toBe(400);
      const ok = await fx.t
        .as('assigner')
        .post('/search/jql', { jql: 'project = ABC', expand: 'names', properties: [], fieldsByKeys: false, reconcileIssues: [10001] });
      expect(ok.status).toBe(200);
    });
  });
});

describe.each(await storeKinds())('spec §4 endpoint 15: page sizes (%s)', (kind) => {
  let t: TestTracker;
  const COUNT = 120;
  beforeAll(async () => {
    t = await startTestTracker(kind);
    for (let i = 0; i < COUNT; i += 20) {
      await Promise.all(Array.from({ length: Math.min(20, COUNT - i) }, (_, j) => createIssue(t, 'assigner', { summary: `Item ${i + j}` })));
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  const page = (body: Record<string, unknown>) => t.as('assigner').post('/search/jql', { jql: 'project = ABC', ...body });

  it('50 issues by default', async () => {
    expect((await page({})).body.issues).toHaveLength(50);
  });

  it('up to 5000 when only id or key is asked for', async () => {
    for (const fields of [undefined, ['id'], ['key'], ['id', 'key']]) {
      const r = await page({ maxResults: 100000, ...(fields ? { fields } : {}) });
      expect(r.body.issues).toHaveLength(COUNT);
      expect(r.body.isLast).toBe(true);
    }
  });

  it('at most 100 when other fields are asked for', async () => {
    const r = await page({ maxResults: 1000, fields: ['summary'] });
    expect(r.body.issues).toHaveLength(100);
    expect(r.body.isLast).toBe(false);
    const rest = await page({ maxResults: 1000, fields: ['summary'], nextPageToken: r.body.nextPageToken });
    expect(rest.body.issues).toHaveLength(COUNT - 100);
    expect(rest.body.isLast).toBe(true);
  });
});
