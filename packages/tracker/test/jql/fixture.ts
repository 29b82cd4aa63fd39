import { expect } from 'vitest';
import { adf, startTestTracker, type Client, type StoreKind, type TestTracker } from '../../../../test/support/tracker.js';

/** An issue as GET /issue (all fields) shows it to a caller who may see it. */
export interface IssueRecord {
  id: string;
  key: string;
  fields: any;
}

export interface SearchFixture {
  t: TestTracker;
  /** accountIds by role. */
  ids: Record<'assigner' | 'executor' | 'reviewer' | 'viewer' | 'outsider', string>;
  /** Every created issue, read back through GET /issue, by key. */
  issues: Map<string, IssueRecord>;
  byId: Map<string, IssueRecord>;
  close(): Promise<void>;
}

const DAY = 86_400_000;

/**
 * A tracker with issues in ABC, RST and SEC: assignees, a reporter set by an admin, a creator
 * other than the admin, sub-tasks, transitions, comments, and creation times spread over two
 * weeks (moved back in the store, the one thing the API cannot do). The expected result of every
 * query is computed from the GET /issue reads, never written down by hand.
 */
export async function searchFixture(kind: StoreKind): Promise<SearchFixture> {
  const t = await startTestTracker(kind);
  const ids = {} as SearchFixture['ids'];
  for (const who of ['assigner', 'executor', 'reviewer', 'viewer', 'outsider'] as const) ids[who] = (await t.as(who).get('/myself')).body.accountId;

  const create = async (who: 'assigner' | 'executor' | 'outsider', fields: Record<string, unknown>) => {
    const r = await t.as(who).post('/issue', { fields: { project: { key: 'ABC' }, issuetype: { name: 'Task' }, ...fields } });
    expect(r.status, r.text).toBe(201);
    return r.body.key as string;
  };
  const assignee = (who: keyof typeof ids | null) => (who ? { assignee: { accountId: ids[who] } } : {});
  const moveTo = async (key: string, status: string, who: 'assigner' | 'outsider' = 'assigner') => {
    const list = (await t.as(who).get(`/issue/${key}/transitions`)).body.transitions as { id: string; to: { name: string } }[];
    const id = list.find((x) => x.to.name === status)!.id;
    expect((await t.as(who).post(`/issue/${key}/transitions`, { transition: { id } })).status).toBe(204);
  };
  const comment = async (key: string, text: string) => {
    expect((await t.as('reviewer').post(`/issue/${key}/comment`, { body: adf(text) })).status).toBe(201);
  };

  const a1 = await create('assigner', { summary: 'Parser for the query language', description: adf('Tokenizer and grammar for JQL'), ...assignee('executor') });
  const a2 = await create('assigner', { summary: 'Login error on Safari', description: adf('The content type header is wrong'), ...assignee('reviewer') });
  const a3 = await create('executor', { summary: 'Write docs' });
  const a4 = await create('assigner', { summary: 'Release checklist', reporter: { accountId: ids.reviewer }, ...assignee('executor') });
  const sub = (parent: string, summary: string, who: keyof typeof ids | null) =>
    create('assigner', { issuetype: { name: 'Subtask' }, parent: { key: parent }, summary, ...assignee(who) });
  const s1 = await sub(a1, 'Lexer', 'executor');
  const s2 = await sub(a1, 'Parser tests', null);
  const s3 = await sub(a4, 'Checklist review', 'reviewer');
  const bulk: string[] = [];
  for (let n = 1; n <= 6; n++) {
    bulk.push(
      await create('assigner', {
        summary: `Bulk item ${n}`,
        description: adf(`Batch entry number ${n}`),
        ...assignee((['executor', null, 'reviewer'] as const)[n % 3]!),
      }),
    );
  }
  const r1 = await create('assigner', { project: { key: 'RST' }, summary: 'Restricted parser' });
  const r2 = await create('assigner', { project: { key: 'RST' }, summary: 'Restricted docs', ...assignee('executor') });
  const x1 = await create('outsider', { project: { key: 'SEC' }, summary: 'Secret parser' });

  await moveTo(a1, 'In Progress');
  await moveTo(a2, 'Done');
  await moveTo(a4, 'In Review');
  await moveTo(s1, 'In Review');
  await moveTo(s3, 'Done');
  await moveTo(bulk[1]!, 'Done');
  await moveTo(bulk[4]!, 'In Progress');
  await moveTo(r1, 'Doing');
  await comment(a1, 'Looks good so far');
  await comment(a2, 'Reproduced on macOS');

  // Creation times over two weeks, half an hour off whole days so no query boundary falls on one.
  const now = Date.now();
  const backdate = async (key: string, days: number) => {
    const created = new Date(now - days * DAY - 30 * 60_000);
    await t.server.store.kysely
      .updateTable('issues')
      .set({ created_at: created.toISOString(), updated_at: new Date(created.getTime() + 3_600_000).toISOString() })
      .where('key', '=', key)
      .execute();
  };
  for (const [i, days] of [1, 2, 4, 6, 9, 12].entries()) await backdate(bulk[i]!, days);
  await backdate(r2, 3);

  const issues = new Map<string, IssueRecord>();
  const keys = [a1, a2, a3, a4, s1, s2, s3, ...bulk, r1, r2];
  const all = (await Promise.all(keys.map((k) => t.as('assigner').get(`/issue/${k}`)))).map((r) => r.body);
  all.push((await t.as('outsider').get(`/issue/${x1}`)).body);
  for (const r of all) issues.set(r.key, r);
  return { t, ids, issues, byId: new Map([...issues.values()].map((r) => [r.id, r])), close: () => t.close() };
}

export interface Collected {
  ids: string[];
  pages: number;
  tokens: string[];
}

/** Follows nextPageToken to the end, through POST (body) or GET (query string). */
export async function collect(client: Client, jql: string, opts: { maxResults?: number; via?: 'POST' | 'GET' } = {}): Promise<Collected> {
  const out: Collected = { ids: [], pages: 0, tokens: [] };
  let token: string | undefined;
  for (;;) {
    const r =
      opts.via === 'GET'
        ? await client.get(
            `/search/jql?${new URLSearchParams({ jql, ...(opts.maxResults ? { maxResults: String(opts.maxResults) } : {}), ...(token ? { nextPageToken: token } : {}) })}`,
          )
        : await client.post('/search/jql', { jql, ...(opts.maxResults ? { maxResults: opts.maxResults } : {}), ...(token ? { nextPageToken: token } : {}) });
    expect(r.status, r.text).toBe(200);
    out.pages++;
    out.ids.push(...r.body.issues.map((i: { id: string }) => i.id));
    expect(r.body.isLast).toBe(r.body.nextPageToken === undefined);
    if (r.body.isLast) return out;
    expect(r.body.issues.length).toBe(opts.maxResults ?? 50);
    token = r.body.nextPageToken;
    out.tokens.push(token!);
    if (out.pages > 100) throw new Error('paging does not end');
  }
}

/** Jira's wire dates (`…+0000`) as milliseconds. */
export const ms = (jiraDate: string) => Date.parse(jiraDate.replace(/\+0000$/, 'Z'));
