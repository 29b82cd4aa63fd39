import { writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultsBefore, type CodehostFaults } from '../../../test/support/codehost-faults.js';
import { codehostOf, type EmbeddedCodehost, type RequestTap } from '../../../test/support/embedded-codehost.js';
import { gitAsync, makeRepo, type TestRepo } from '../../../test/support/repo.js';
import { CODEHOST_LOGIN, CODEHOST_TOKEN, testSeed, withCodehost } from '../../../test/support/seed.js';
import { startTestTracker, type TestTracker } from '../../../test/support/tracker.js';
import { CodehostClient, CodehostError, retryAfterMs } from '../src/codehost/index.js';

async function server(handler: http.RequestListener): Promise<{ url: string; close(): Promise<void> }> {
  const s = http.createServer(handler);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`,
    close: () =>
      new Promise((r) => {
        s.closeAllConnections();
        s.close(() => r());
      }),
  };
}

const failureOf = async (p: Promise<unknown>): Promise<CodehostError> => {
  try {
    await p;
  } catch (e) {
    if (e instanceof CodehostError) return e;
    throw e;
  }
  throw new Error('expected a CodehostError');
};

describe('the code-host client (ARCHITECTURE §11) on the embedded code host (§14): bounded, Retry-After honoured, every answer checked, the token never printed', () => {
  let t: TestTracker;
  let ch: EmbeddedCodehost;
  let tap: RequestTap;
  let repo: TestRepo;
  let faults: CodehostFaults;
  const client = (o: { apiUrl?: string; token?: string; limits?: object } = {}) =>
    new CodehostClient({ apiUrl: o.apiUrl ?? ch.api, token: o.token ?? CODEHOST_TOKEN, repo: { owner: 'acme', name: 'widgets' }, limits: o.limits ?? {} });

  beforeAll(async () => {
    t = await startTestTracker('sqlite', withCodehost(testSeed()));
    ch = codehostOf(t);
    tap = ch.tap();
    faults = await faultsBefore(t.url);
    // acme/widgets on the code host with a branch one commit beyond development.
    repo = makeRepo({ codehost: ch.origin('acme/widgets') });
    repo.git('checkout', '--quiet', '-b', 'feature/ABC-9-x');
    writeFileSync(join(repo.repo, 'x.txt'), 'x\n');
    repo.git('add', 'x.txt');
    repo.git('commit', '--quiet', '-m', 'x');
    await gitAsync(repo.repo, 'push', '--quiet', 'origin', 'feature/ABC-9-x');
  });
  afterAll(async () => {
    tap?.stop();
    await faults?.close();
    repo?.cleanup();
    await t?.close();
  });

  it('sends the token as a Bearer header with a User-Agent, and the pulls query of §11', async () => {
    const from = tap.requests.length;
    expect(await client().pulls('feature/ABC-2-x', 'feature/ABC-1-y')).toEqual([]);
    const r = tap.requests[from]!;
    expect(r.authorization).toBe(`Bearer ${CODEHOST_TOKEN}`);
    expect(r.userAgent).toBe('jst');
    expect(r.path).toBe('/repos/acme/widgets/pulls?head=acme%3Afeature%2FABC-2-x&base=feature%2FABC-1-y&state=all');
  });

  it('the whole round on the code host: open, list, read, review, comment; a second open is a conflict (422)', async () => {
    const c = client();
    const opened = await c.createPull({ title: 'ABC-9: x', head: 'feature/ABC-9-x', base: 'development', body: 'b', draft: false });
    expect(opened).toMatchObject({
      state: 'open',
      merged: false,
      head: { ref: 'feature/ABC-9-x' },
      base: { ref: 'development' },
      html_url: `${t.url}/acme/widgets/pull/${opened.number}`,
    });
    const listed = await c.pulls('feature/ABC-9-x', 'development');
    expect(listed.map((p) => p.number)).toEqual([opened.number]);
    // GitHub's list form has no `merged` but `merged_at` (null until merged): the client takes it from that.
    expect(listed[0]!.merged).toBe(false);
    // The pull requests into a base by head branch, in one read (the review brief's sub-tasks).
    expect(
      [...((await c.pullsInto('development')) ?? new Map<string, { number: number }[]>()).entries()].map(([b, ps]) => [b, ps.map((p) => p.number)]),
    ).toEqual([['feature/ABC-9-x', [opened.number]]]);
    expect((await c.pull(opened.number)).merged).toBe(false);
    const review = await c.createReview(opened.number, 'APPROVED — fine\n\nDetails.');
    expect(review).toMatchObject({ user: { login: CODEHOST_LOGIN }, state: 'COMMENTED', body: 'APPROVED — fine\n\nDetails.' });
    expect((await c.reviews(opened.number)).map((r) => r.id)).toEqual([review.id]);
    const comment = await c.commentOnIssue(opened.number, 'Run report');
    expect(comment.html_url).toMatch(new RegExp(`^${t.url}/acme/widgets/pull/${opened.number}#issuecomment-\\d+$`));
    const again = await failureOf(c.createPull({ title: 'ABC-9: x', head: 'feature/ABC-9-x', base: 'development', body: '', draft: false }));
    expect(again).toMatchObject({ failure: 'conflict', status: 422 });
    expect((await ch.pulls('acme/widgets')).filter((p) => p.head === 'feature/ABC-9-x')).toHaveLength(1);
  });

  it('a 429 with Retry-After is retried after the wait, a bounded number of times', async () => {
    const rate = { status: 429, headers: { 'retry-after': '0' } };
    faults.next(rate, rate);
    expect((await client({ apiUrl: faults.api }).user()).login).toBe(CODEHOST_LOGIN);
    faults.next(rate, rate, rate);
    const e = await failureOf(client({ apiUrl: faults.api }).user());
    expect(e.failure).toBe('rate_limited');
  });

  it('a Retry-After longer than the cap is not waited for: rate_limited at once', async () => {
    faults.next({ status: 429, headers: { 'retry-after': '3600' } });
    const started = Date.now();
    expect((await failureOf(client({ apiUrl: faults.api }).user())).failure).toBe('rate_limited');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('403 with the rate limit used up is rate_limited; plain 403, 404 map to forbidden, not_found', async () => {
    faults.next({ status: 403, headers: { 'x-ratelimit-remaining': '0' } });
    expect((await failureOf(client({ apiUrl: faults.api }).user())).failure).toBe('rate_limited');
    faults.next({ status: 403 });
    expect((await failureOf(client({ apiUrl: faults.api }).user())).failure).toBe('forbidden');
    expect((await failureOf(client().pull(999))).failure).toBe('not_found');
  });

  it('a repository the token may not read is not found (404, masked as on GitHub)', async () => {
    const locked = new CodehostClient({ apiUrl: ch.api, token: CODEHOST_TOKEN, repo: { owner: 'acme', name: 'locked' } });
    expect(await failureOf(locked.repository())).toMatchObject({ failure: 'not_found', status: 404 });
  });

  it('a wrong token is unauthorized, and no message carries a token', async () => {
    const e = await failureOf(client({ token: 'github_pat_wrong_123' }).user());
    expect(e).toMatchObject({ failure: 'unauthorized', status: 401 });
    expect(e.message).not.toContain('github_pat_wrong_123');
  });

  it('a redirect is not followed (the token would go along): http_error naming the call', async () => {
    const elsewhere = await server((req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ login: 'elsewhere', auth: req.headers.authorization ?? null }));
    });
    try {
      faults.next({ status: 301, headers: { location: `${elsewhere.url}/user` } });
      const e = await failureOf(client({ apiUrl: faults.api }).user());
      expect(e).toMatchObject({ failure: 'http_error', status: 301 });
      expect(e.message).toContain('GET /user answered a redirect (HTTP 301)');
      expect(e.message).not.toContain(CODEHOST_TOKEN);
    } finally {
      await elsewhere.close();
    }
  });

  it('an answer of the wrong shape is refused before it is used: a list that is not a list, a pull request without a number or an http(s) URL', async () => {
    const pullsOf = () => client({ apiUrl: faults.api }).pulls('feature/ABC-9-x', 'development');
    faults.next({ status: 200, body: JSON.stringify({ items: [] }) });
    expect(await failureOf(pullsOf())).toMatchObject({
      failure: 'http_error',
      message: expect.stringContaining('GET /repos/acme/widgets/pulls answered a list that is not a list'),
    });
    faults.next({ status: 200, body: JSON.stringify([{ html_url: 'https://x.test/1', state: 'open', head: { ref: 'a' }, base: { ref: 'b' } }]) });
    expect((await failureOf(pullsOf())).message).toContain('a pull request without a number');
    faults.next({ status: 201, body: JSON.stringify({ number: 7, html_url: 'javascript:alert(1)', state: 'open', head: { ref: 'a' }, base: { ref: 'b' } }) });
    expect((await failureOf(client({ apiUrl: faults.api }).createPull({ title: 't', head: 'a', base: 'b', body: '', draft: false }))).message).toContain(
      'pull request #7 without an http(s) URL',
    );
    faults.next({ status: 200, body: JSON.stringify({ number: 7, html_url: 'https://x.test/7', state: 'weird', head: { ref: 'a' }, base: { ref: 'b' } }) });
    expect((await failureOf(client({ apiUrl: faults.api }).pull(7))).message).toContain('neither open nor closed');
    faults.next({ status: 200, body: '"a string"' });
    expect((await failureOf(client({ apiUrl: faults.api }).reviews(7))).message).toContain('a list that is not a list');
    faults.next({ status: 200, body: JSON.stringify({ id: 1 }) });
    expect((await failureOf(client({ apiUrl: faults.api }).user())).message).toContain('a user without a login');
  });

  it('ARCHITECTURE §11: one schema per answer shape (pull, pull list, review, review list, comment, user): every field used is checked, exit 1 naming the call', async () => {
    const c = () => client({ apiUrl: faults.api });
    const good = { number: 7, html_url: 'https://x.test/7', state: 'open', title: 't', head: { ref: 'a' }, base: { ref: 'b' } };
    const review = { id: 3, user: { login: 'x' }, body: 'APPROVED — ok', state: 'COMMENTED' };
    const cases: [string, () => Promise<unknown>, unknown, string][] = [
      ['GET', () => c().pull(7), { ...good, number: 0 }, 'GET /repos/acme/widgets/pulls/7 answered a pull request without a number'],
      ['GET', () => c().pull(7), { ...good, number: 7.5 }, 'a pull request without a number'],
      ['GET', () => c().pull(7), { ...good, html_url: 12345 }, 'pull request #7 without an http(s) URL'],
      ['GET', () => c().pull(7), { ...good, head: { ref: 5 } }, 'without its head and base branches'],
      ['GET', () => c().pull(7), { ...good, base: null }, 'without its head and base branches'],
      ['GET', () => c().pull(7), { ...good, state: 'closed', merged: 'yes' }, 'whose "merged" is not true or false'],
      ['GET', () => c().pulls('a', 'b'), [good, null], 'GET /repos/acme/widgets/pulls answered something that is not a pull request'],
      ['GET', () => c().pulls('a', 'b'), { length: 0 }, 'a list that is not a list'],
      ['GET', () => c().reviews(7), [{ ...review, id: '3' }], 'GET /repos/acme/widgets/pulls/7/reviews answered a review without an id'],
      ['GET', () => c().reviews(7), [{ ...review, state: 'LGTM' }], 'review 3 with a state GitHub does not give'],
      ['GET', () => c().reviews(7), [{ ...review, body: { text: 'APPROVED' } }], 'review 3 whose body is not text'],
      ['POST', () => c().createReview(7, 'x'), [review], 'POST /repos/acme/widgets/pulls/7/reviews answered something that is not a review'],
      ['POST', () => c().commentOnIssue(7, 'x'), { id: -1 }, 'POST /repos/acme/widgets/issues/7/comments answered a comment without an id'],
      ['GET', () => c().user(), { login: '\u001b\u0007' }, 'GET /user answered a user without a login'],
      ['GET', () => c().user(), null, 'GET /user answered something that is not a user'],
    ];
    for (const [method, call, body, says] of cases) {
      faults.next({ method, status: method === 'POST' ? 201 : 200, body: JSON.stringify(body) });
      const e = await failureOf(call());
      expect(e, says).toMatchObject({ failure: 'http_error', exitCode: 1 });
      expect(e.message).toContain(says);
      faults.clear();
    }
  });

  it('ARCHITECTURE §11: a redirect is refused for every method, a 307/308 on a POST too (fetch would send the body and token again)', async () => {
    let reached = 0;
    const elsewhere = await server((_req, res) => {
      reached++;
      res.writeHead(201, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ id: 1 }));
    });
    try {
      for (const status of [301, 302, 303, 307, 308]) {
        faults.next({ method: 'POST', status, headers: { location: `${elsewhere.url}/x` }, body: '' });
        const e = await failureOf(client({ apiUrl: faults.api }).commentOnIssue(7, 'Run report'));
        expect(e).toMatchObject({ failure: 'http_error', status });
        expect(e.message).toContain(`POST /repos/acme/widgets/issues/7/comments answered a redirect (HTTP ${status})`);
      }
      expect(reached).toBe(0);
    } finally {
      await elsewhere.close();
    }
  });

  it('ARCHITECTURE §11: an error quotes the code host once and at most 300 characters of it, without control characters', async () => {
    const huge = `${'A'.repeat(100_000)}\u001b[2J`;
    faults.next({ method: 'POST', status: 422, body: JSON.stringify({ message: huge, errors: [{ message: huge }, { message: 'also \u001b]0;t\u0007' }] }) });
    const e = await failureOf(client({ apiUrl: faults.api }).createPull({ title: 't', head: 'a', base: 'b', body: '', draft: false }));
    expect(e).toMatchObject({ failure: 'conflict', status: 422 });
    expect(e.message).toContain('POST /repos/acme/widgets/pulls answered HTTP 422: AAA');
    expect(e.message).toContain('… (99703 more characters)');
    expect(e.message.match(/more characters/g)).toHaveLength(1);
    expect(e.message).toContain('(also ]0;t)');
    expect(e.message.length).toBeLessThan(800);
    expect(e.message).not.toMatch(/[\u0000-\u001f]/);
  });

  it('text kept from an answer has its control characters removed', async () => {
    faults.next({ status: 200, body: JSON.stringify({ login: 'evil\u001b[2Jbot\u0007' }) });
    expect((await client({ apiUrl: faults.api }).user()).login).toBe('evil[2Jbot');
  });

  it('one deadline covers headers and body: a body that stalls ends as timeout', async () => {
    const s = await server((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('[');
    });
    const c = new CodehostClient({ apiUrl: s.url, token: CODEHOST_TOKEN, repo: { owner: 'a', name: 'b' }, limits: { timeoutMs: 300 } });
    const e = await failureOf(c.user());
    expect(e.failure).toBe('timeout');
    expect(e.message).toContain('within 300 ms');
    await s.close();
  });

  it("an unreachable code host is a network failure naming the call and what the network said, never the tracker's settings", async () => {
    const s = await server(() => undefined);
    const url = s.url;
    await s.close();
    const e = await failureOf(new CodehostClient({ apiUrl: url, token: CODEHOST_TOKEN, repo: { owner: 'a', name: 'b' } }).user());
    expect(e.failure).toBe('network');
    expect(e.message).toMatch(/^GET \/user could not reach the code host: .*ECONNREFUSED/);
    expect(e.message).not.toMatch(/TRACKER_|tracker/i);
    expect(e.message).not.toContain(CODEHOST_TOKEN);
  });

  it("calls go over node:http, as the tracker client's do: a process that talks to the code host never loads fetch (undici, tens of ms of start-up)", async () => {
    const s = await server((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"login":"octo"}');
    });
    try {
      const script = [
        `const { CodehostClient } = await import(${JSON.stringify(new URL('../dist/codehost/client.js', import.meta.url).href)});`,
        `const c = new CodehostClient({ apiUrl: ${JSON.stringify(s.url)}, token: 't', repo: { owner: 'a', name: 'b' } });`,
        'const u = await c.user();',
        "console.log(JSON.stringify({ login: u.login, undici: process.moduleLoadList.some((m) => m.includes('undici')) }));",
        'process.exit(0);',
      ].join('\n');
      const { execFile } = await import('node:child_process');
      const out = await new Promise<string>((resolve, reject) =>
        execFile(process.execPath, ['--input-type=module', '-e', script], (err, stdout) => (err ? reject(new Error(err.message)) : resolve(stdout))),
      );
      expect(JSON.parse(out)).toEqual({ login: 'octo', undici: false });
    } finally {
      await s.close();
    }
  });

  it('a body over the byte cap is refused as too_large', async () => {
    const s = await server((_req, res) => {
      res.writeHead(200);
      res.end(`"${'x'.repeat(5000)}"`);
    });
    const c = new CodehostClient({ apiUrl: s.url, token: CODEHOST_TOKEN, repo: { owner: 'a', name: 'b' }, limits: { maxBytes: 1000 } });
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
