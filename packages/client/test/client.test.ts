import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textToAdf } from '@jst/adf';
import {
  accountIdByEmail,
  apiBase,
  assignByEmail,
  commentsWithMarker,
  gatewayUrl,
  isLoopbackHost,
  projectVisible,
  RuleStop,
  sameAssignee,
  siteHostOf,
  siteUrl,
  TrackerClient,
  TrackerHttpError,
  Transport,
  transitionTo,
  allComments,
} from '../src/index.js';
import type { HttpRequest, HttpResponse } from '../src/transport.js';
import { startTestTracker, type TestTracker } from '../../../test/support/tracker.js';
import { CLOUD_ID, EMAILS, TOKENS } from '../../../test/support/seed.js';

describe('ARCHITECTURE §4 addressing', () => {
  it('spec §2: TRACKER_ACCOUNT_URL has any scheme stripped', () => {
    expect(siteHostOf('https://acme.atlassian.net/')).toBe('acme.atlassian.net');
    expect(siteHostOf('http://127.0.0.1:8080/x')).toBe('127.0.0.1:8080');
    expect(siteHostOf('acme.atlassian.net')).toBe('acme.atlassian.net');
  });
  it('http only for loopback hosts, never downgraded otherwise', () => {
    expect(['localhost', '127.0.0.1:8080', '127.9.9.9', '[::1]:80'].every(isLoopbackHost)).toBe(true);
    expect(['acme.atlassian.net', '10.0.0.1', '128.0.0.1', 'localhost.evil.com'].some(isLoopbackHost)).toBe(false);
    expect(siteUrl('127.0.0.1:8080')).toBe('http://127.0.0.1:8080');
    expect(siteUrl('http://acme.atlassian.net')).toBe('https://acme.atlassian.net');
    expect(gatewayUrl('http://api.example.com')).toBe('https://api.example.com');
    expect(gatewayUrl('http://127.0.0.1:9/')).toBe('http://127.0.0.1:9');
    expect(gatewayUrl(undefined)).toBe('https://api.atlassian.com');
    expect(apiBase('https://api.atlassian.com', 'abc')).toBe('https://api.atlassian.com/ex/jira/abc/rest/api/3');
  });
  it('ARCHITECTURE §23: a loopback site is reached over https when the gateway is that same host and port over https (jst-tracker --tls)', () => {
    expect(siteUrl('127.0.0.1:8443', 'https://127.0.0.1:8443')).toBe('https://127.0.0.1:8443');
    expect(siteUrl('http://127.0.0.1:8443/', 'https://127.0.0.1:8443/')).toBe('https://127.0.0.1:8443');
    // Another port, another host, a plain-http gateway or none: the loopback rule as before.
    expect(siteUrl('127.0.0.1:8080', 'https://127.0.0.1:8443')).toBe('http://127.0.0.1:8080');
    expect(siteUrl('localhost:8443', 'https://127.0.0.1:8443')).toBe('http://localhost:8443');
    expect(siteUrl('127.0.0.1:8443', 'http://127.0.0.1:8443')).toBe('http://127.0.0.1:8443');
    expect(siteUrl('127.0.0.1:8443', 'not a url ::')).toBe('http://127.0.0.1:8443');
    // Never a downgrade for a site that is not loopback, whatever the gateway says.
    expect(siteUrl('acme.atlassian.net', 'http://127.0.0.1:1')).toBe('https://acme.atlassian.net');
  });
});

describe('@jst/client against a real jst-tracker', () => {
  let t: TestTracker;
  const clientFor = (who: 'assigner' | 'executor' | 'viewer', cache?: Map<string, string>) =>
    new TrackerClient({
      siteHost: new URL(t.url).host,
      gatewayUrl: t.url,
      email: EMAILS[who],
      token: TOKENS[who],
      ...(cache ? { cloudIdCache: { get: (h) => cache.get(h), set: (h, v) => void cache.set(h, v) } } : {}),
    });
  beforeAll(async () => {
    t = await startTestTracker('sqlite');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('spec §4 client rule 1: tenant_info → cloudId → {api_base}, cached per site host', async () => {
    const cache = new Map<string, string>();
    const c = clientFor('assigner', cache);
    expect(await c.apiBase()).toBe(`${t.url}/ex/jira/${CLOUD_ID}/rest/api/3`);
    expect([...cache.values()]).toEqual([CLOUD_ID]);
    const again = clientFor('assigner', new Map([[new URL(t.url).host, 'cached-id']]));
    expect(await again.apiBase()).toContain('/ex/jira/cached-id/');
  });

  it('spec §5 rules 1-3: each call carries its role credential; roles interleave without interfering', async () => {
    const [a, e] = await Promise.all([clientFor('assigner').myself(), clientFor('executor').myself()]);
    expect(a.emailAddress).toBe(EMAILS.assigner);
    expect(e.emailAddress).toBe(EMAILS.executor);
  });

  it('spec §4 client rule 2: project visibility is an exact key match', async () => {
    expect(await projectVisible(clientFor('assigner'), 'ABC')).toBe(true);
    expect(await projectVisible(clientFor('assigner'), 'AB')).toBe(false);
    expect(await projectVisible(clientFor('assigner'), 'SEC')).toBe(false);
  });

  it('spec §4 client rules 3, 4, 7, 8: create, assign by e-mail, confirm by re-reading, compare by accountId', async () => {
    const c = clientFor('assigner');
    const created = await c.createIssue({
      project: { key: 'ABC' },
      issuetype: { name: 'Task' },
      summary: 'from the client',
      description: textToAdf('line one\n## stays literal'),
    });
    expect(created.key).toMatch(/^ABC-\d+$/);
    const id = await assignByEmail(c, created.key, EMAILS.executor);
    expect(id).toBe(await accountIdByEmail(c, EMAILS.executor));
    const seen = await clientFor('executor').getIssue(created.key, ['assignee']);
    expect(sameAssignee(seen, id)).toBe(true);
    expect(await assignByEmail(c, created.key, null)).toBeNull();
    expect(await assignByEmail(clientFor('executor'), created.key, '@me')).toBe(id);
  });

  it('spec §4 client rule 5: transition by destination name; none matching is a stop that posts nothing', async () => {
    const c = clientFor('assigner');
    const { key } = await c.createIssue({ project: { key: 'RST' }, issuetype: { name: 'Task' }, summary: 'flow' });
    const done = await transitionTo(c, key, 'Doing');
    expect(done.name).toBe('Start work');
    const err = await transitionTo(c, key, 'Finished').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RuleStop);
    expect((err as Error).message).toContain('"Checking"');
    expect((await c.getIssue(key, ['status'])).fields.status?.name).toBe('Doing');
  });

  it('marker strings are read from comment text nodes', async () => {
    const c = clientFor('assigner');
    const { key } = await c.createIssue({ project: { key: 'ABC' }, issuetype: { name: 'Task' }, summary: 'markers' });
    await c.addComment(key, textToAdf('PR target branch: feature/ABC-1-x Worktree: /w/worktree-ABC-1'));
    await c.addComment(key, textToAdf('Assignment report\nABC-1 …'));
    const comments = await allComments(c, key);
    expect(commentsWithMarker(comments, 'Assignment report')).toHaveLength(1);
    expect(commentsWithMarker(comments, 'PR target branch:')).toHaveLength(1);
  });

  it('an HTTP error says what failed, with the vendor message and what to do, and never the token', async () => {
    const err = (await clientFor('viewer')
      .deleteIssue('ABC-1')
      .catch((e: unknown) => e)) as TrackerHttpError;
    expect(err).toBeInstanceOf(TrackerHttpError);
    expect(err.status).toBe(403);
    expect(err.message).toMatch(/DELETE \/issue\/ABC-1 failed with HTTP 403: .*permission/);
    const bad = new TrackerClient({ siteHost: new URL(t.url).host, gatewayUrl: t.url, email: EMAILS.assigner, token: 'wrong-secret-123' });
    const e401 = (await bad.myself().catch((e: unknown) => e)) as TrackerHttpError;
    expect(e401.status).toBe(401);
    expect(e401.message).toMatch(/stale or revoked/);
    expect(e401.message).not.toContain('wrong-secret-123');
    expect(JSON.stringify(e401)).not.toContain('wrong-secret-123');
  });
});

/** The real transport, recording what it sent: the tests count tenant_info reads and retries. */
class RecordingTransport extends Transport {
  readonly sent: string[] = [];
  override send(req: HttpRequest): Promise<HttpResponse> {
    this.sent.push(`${req.method} ${new URL(req.url).pathname}`);
    return super.send(req);
  }
  count(fragment: string): number {
    return this.sent.filter((s) => s.includes(fragment)).length;
  }
}

describe('spec §4 client rule 1: a cached cloudId that went stale is replaced once, on a 404', () => {
  let t: TestTracker;
  let host: string;
  const TENANT = 'GET /_edge/tenant_info';
  const make = (cache: Map<string, string> | undefined, transport: RecordingTransport) =>
    new TrackerClient({
      siteHost: host,
      gatewayUrl: t.url,
      email: EMAILS.assigner,
      token: TOKENS.assigner,
      transport,
      ...(cache ? { cloudIdCache: { get: (h) => cache.get(h), set: (h, v) => void cache.set(h, v) } } : {}),
    });
  beforeAll(async () => {
    t = await startTestTracker('sqlite');
    host = new URL(t.url).host;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a stale cached cloudId: tenant_info is read again, the cache gets the new id and the call is retried once', async () => {
    const cache = new Map([[host, 'stale-cloud-id']]);
    const tr = new RecordingTransport();
    const c = make(cache, tr);
    expect((await c.myself()).emailAddress).toBe(EMAILS.assigner);
    expect(cache.get(host)).toBe(CLOUD_ID);
    expect(tr.sent).toEqual(['GET /ex/jira/stale-cloud-id/rest/api/3/myself', TENANT, `GET /ex/jira/${CLOUD_ID}/rest/api/3/myself`]);
    expect(await c.apiBase()).toBe(`${t.url}/ex/jira/${CLOUD_ID}/rest/api/3`);
    c.close();
  });

  it('a POST through a stale cache is retried once too (it reached no site) and creates exactly one issue', async () => {
    const cache = new Map([[host, 'stale-cloud-id']]);
    const tr = new RecordingTransport();
    const c = make(cache, tr);
    const { key } = await c.createIssue({ project: { key: 'ABC' }, issuetype: { name: 'Task' }, summary: 'through a stale cache' });
    expect(tr.count('POST ')).toBe(2);
    expect(tr.count(TENANT)).toBe(1);
    const next = `ABC-${Number(key.split('-')[1]) + 1}`;
    expect((await c.raw('GET', `/issue/${next}`)).status).toBe(404);
    c.close();
  });

  it('a genuine 404 (GET /issue/NOPE-1) with a good cached cloudId: one tenant_info read at most, the 404 returned unchanged', async () => {
    const cache = new Map([[host, CLOUD_ID]]);
    const tr = new RecordingTransport();
    const c = make(cache, tr);
    const direct = await t.as('assigner').get('/issue/NOPE-1');
    const first = await c.raw('GET', '/issue/NOPE-1');
    expect(first.status).toBe(404);
    expect(first.body).toEqual(direct.body);
    const second = await c.raw('GET', '/issue/NOPE-1');
    expect(second.status).toBe(404);
    const err = await c.getIssue('NOPE-1').catch((e: unknown) => e);
    expect((err as TrackerHttpError).status).toBe(404);
    expect(tr.count(TENANT)).toBe(1);
    expect(tr.count('/issue/NOPE-1')).toBe(3);
    expect(cache.get(host)).toBe(CLOUD_ID);
    c.close();
  });

  it('a stale cache and a genuine 404: one refresh, one retry, then the genuine 404; later 404s do not refresh', async () => {
    const cache = new Map([[host, 'stale-cloud-id']]);
    const tr = new RecordingTransport();
    const c = make(cache, tr);
    expect((await c.raw('GET', '/issue/NOPE-1')).status).toBe(404);
    expect(tr.sent).toEqual(['GET /ex/jira/stale-cloud-id/rest/api/3/issue/NOPE-1', TENANT, `GET /ex/jira/${CLOUD_ID}/rest/api/3/issue/NOPE-1`]);
    expect((await c.raw('GET', '/issue/NOPE-2')).status).toBe(404);
    expect(tr.count(TENANT)).toBe(1);
    c.close();
  });

  it('concurrent calls through a stale cache share one tenant_info read', async () => {
    const cache = new Map([[host, 'stale-cloud-id']]);
    const tr = new RecordingTransport();
    const c = make(cache, tr);
    const results = await Promise.all(Array.from({ length: 5 }, () => c.raw('GET', '/myself')));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(tr.count(TENANT)).toBe(1);
    c.close();
  });

  it('without a cache the cloudId is fresh, so a 404 never re-reads tenant_info', async () => {
    const tr = new RecordingTransport();
    const c = make(undefined, tr);
    expect((await c.raw('GET', '/issue/NOPE-1')).status).toBe(404);
    expect((await c.raw('DELETE', '/issue/NOPE-1')).status).toBe(404);
    expect(tr.count(TENANT)).toBe(1);
    c.close();
  });

  it('tenantInfo() replaces a stale cached cloudId, so `tenant` and api_base agree', async () => {
    const cache = new Map([[host, 'stale-cloud-id']]);
    const c = make(cache, new RecordingTransport());
    expect((await c.tenantInfo()).cloudId).toBe(CLOUD_ID);
    expect(await c.apiBase()).toBe(`${t.url}/ex/jira/${CLOUD_ID}/rest/api/3`);
    expect(cache.get(host)).toBe(CLOUD_ID);
    c.close();
  });
});

describe('retries: only idempotent calls, only on 429/503, honouring Retry-After, bounded', () => {
  // The hosted tracker's rate limiter, stood in for by a local server that answers 429/503 first.
  let server: Server;
  let hits: Record<string, number>;
  let plan: number[];
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/_edge/tenant_info') {
        res.end(JSON.stringify({ cloudId: 'c' }));
        return;
      }
      const key = `${req.method} ${req.url}`;
      hits[key] = (hits[key] ?? 0) + 1;
      const status = plan.shift() ?? 200;
      res.writeHead(status, { 'Content-Type': 'application/json', ...(status === 429 ? { 'Retry-After': '0' } : {}) });
      res.end(status === 200 ? '{"accountId":"x"}' : '{"errorMessages":["slow down"],"errors":{}}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  });
  afterAll(() => {
    server.close();
  });
  const client = (retry = { maxRetries: 3, maxWaitMs: 2000 }) => {
    const { port } = server.address() as AddressInfo;
    return new TrackerClient({ siteHost: `127.0.0.1:${port}`, gatewayUrl: `http://127.0.0.1:${port}`, email: 'a@b', token: 't', retry });
  };

  it('a GET answered 429 then 503 is retried and succeeds', async () => {
    hits = {};
    plan = [429, 503];
    expect((await client().myself()).accountId).toBe('x');
    expect(hits['GET /ex/jira/c/rest/api/3/myself']).toBe(3);
  });

  it('a POST is never retried', async () => {
    hits = {};
    plan = [503];
    const r = await client().raw('POST', '/issue', { fields: {} });
    expect(r.status).toBe(503);
    expect(hits['POST /ex/jira/c/rest/api/3/issue']).toBe(1);
  });

  it('the retry budget is bounded', async () => {
    hits = {};
    plan = [429, 429, 429, 429, 429];
    expect((await client({ maxRetries: 2, maxWaitMs: 2000 }).raw('GET', '/myself')).status).toBe(429);
    expect(hits['GET /ex/jira/c/rest/api/3/myself']).toBe(3);
  });

  it('a 500 or 400 is not retried', async () => {
    hits = {};
    plan = [500];
    expect((await client().raw('GET', '/myself')).status).toBe(500);
    expect(hits['GET /ex/jira/c/rest/api/3/myself']).toBe(1);
  });
});

describe('ARCHITECTURE §11: every tracker answer jst acts on is checked before it is used', () => {
  // Answers the tracker would never give, from a local server: a redirect, a wrong shape, a flood of words.
  let server: Server;
  let answer: { status: number; headers?: Record<string, string>; body: string };
  let reached = 0;
  let elsewhere: Server;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/_edge/tenant_info') {
        res.end(JSON.stringify({ cloudId: 'c' }));
        return;
      }
      res.writeHead(answer.status, { 'Content-Type': 'application/json', ...answer.headers });
      res.end(answer.body);
    });
    elsewhere = createServer((_req, res) => {
      reached++;
      res.end('{"id":"1"}');
    });
    await Promise.all([server, elsewhere].map((s) => new Promise<void>((r) => s.listen(0, '127.0.0.1', r))));
  });
  afterAll(() => {
    server.close();
    elsewhere.close();
  });
  const client = () => {
    const { port } = server.address() as AddressInfo;
    return new TrackerClient({ siteHost: `127.0.0.1:${port}`, gatewayUrl: `http://127.0.0.1:${port}`, email: 'a@b', token: 't' });
  };
  const failure = async (p: Promise<unknown>): Promise<Error> =>
    p.then(
      () => {
        throw new Error('expected a failure');
      },
      (e: unknown) => e as Error,
    );

  it('a redirect is a failure naming the call, never followed (for a POST too)', async () => {
    const { port } = elsewhere.address() as AddressInfo;
    for (const status of [301, 302, 307, 308]) {
      answer = { status, headers: { location: `http://127.0.0.1:${port}/x` }, body: '' };
      const e = await failure(client().addComment('ABC-1', textToAdf('Run report')));
      expect(e).toBeInstanceOf(TrackerHttpError);
      expect(e.message).toContain(`POST /issue/ABC-1/comment failed with HTTP ${status}`);
    }
    expect(reached).toBe(0);
  });

  it('an issue without fields, a comment without an id, a comment page or transition list of the wrong shape: refused, naming the call', async () => {
    const cases: [() => Promise<unknown>, unknown, string][] = [
      [() => client().getIssue('ABC-1'), [], 'GET /issue/{key} answered something that is not an issue (key and fields)'],
      [() => client().getIssue('ABC-1'), { key: 'ABC-1', fields: 'x' }, 'not an issue'],
      [() => client().addComment('ABC-1', textToAdf('x')), { id: 7 }, 'POST /issue/{key}/comment answered something that is not a comment with an id'],
      [() => client().listComments('ABC-1'), { total: 1, comments: { 0: {} } }, 'GET /issue/{key}/comment answered something that is not a page of comments'],
      [() => client().transitions('ABC-1'), { transitions: [{ id: 5 }] }, 'GET /issue/{key}/transitions answered something that is not a list of transitions'],
    ];
    for (const [call, body, says] of cases) {
      answer = { status: 200, body: JSON.stringify(body) };
      const e = await failure(call());
      expect(e.name).toBe('TrackerShapeError');
      expect(e.message).toContain(says);
    }
  });

  it("an error quotes at most 300 characters of the tracker's words, saying how many were left out; vendorMessage keeps them all", async () => {
    answer = { status: 400, body: JSON.stringify({ errorMessages: ['x'.repeat(1_000_000)], errors: { summary: 'y\nz' } }) };
    const failed = await failure(client().getIssue('ABC-1'));
    if (!(failed instanceof TrackerHttpError)) throw failed;
    const e = failed;
    expect(e.message).toContain(`GET /issue/ABC-1 failed with HTTP 400: ${'x'.repeat(300)}… (${1_000_000 + '; summary: y z'.length - 300} more characters)`);
    expect(e.message.length).toBeLessThan(500);
    expect(e.vendorMessage.length).toBeGreaterThan(1_000_000);
  });
});
