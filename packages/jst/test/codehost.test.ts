import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCodehost, type TestCodehost } from '../../../test/support/codehost.js';
import { CodehostClient, CodehostError, retryAfterMs } from '../src/codehost/index.js';

const TOKEN = 'github_pat_unit_9f8e7d';

async function server(handler: http.RequestListener): Promise<{ url: string; close(): Promise<void> }> {
  const s = http.createServer(handler);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`, close: () => new Promise((r) => { s.closeAllConnections(); s.close(() => r()); }) };
}

const failureOf = async (p: Promise<unknown>): Promise<CodehostError> => {
  try { await p; } catch (e) { if (e instanceof CodehostError) return e; throw e; }
  throw new Error('expected a CodehostError');
};

describe('the code-host client (ARCHITECTURE §11): bounded, Retry-After honoured, the token never printed', () => {
  let ch: TestCodehost;
  const client = (limits = {}) => new CodehostClient({ apiUrl: ch.url, token: TOKEN, repo: { owner: 'acme', name: 'widgets' }, limits });
  beforeAll(async () => { ch = await startCodehost({ token: TOKEN, repos: ['acme/widgets'] }); });
  afterAll(async () => { await ch.close(); });

  it('sends the token as a Bearer header with a User-Agent, and the pulls query of §11', async () => {
    const from = ch.requests.length;
    expect(await client().pulls('feature/ABC-2-x', 'feature/ABC-1-y')).toEqual([]);
    const r = ch.requests[from]!;
    expect(r.authorization).toBe(`Bearer ${TOKEN}`);
    expect(r.userAgent).toBe('jst');
    expect(r.path).toBe('/repos/acme/widgets/pulls?head=acme%3Afeature%2FABC-2-x&base=feature%2FABC-1-y&state=all');
  });

  it('a 429 with Retry-After is retried after the wait, a bounded number of times', async () => {
    ch.failNext(429, { 'retry-after': '0' }, 2);
    expect((await client().user()).login).toBe('jst-bot');
    ch.failNext(429, { 'retry-after': '0' }, 3);
    const e = await failureOf(client().user());
    expect(e.failure).toBe('rate_limited');
  });

  it('a Retry-After longer than the cap is not waited for: rate_limited at once', async () => {
    ch.failNext(429, { 'retry-after': '3600' });
    const started = Date.now();
    expect((await failureOf(client().user())).failure).toBe('rate_limited');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('403 with the rate limit used up is rate_limited; plain 403, 404, 422 map to forbidden, not_found, conflict', async () => {
    ch.failNext(403, { 'x-ratelimit-remaining': '0' });
    expect((await failureOf(client().user())).failure).toBe('rate_limited');
    ch.failNext(403);
    expect((await failureOf(client().user())).failure).toBe('forbidden');
    expect((await failureOf(client().pull(999))).failure).toBe('not_found');
    await client().createPull({ title: 't', head: 'a', base: 'b', body: '', draft: false });
    expect((await failureOf(client().createPull({ title: 't', head: 'a', base: 'b', body: '', draft: false }))).failure).toBe('conflict');
  });

  it('a wrong token is unauthorized, and no message carries a token', async () => {
    const wrong = new CodehostClient({ apiUrl: ch.url, token: 'github_pat_wrong_123', repo: { owner: 'acme', name: 'widgets' } });
    const e = await failureOf(wrong.user());
    expect(e.failure).toBe('unauthorized');
    expect(e.message).not.toContain('github_pat_wrong_123');
  });

  it('one deadline covers headers and body: a body that stalls ends as timeout', async () => {
    const s = await server((_req, res) => { res.writeHead(200, { 'Content-Type': 'application/json' }); res.write('['); });
    const c = new CodehostClient({ apiUrl: s.url, token: TOKEN, repo: { owner: 'a', name: 'b' }, limits: { timeoutMs: 300 } });
    const e = await failureOf(c.user());
    expect(e.failure).toBe('timeout');
    expect(e.message).toContain('within 300 ms');
    await s.close();
  });

  it('a body over the byte cap is refused as too_large', async () => {
    const s = await server((_req, res) => { res.writeHead(200); res.end(`"${'x'.repeat(5000)}"`); });
    const c = new CodehostClient({ apiUrl: s.url, token: TOKEN, repo: { owner: 'a', name: 'b' }, limits: { maxBytes: 1000 } });
    expect((await failureOf(c.user())).failure).toBe('too_large');
    await s.close();
  });

  it('Retry-After reads seconds and HTTP dates', () => {
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(retryAfterMs(null)).toBeNull();
    expect(retryAfterMs('soon')).toBeNull();
  });
});
