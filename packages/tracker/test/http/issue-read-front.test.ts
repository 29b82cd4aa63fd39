import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adf, basic, createIssue, startTestTracker, storeKinds, type TestTracker } from '../../../../test/support/tracker.js';
import { EMAILS, TOKENS, type Who } from '../../../../test/support/seed.js';

/**
 * `GET /issue/{key}` answered before Fastify routes it (http/issue-read-front.ts). The oracle is
 * the same request with `Content-Length: 0`, which the front never takes (a body on a GET is
 * Fastify's to parse), so Fastify's route answers it: both must be the same bytes and headers.
 */
const FIELDS = 'summary,description,status,assignee,reporter,comment,subtasks,parent,issuetype,project,created,updated';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

function get(url: string, headers: Record<string, string>): Promise<Raw> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      let text = '';
      res
        .setEncoding('utf8')
        .on('data', (chunk: string) => {
          text += chunk;
        })
        .on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
    })
      .on('error', reject)
      .end();
  });
}

const authOf = (who: Exclude<Who, 'scopedRead' | 'scopedAll'>) => basic(EMAILS[who], TOKENS[who]);

/** A header set without the ones that differ between any two replies. */
const stable = (headers: Raw['headers']) => Object.fromEntries(Object.entries(headers).filter(([name]) => name !== 'date'));

describe.each(await storeKinds())('GET /issue answered before Fastify (%s)', (kind) => {
  let t: TestTracker;
  let executorId: string;
  const front = () => {
    const f = t.server.app.issueReadFront;
    if (!f) throw new Error('no read front on this server');
    return f;
  };
  /** A read, whether the front answered it (not from the cache), and Fastify's answer to the same read. */
  async function readBoth(url: string, headers: Record<string, string>) {
    const before = front().answered;
    const got = await get(url, headers);
    const answered = front().answered - before;
    const routed = await get(url, { ...headers, 'content-length': '0' });
    expect(front().answered - before).toBe(answered);
    return { got, routed, answered };
  }

  beforeAll(async () => {
    t = await startTestTracker(kind, undefined, { server: { readCacheBytes: 0 } });
    executorId = (await t.as('executor').get('/myself')).body.accountId;
    // Every role has signed in once: the front answers only callers whose sign-in is remembered.
    for (const who of ['assigner', 'reviewer', 'viewer', 'outsider'] as const) await t.as(who).get('/myself');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers a read byte for byte and header for header as the route does, in both address forms and served versions', async () => {
    const key = await createIssue(t, 'assigner', { description: adf('Front door — ünïcode'), assignee: { accountId: executorId } });
    await t.as('reviewer').post(`/issue/${key}/comment`, { body: adf('A comment') });
    const sub = (
      await t.as('assigner').post('/issue', { fields: { project: { key: 'ABC' }, parent: { key }, issuetype: { name: 'Subtask' }, summary: 'A sub-task' } })
    ).body.key as string;
    const bases = [t.api, t.siteApi, t.api.replace('/api/3', '/api/latest'), t.siteApi.replace('/api/3', '/api/latest')];
    for (const base of bases) {
      for (const path of [
        `/issue/${key}?fields=${FIELDS}`,
        `/issue/${sub}?fields=${FIELDS}&expand=names,schema`,
        `/issue/${key}`,
        `/issue/${(await t.as('executor').get(`/issue/${key}`)).body.id}?fields=summary&fields=comment`,
      ]) {
        for (const who of ['executor', 'reviewer'] as const) {
          const { got, routed, answered } = await readBoth(`${base}${path}`, { authorization: authOf(who) });
          expect(answered, `${base}${path}`).toBe(1);
          expect(got.status).toBe(200);
          expect(got.text).toBe(routed.text);
          expect(stable(got.headers)).toEqual(stable(routed.headers));
        }
      }
    }
  });

  it('hands Fastify what it does not answer, and the route answers as before: missing, hidden, bad query, NUL, unknown caller', async () => {
    const key = await createIssue(t, 'assigner', {});
    const auth = { authorization: authOf('executor') };
    const cases: [string, Record<string, string>, number, RegExp][] = [
      [`${t.api}/issue/ABC-999999`, auth, 404, /Issue does not exist or you do not have permission to see it/],
      [`${t.api}/issue/${key}`, { authorization: authOf('outsider') }, 404, /Issue does not exist or you do not have permission to see it/],
      [`${t.api}/issue/${key}?fieldsByKeys=maybe`, auth, 400, /fieldsByKeys/],
      [`${t.api}/issue/${key}?fields=summary%00`, auth, 400, /NUL/],
      [`${t.api}/issue/${key}`, { authorization: basic(EMAILS.executor, 'not-the-token') }, 401, /authenticated/],
      [`${t.api}/issue/${key}`, {}, 401, /authenticated/],
    ];
    for (const [url, headers, status, message] of cases) {
      const before = front().answered;
      const got = await get(url, headers);
      expect(front().answered, url).toBe(before);
      expect(got.status, url).toBe(status);
      expect(JSON.parse(got.text).errorMessages.join(' '), url).toMatch(message);
      expect(got.text).toBe((await get(url, { ...headers, 'content-length': '0' })).text);
    }
  });

  it('a sign-in is remembered by its canonical header only: other spellings of the same credential are checked in full by the route, every time', async () => {
    const key = await createIssue(t, 'assigner', {});
    const url = `${t.api}/issue/${key}?fields=summary`;
    const usual = authOf('reviewer');
    const base64 = usual.slice('Basic '.length);
    const expected = (await get(url, { authorization: usual })).text;
    // Valid variants (parseBasic takes them), but each would be one more entry of the same credential.
    // (Not a trailing space: the HTTP parser strips it, so that one arrives as the usual header.)
    const variants = [`basic ${base64}`, `Basic  ${base64}`, `BASIC\t${base64}`, `Basic ${base64.replace(/=+$/, '')}`].filter((v) => v !== usual);
    for (const authorization of variants) {
      for (let i = 0; i < 2; i++) {
        const before = front().answered;
        const got = await get(url, { authorization });
        expect(got.status, authorization).toBe(200);
        expect(got.text).toBe(expected);
        expect(front().answered, authorization).toBe(before);
      }
    }
    // The canonical header is the front's.
    const before = front().answered;
    expect((await get(url, { authorization: usual })).text).toBe(expected);
    expect(front().answered).toBe(before + 1);
    // A remembered header with a wrong token in it is another header: the route refuses it.
    const refused = await get(url, { authorization: `${usual.slice(0, -4)}eHh4` });
    expect(refused.status).toBe(401);
    expect(front().answered).toBe(before + 1);
  });

  it('a query string is parsed once and answered the same every time; one the schema refused is refused every time', async () => {
    const key = await createIssue(t, 'assigner', { description: adf('Parsed once') });
    const auth = { authorization: authOf('executor') };
    const good = `${t.api}/issue/${key}?fields=summary,description&expand=names`;
    const replies: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { got, routed, answered } = await readBoth(good, auth);
      expect(answered).toBe(1);
      expect(got.text).toBe(routed.text);
      replies.push(got.text);
    }
    expect(new Set(replies).size).toBe(1);
    expect(Object.keys(JSON.parse(replies[0]!).fields).sort()).toEqual(['description', 'summary']);
    expect(JSON.parse(replies[0]!).names).toEqual({ summary: 'Summary', description: 'Description' });
    for (let i = 0; i < 2; i++) {
      const before = front().answered;
      const bad = await get(`${t.api}/issue/${key}?fieldsByKeys=perhaps`, auth);
      expect(bad.status).toBe(400);
      expect(JSON.parse(bad.text).errorMessages.join(' ')).toMatch(/fieldsByKeys/);
      expect(front().answered).toBe(before);
    }
  });

  it("answers while a transaction is open on the store: the reads wait their turn, and the reply is the route's", async () => {
    const key = await createIssue(t, 'assigner', { description: adf('Read during a transaction') });
    await t.as('reviewer').post(`/issue/${key}/comment`, { body: adf('A comment') });
    const url = `${t.api}/issue/${key}?fields=${FIELDS}`;
    const auth = { authorization: authOf('executor') };
    const expected = (await get(url, { ...auth, 'content-length': '0' })).text;
    const { store } = t.server;
    let release!: () => void;
    let opened!: () => void;
    const open = new Promise<void>((resolve) => {
      opened = resolve;
    });
    const transaction = store.transaction(async () => {
      opened();
      await new Promise<void>((resolve) => {
        release = resolve;
      });
    });
    await open;
    if (kind === 'sqlite') expect(store.readsNow).toBe(false);
    const before = front().answered;
    const reading = get(url, auth);
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await transaction;
    const got = await reading;
    expect(front().answered).toBe(before + 1);
    expect(got.status).toBe(200);
    expect(got.text).toBe(expected);
    if (kind === 'sqlite') expect(store.readsNow).toBe(true);
  });

  it("a caller not remembered yet is signed in by the route; the next read is the front's", async () => {
    const fresh = await startTestTracker(kind);
    try {
      const key = await createIssue(fresh, 'assigner', {});
      const f = fresh.server.app.issueReadFront!;
      const url = `${fresh.api}/issue/${key}?fields=summary`;
      const auth = { authorization: authOf('reviewer') };
      const first = await get(url, auth);
      expect(f.answered).toBe(0);
      const second = await get(url, auth);
      expect(f.answered).toBe(1);
      expect(second.text).toBe(first.text);
      // Statuses forgotten (as at a start): the front reads what it lacks, waiting for it, and answers the same.
      await fresh.server.tracker.refreshSites();
      await fresh.as('reviewer').get('/myself');
      const withStatus = `${fresh.api}/issue/${key}?fields=summary,status`;
      const third = await get(withStatus, auth);
      expect(f.answered).toBe(2);
      expect(JSON.parse(third.text).fields.status.name).toBe('To Do');
      expect(third.text).toBe((await get(withStatus, { ...auth, 'content-length': '0' })).text);
    } finally {
      await fresh.close();
    }
  });
});

describe('GET /issue before Fastify: off or handed on', () => {
  it('behind a trusted proxy the route answers (it works out the links from X-Forwarded-*)', async () => {
    const proxied = await startTestTracker('sqlite', undefined, { server: { trustProxy: true, readCacheBytes: 0 } });
    try {
      const key = await createIssue(proxied, 'assigner', {});
      const auth = authOf('executor');
      for (let i = 0; i < 2; i++) {
        const got = await get(`${proxied.siteApi}/issue/${key}?fields=summary`, {
          authorization: auth,
          'x-forwarded-host': 'jira.example',
          'x-forwarded-proto': 'https',
        });
        expect(JSON.parse(got.text).self).toMatch(/^https:\/\/jira\.example\/rest\/api\/3\/issue\//);
      }
      expect(proxied.server.app.issueReadFront!.answered).toBe(0);
    } finally {
      await proxied.close();
    }
  });
});
