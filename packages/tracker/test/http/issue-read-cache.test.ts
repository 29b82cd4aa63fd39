import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { request, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adf, basic, createIssue, send, startTestTracker, storeKinds, type Reply, type TestTracker } from '../../../../test/support/tracker.js';
import { credentialOf, EMAILS, TOKENS, testSeed, type Who } from '../../../../test/support/seed.js';
import { parseSeed, startServer } from '../../src/index.js';
import { REMEMBER_MS } from '../../src/domain/tracker.js';

/**
 * The cache of repeated `GET /issue` reads (http/issue-read-cache.ts): whatever it answers must be
 * what the route renders at that moment. The oracle throughout is the same read with one more
 * query parameter the route ignores (`&_=n`): a different cache key, so always a fresh render.
 */
const FIELDS = 'summary,description,status,assignee,reporter,comment,subtasks,parent';
let serial = 0;
const fresh = (path: string) => `${path}${path.includes('?') ? '&' : '?'}_=${++serial}`;

function cacheOf(t: TestTracker) {
  const cache = t.server.app.issueReadCache;
  if (!cache) throw new Error('no read cache on this server');
  return cache;
}

/** Reads a path twice: a reply is kept on its key's second read, so the next one is answered from the cache. */
async function warm(t: TestTracker, who: Who, path: string): Promise<void> {
  await t.as(who).get(path);
  await t.as(who).get(path);
}

/** A read, its fresh-render twin, and whether the first came from the cache. */
async function readTwice(t: TestTracker, who: Who, path: string, form: 'gateway' | 'site' = 'gateway') {
  const cache = cacheOf(t);
  const before = cache.hits;
  const got = await t.as(who, form).get(path);
  const hit = cache.hits > before;
  const oracle = await t.as(who, form).get(fresh(path));
  return { got, oracle, hit };
}

function getWithHost(url: string, host: string, authorization: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    request(url, { headers: { host, authorization } }, (res) => {
      let text = '';
      res
        .setEncoding('utf8')
        .on('data', (chunk: string) => {
          text += chunk;
        })
        .on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
    })
      .on('error', reject)
      .end();
  });
}

describe('GET /issue read cache (sqlite)', () => {
  let t: TestTracker;
  let executorId: string;
  beforeAll(async () => {
    t = await startTestTracker('sqlite');
    executorId = (await t.as('executor').get('/myself')).body.accountId;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers a repeated read from the cache, byte for byte and header for header as the render', async () => {
    const key = await createIssue(t, 'assigner', { description: adf('Cache me'), assignee: { accountId: executorId } });
    const path = `/issue/${key}?fields=${FIELDS}`;
    await t.as('executor').get(path);
    const first = await t.as('executor').get(path);
    const hits = cacheOf(t).hits;
    const second = await t.as('executor').get(path);
    expect(cacheOf(t).hits).toBe(hits + 1);
    expect(second.status).toBe(200);
    expect(second.text).toBe(first.text);
    for (const name of ['content-type', 'content-length', 'connection', 'keep-alive']) {
      expect(second.headers.get(name), name).toBe(first.headers.get(name));
    }
    expect([...second.headers.keys()].sort()).toEqual([...first.headers.keys()].sort());
  });

  it('a write by this process is seen by the next read: edit, comment, assign, transition', async () => {
    const key = await createIssue(t, 'assigner', { summary: 'Before' });
    const path = `/issue/${key}?fields=${FIELDS}`;
    const assigner = t.as('assigner');
    const writes: (() => Promise<Reply>)[] = [
      () => assigner.put(`/issue/${key}`, { fields: { summary: 'After' } }),
      () => assigner.post(`/issue/${key}/comment`, { body: adf('A comment') }),
      () => assigner.put(`/issue/${key}/assignee`, { accountId: executorId }),
      async () => {
        const transitions = await assigner.get(`/issue/${key}/transitions`);
        return assigner.post(`/issue/${key}/transitions`, { transition: { id: transitions.body.transitions[0].id } });
      },
      () => createIssue(t, 'assigner', { issuetype: { name: 'Subtask' }, parent: { key } }).then(() => ({ status: 201 }) as Reply),
    ];
    for (const write of writes) {
      await warm(t, 'executor', path);
      expect((await readTwice(t, 'executor', path)).hit).toBe(true);
      expect((await write()).status).toBeLessThan(300);
      const { got, oracle, hit } = await readTwice(t, 'executor', path);
      expect(hit).toBe(false);
      expect(got.text).toBe(oracle.text);
    }
    const last = (await t.as('executor').get(path)).body.fields;
    expect(last.summary).toBe('After');
    expect(last.comment.total).toBe(1);
    expect(last.assignee.accountId).toBe(executorId);
    expect(last.status.name).not.toBe('To Do');
    expect(last.subtasks).toHaveLength(1);
  });

  it("a change to a related issue is seen too: the parent's summary inside its sub-task", async () => {
    const parent = await createIssue(t, 'assigner', { summary: 'Parent v1' });
    const child = await createIssue(t, 'assigner', { issuetype: { name: 'Subtask' }, parent: { key: parent } });
    const path = `/issue/${child}?fields=parent`;
    await warm(t, 'executor', path);
    expect((await readTwice(t, 'executor', path)).hit).toBe(true);
    await t.as('assigner').put(`/issue/${parent}`, { fields: { summary: 'Parent v2' } });
    expect((await t.as('executor').get(path)).body.fields.parent.fields.summary).toBe('Parent v2');
  });

  it('a commit by another connection to the database file (another process) is seen by the next read', async () => {
    const key = await createIssue(t, 'assigner', { summary: 'Seen by this process' });
    const path = `/issue/${key}?fields=summary`;
    await warm(t, 'executor', path);
    expect((await readTwice(t, 'executor', path)).hit).toBe(true);
    const other = new Database(t.server.store.location);
    try {
      other.prepare('update issues set summary = ? where key = ?').run('Changed elsewhere', key);
    } finally {
      other.close();
    }
    const { got, hit } = await readTwice(t, 'executor', path);
    expect(hit).toBe(false);
    expect(got.body.fields.summary).toBe('Changed elsewhere');
  });

  it('a caller removed from the project elsewhere gets 404 at once, not the cached reply', async () => {
    const key = await createIssue(t, 'assigner', {});
    const path = `/issue/${key}?fields=summary`;
    await warm(t, 'reviewer', path);
    expect((await readTwice(t, 'reviewer', path)).hit).toBe(true);
    const other = new Database(t.server.store.location);
    const user = other.prepare('select id from users where email = ?').get(EMAILS.reviewer) as { id: number };
    const project = other.prepare("select id from projects where key = 'ABC'").get() as { id: number };
    const role = other.prepare('select role from members where project_id = ? and user_id = ?').pluck().get(project.id, user.id);
    try {
      other.prepare('delete from members where project_id = ? and user_id = ?').run(project.id, user.id);
      expect((await t.as('reviewer').get(path)).status).toBe(404);
    } finally {
      other.prepare('insert into members (project_id, user_id, role) values (?, ?, ?)').run(project.id, user.id, role);
      other.close();
    }
    expect((await t.as('reviewer').get(path)).status).toBe(200);
  });

  it('keeps a reply on the second read of its key, not the first: reads never repeated cost no copy', async () => {
    const small = await startTestTracker('sqlite');
    try {
      const cache = cacheOf(small);
      const keys: string[] = [];
      for (let i = 0; i < 5; i++) keys.push(await createIssue(small, 'assigner', {}));
      const hits = cache.hits;
      for (const key of keys) expect((await small.as('executor').get(`/issue/${key}?fields=summary`)).status).toBe(200);
      expect(cache.size).toBe(0);
      expect(cache.bytesUsed).toBe(0);
      await small.as('executor').get(`/issue/${keys[0]}?fields=summary`);
      expect(cache.size).toBe(1);
      expect(cache.hits).toBe(hits);
      const third = await small.as('executor').get(`/issue/${keys[0]}?fields=summary`);
      expect(cache.hits).toBe(hits + 1);
      expect(third.body.key).toBe(keys[0]);
      // Another user's first read of the same key is that user's first: not kept.
      await small.as('reviewer').get(`/issue/${keys[0]}?fields=summary`);
      expect(cache.size).toBe(1);
    } finally {
      await small.close();
    }
  });

  it('once full, the cache replaces entries only as often as its entries are hit: reads spread wider than it holds cost it little', async () => {
    const small = await startTestTracker('sqlite', undefined, { server: { readCacheBytes: 16 * 1024 } });
    try {
      const cache = cacheOf(small);
      const path = (key: string) => `/issue/${key}?fields=summary`;
      // Every issue first: a commit empties the cache.
      const created: string[] = [];
      for (let i = 0; i < 40; i++) created.push(await createIssue(small, 'assigner', {}));
      const keys: string[] = [];
      // Fill it: each key read twice is kept, until what is left is less than a large reply.
      while (cache.bytesUsed + 8 * 1024 <= 16 * 1024) {
        const key = created.shift()!;
        keys.push(key);
        await warm(small, 'executor', path(key));
        expect(cache.size).toBe(keys.length);
      }
      const full = cache.size;
      expect(full).toBeGreaterThan(1);
      // Full and no hit yet: a new key read twice pushes nothing out.
      const newcomer = created.shift()!;
      await warm(small, 'executor', path(newcomer));
      expect(cache.size).toBe(full);
      const hits = cache.hits;
      expect((await small.as('executor').get(path(newcomer))).body.key).toBe(newcomer);
      expect(cache.hits).toBe(hits);
      // One hit earns one replacement: the newcomer's next read is kept.
      expect((await small.as('executor').get(path(keys[keys.length - 1]!))).body.key).toBe(keys[keys.length - 1]);
      expect(cache.hits).toBe(hits + 1);
      await small.as('executor').get(path(newcomer));
      expect(cache.size).toBe(full + 1);
      const { got, hit } = await readTwice(small, 'executor', path(newcomer));
      expect(hit).toBe(true);
      expect(got.body.key).toBe(newcomer);
      // That hit earned the next one; without it a third key would stay out, as the second did at first.
      const third = created.shift()!;
      await warm(small, 'executor', path(third));
      expect(cache.size).toBe(full + 2);
      const fourth = created.shift()!;
      await warm(small, 'executor', path(fourth));
      await small.as('executor').get(path(fourth));
      expect(cache.size).toBe(full + 2);
      expect(cache.bytesUsed).toBeLessThanOrEqual(16 * 1024);
    } finally {
      await small.close();
    }
  });

  it('once full of replies never hit, a key read again gets in when they have outlived a remembered sign-in (5 s)', async () => {
    const small = await startTestTracker('sqlite', undefined, { server: { readCacheBytes: 16 * 1024 } });
    try {
      const cache = cacheOf(small);
      const path = (key: string) => `/issue/${key}?fields=summary`;
      const created: string[] = [];
      for (let i = 0; i < 40; i++) created.push(await createIssue(small, 'assigner', {}));
      // Filled by keys each read twice (kept) and never again: no hit, so no replacement earned.
      while (cache.bytesUsed + 8 * 1024 <= 16 * 1024) await warm(small, 'executor', path(created.shift()!));
      const full = cache.size;
      const hot = created.shift()!;
      await warm(small, 'executor', path(hot));
      expect(cache.size).toBe(full);
      // Once the cold replies have expired they can never be served: the hot key takes their room.
      await new Promise((resolve) => setTimeout(resolve, REMEMBER_MS + 200));
      await small.as('executor').get(path(hot));
      const { got, hit } = await readTwice(small, 'executor', path(hot));
      expect(hit).toBe(true);
      expect(got.body.key).toBe(hot);
      expect(cache.bytesUsed).toBeLessThanOrEqual(16 * 1024);
    } finally {
      await small.close();
    }
  }, 20_000);

  it('a reply rendered while something was committed is not kept (it may mix old and new rows)', async () => {
    const key = await createIssue(t, 'assigner', {});
    const cache = cacheOf(t);
    const request = { method: 'GET', url: `/ex/jira/x/rest/api/3/issue/${key}?fields=summary`, headers: { host: 'h' } } as unknown as IncomingMessage;
    cache.offer(request, 1, '{"first":true}', cache.current()); // a first read: remembered, not kept
    expect(cache.size).toBe(0);
    const before = cache.current();
    await t.as('assigner').put(`/issue/${key}`, { fields: { summary: 'Committed meanwhile' } });
    cache.offer(request, 1, '{"stale":true}', before);
    expect(cache.size).toBe(0);
    cache.offer(request, 1, '{"fresh":true}', cache.current());
    expect(cache.size).toBe(1);
  });

  it('every user has their own reply: emailAddress only for its owner (spec §2)', async () => {
    const key = await createIssue(t, 'assigner', { assignee: { accountId: executorId } });
    const path = `/issue/${key}?fields=assignee`;
    for (let round = 0; round < 2; round++) {
      expect((await t.as('executor').get(path)).body.fields.assignee.emailAddress).toBe(EMAILS.executor);
      expect((await t.as('reviewer').get(path)).body.fields.assignee.emailAddress).toBeUndefined();
    }
  });

  it("wrong, missing and other users' credentials are refused on a cached key as on any other", async () => {
    const key = await createIssue(t, 'assigner', {});
    const path = `/issue/${key}?fields=summary`;
    await warm(t, 'executor', path);
    expect((await readTwice(t, 'executor', path)).hit).toBe(true);
    const url = `${t.api}${path}`;
    const wrong = await send(url, { headers: { authorization: basic(EMAILS.executor, 'not-the-token') } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('x-seraph-loginreason')).toBe('AUTHENTICATED_FAILED');
    expect((await send(url, {})).status).toBe(401);
    expect((await send(url, { headers: { authorization: `Bearer ${TOKENS.executor}` } })).status).toBe(401);
    expect((await t.as('outsider').get(path)).status).toBe(404);
    // A scoped token on the site form is refused there, though it read the same key via the gateway.
    await warm(t, 'scopedRead', path);
    expect((await readTwice(t, 'scopedRead', path)).hit).toBe(true);
    const site = await send(`${t.siteApi}${path}`, { headers: { authorization: basic(credentialOf('scopedRead').email, TOKENS.scopedRead) } });
    expect(site.status).toBe(401);
  });

  it('address forms, hosts and query strings do not share replies', async () => {
    const key = await createIssue(t, 'assigner', {});
    const gateway = await t.as('executor').get(`/issue/${key}?fields=summary`);
    const site = await t.as('executor', 'site').get(`/issue/${key}?fields=summary`);
    const again = await t.as('executor', 'site').get(`/issue/${key}?fields=summary`);
    expect(gateway.body.self).toBe(`${t.api}/issue/${gateway.body.id}`);
    expect(site.body.self).toBe(`${t.siteApi}/issue/${site.body.id}`);
    expect(again.text).toBe(site.text);
    const status = await t.as('executor').get(`/issue/${key}?fields=status`);
    expect(Object.keys(status.body.fields)).toEqual(['status']);
    // fetch() sets Host itself: ask with node:http to name another one.
    const other = await getWithHost(`${t.api}/issue/${key}?fields=summary`, 'other.example:1234', basic(EMAILS.executor, TOKENS.executor));
    expect(other.body.self).toBe(`http://other.example:1234/ex/jira/${t.api.split('/ex/jira/')[1]!.split('/')[0]}/rest/api/3/issue/${gateway.body.id}`);
  });

  it('a GET with a body, a trailing slash or an encoded key is answered by the router, as before', async () => {
    const key = await createIssue(t, 'assigner', {});
    const path = `/issue/${key}?fields=summary`;
    await warm(t, 'executor', path);
    const auth = basic(EMAILS.executor, TOKENS.executor);
    const hits = cacheOf(t).hits;
    const slash = await send(`${t.api}/issue/${key}/?fields=summary`, { headers: { authorization: auth } });
    const encoded = await send(`${t.api}/issue/${key.replace('-', '%2D')}?fields=summary`, { headers: { authorization: auth } });
    expect(cacheOf(t).hits).toBe(hits);
    expect(slash.status).toBe(200);
    expect(encoded.status).toBe(200);
    expect(encoded.body.key).toBe(key);
  });

  it('stays within its size: oldest replies go first', async () => {
    const small = await startTestTracker('sqlite', undefined, { server: { readCacheBytes: 16 * 1024 } });
    try {
      const keys: string[] = [];
      for (let i = 0; i < 20; i++) keys.push(await createIssue(small, 'assigner', { description: adf(`Issue ${i} `.repeat(60)) }));
      for (const key of keys) {
        await warm(small, 'executor', `/issue/${key}?fields=summary,description`);
        expect(cacheOf(small).bytesUsed).toBeLessThanOrEqual(16 * 1024);
      }
      expect(cacheOf(small).size).toBeGreaterThan(0);
      expect(cacheOf(small).size).toBeLessThan(keys.length);
      const hits = cacheOf(small).hits;
      await small.as('executor').get(`/issue/${keys.at(-1)}?fields=summary,description`);
      await small.as('executor').get(`/issue/${keys[0]}?fields=summary,description`);
      expect(cacheOf(small).hits).toBe(hits + 1);
    } finally {
      await small.close();
    }
  });

  it('behind a trusted proxy, X-Forwarded-Host and -Proto are part of the key', async () => {
    const proxied = await startTestTracker('sqlite', undefined, { server: { trustProxy: true } });
    try {
      const key = await createIssue(proxied, 'assigner', {});
      const auth = basic(EMAILS.executor, TOKENS.executor);
      const read = (host: string, proto: string) =>
        send(`${proxied.siteApi}/issue/${key}?fields=summary`, { headers: { authorization: auth, 'x-forwarded-host': host, 'x-forwarded-proto': proto } });
      for (let round = 0; round < 2; round++) {
        expect((await read('a.example', 'https')).body.self).toMatch(/^https:\/\/a\.example\/rest\/api\/3\/issue\//);
        expect((await read('b.example', 'https')).body.self).toMatch(/^https:\/\/b\.example\/rest\/api\/3\/issue\//);
        expect((await read('a.example', 'http')).body.self).toMatch(/^http:\/\/a\.example\/rest\/api\/3\/issue\//);
      }
    } finally {
      await proxied.close();
    }
  });

  it('is off when requests are logged (--log-level info or debug): every read shows in the log', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jst-cache-log-'));
    let logs = '';
    const server = await startServer({
      port: 0,
      dataDir: dir,
      seed: parseSeed(testSeed()),
      logLevel: 'info',
      logStream: {
        write: (line: string) => {
          logs += line;
        },
      },
    });
    try {
      expect(server.app.issueReadCache).toBeNull();
      expect(server.app.issueReadFront).toBeNull();
      const auth = basic(EMAILS.assigner, TOKENS.assigner);
      const api = `${server.url}/rest/api/3`;
      const created = await send(`${api}/issue`, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: JSON.stringify({ fields: { project: { key: 'ABC' }, issuetype: { name: 'Task' }, summary: 'Logged' } }),
      });
      for (let i = 0; i < 3; i++)
        expect((await send(`${api}/issue/${created.body.key}?fields=summary`, { headers: { authorization: auth } })).status).toBe(200);
      expect(logs.split('\n').filter((l) => l.includes('incoming request') && l.includes(`/issue/${created.body.key}`)).length).toBe(3);
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is off with readCacheBytes 0, and on over PostgreSQL too (its change feed: issue-read-cache-postgres.test.ts)', async () => {
    const off = await startTestTracker('sqlite', undefined, { server: { readCacheBytes: 0 } });
    try {
      expect(off.server.app.issueReadCache).toBeNull();
    } finally {
      await off.close();
    }
    if ((await storeKinds()).includes('postgres')) {
      const pg = await startTestTracker('postgres');
      try {
        expect(pg.server.app.issueReadCache?.mustSync).toBe(true);
      } finally {
        await pg.close();
      }
    }
  });

  it('property: after any interleaving of concurrent reads and writes, every read equals a fresh render', async () => {
    const key = await createIssue(t, 'assigner', { summary: 'Raced' });
    const path = `/issue/${key}?fields=summary,comment,assignee`;
    const op = fc.constantFrom('read', 'read', 'read', 'edit', 'comment', 'assign');
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), async (ops) => {
        await Promise.all(
          ops.map((o, i) => {
            switch (o) {
              case 'edit':
                return t.as('assigner').put(`/issue/${key}`, { fields: { summary: `Raced ${i} ${serial++}` } });
              case 'comment':
                return t.as('assigner').post(`/issue/${key}/comment`, { body: adf(`c${i}`) });
              case 'assign':
                return t.as('assigner').put(`/issue/${key}/assignee`, { accountId: i % 2 ? executorId : null });
              default:
                return t.as('executor').get(path);
            }
          }),
        );
        const { got, oracle } = await readTwice(t, 'executor', path);
        expect(got.text).toBe(oracle.text);
      }),
      { numRuns: 25 },
    );
  });
});
