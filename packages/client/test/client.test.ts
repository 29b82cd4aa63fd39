import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textToAdf } from '@jst/adf';
import { accountIdByEmail, apiBase, assignByEmail, commentsWithMarker, gatewayUrl, isLoopbackHost, projectVisible, RuleStop, sameAssignee, siteHostOf, siteUrl, TrackerClient, TrackerHttpError, transitionTo, allComments } from '../src/index.js';
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
});

describe('@jst/client against a real jst-tracker', () => {
  let t: TestTracker;
  const clientFor = (who: 'assigner' | 'executor' | 'viewer', cache?: Map<string, string>) => new TrackerClient({
    siteHost: new URL(t.url).host,
    gatewayUrl: t.url,
    email: EMAILS[who],
    token: TOKENS[who],
    ...(cache ? { cloudIdCache: { get: (h) => cache.get(h), set: (h, v) => void cache.set(h, v) } } : {}),
  });
  beforeAll(async () => { t = await startTestTracker('sqlite'); });
  afterAll(async () => { await t?.close(); });

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
    const created = await c.createIssue({ project: { key: 'ABC' }, issuetype: { name: 'Task' }, summary: 'from the client', description: textToAdf('line one\n## stays literal') });
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
    const err = await clientFor('viewer').deleteIssue('ABC-1').catch((e: unknown) => e) as TrackerHttpError;
    expect(err).toBeInstanceOf(TrackerHttpError);
    expect(err.status).toBe(403);
    expect(err.message).toMatch(/DELETE \/issue\/ABC-1 failed with HTTP 403: .*permission/);
    const bad = new TrackerClient({ siteHost: new URL(t.url).host, gatewayUrl: t.url, email: EMAILS.assigner, token: 'wrong-secret-123' });
    const e401 = await bad.myself().catch((e: unknown) => e) as TrackerHttpError;
    expect(e401.status).toBe(401);
    expect(e401.message).toMatch(/stale or revoked/);
    expect(e401.message).not.toContain('wrong-secret-123');
    expect(JSON.stringify(e401)).not.toContain('wrong-secret-123');
  });
});

describe('retries: only idempotent calls, only on 429/503, honouring Retry-After, bounded', () => {
  // The hosted tracker's rate limiter, stood in for by a local server that answers 429/503 first.
  let server: Server;
  let hits: Record<string, number>;
  let plan: number[];
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/_edge/tenant_info') { res.end(JSON.stringify({ cloudId: 'c' })); return; }
      const key = `${req.method} ${req.url}`;
      hits[key] = (hits[key] ?? 0) + 1;
      const status = plan.shift() ?? 200;
      res.writeHead(status, { 'Content-Type': 'application/json', ...(status === 429 ? { 'Retry-After': '0' } : {}) });
      res.end(status === 200 ? '{"accountId":"x"}' : '{"errorMessages":["slow down"],"errors":{}}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  });
  afterAll(() => { server.close(); });
  const client = (retry = { maxRetries: 3, maxWaitMs: 2000 }) => {
    const { port } = server.address() as AddressInfo;
    return new TrackerClient({ siteHost: `127.0.0.1:${port}`, gatewayUrl: `http://127.0.0.1:${port}`, email: 'a@b', token: 't', retry });
  };

  it('a GET answered 429 then 503 is retried and succeeds', async () => {
    hits = {}; plan = [429, 503];
    expect((await client().myself()).accountId).toBe('x');
    expect(hits['GET /ex/jira/c/rest/api/3/myself']).toBe(3);
  });

  it('a POST is never retried', async () => {
    hits = {}; plan = [503];
    const r = await client().raw('POST', '/issue', { fields: {} });
    expect(r.status).toBe(503);
    expect(hits['POST /ex/jira/c/rest/api/3/issue']).toBe(1);
  });

  it('the retry budget is bounded', async () => {
    hits = {}; plan = [429, 429, 429, 429, 429];
    expect((await client({ maxRetries: 2, maxWaitMs: 2000 }).raw('GET', '/myself')).status).toBe(429);
    expect(hits['GET /ex/jira/c/rest/api/3/myself']).toBe(3);
  });

  it('a 500 or 400 is not retried', async () => {
    hits = {}; plan = [500];
    expect((await client().raw('GET', '/myself')).status).toBe(500);
    expect(hits['GET /ex/jira/c/rest/api/3/myself']).toBe(1);
  });
});
