import type { IncomingMessage } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adf, createIssue, startTestTracker, storeKinds, type Reply, type TestTracker } from '../../../../test/support/tracker.js';
import type { Who } from '../../../../test/support/seed.js';
import { PostgresChangeFeed } from '../../src/store/postgres/changes.js';

/**
 * The cache of repeated `GET /issue` reads over PostgreSQL (http/issue-read-cache.ts over
 * store/postgres/changes.ts) in one process: whatever it answers is what the route renders at that
 * moment. The oracle is the same read with one more query parameter the route ignores (`&_=n`): a
 * different cache key, so always a fresh render. Two processes: test/read-cache-postgres.test.ts.
 */
const FIELDS = 'summary,description,status,assignee,reporter,comment,subtasks,parent';
let serial = 0;
const fresh = (path: string) => `${path}${path.includes('?') ? '&' : '?'}_=${++serial}`;

function cacheOf(t: TestTracker) {
  const cache = t.server.app.issueReadCache;
  if (!cache) throw new Error('no read cache on this server');
  return cache;
}

/** Reads a path until it is answered from the cache (the change feed listens a moment after the start). */
async function warm(t: TestTracker, who: Who, path: string): Promise<void> {
  await t.as(who).get(path);
  await expect.poll(async () => (await readTwice(t, who, path)).hit, { timeout: 10_000 }).toBe(true);
}

async function readTwice(t: TestTracker, who: Who, path: string) {
  const cache = cacheOf(t);
  const before = cache.hits;
  const got = await t.as(who).get(path);
  const hit = cache.hits > before;
  const oracle = await t.as(who).get(fresh(path));
  return { got, oracle, hit };
}

const postgres = (await storeKinds()).includes('postgres');

describe.skipIf(!postgres)('GET /issue read cache (postgres)', () => {
  let t: TestTracker;
  let executorId: string;
  beforeAll(async () => {
    t = await startTestTracker('postgres');
    executorId = (await t.as('executor').get('/myself')).body.accountId;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers a repeated read from the cache, byte for byte and header for header as the render', async () => {
    const key = await createIssue(t, 'assigner', { description: adf('Cache me'), assignee: { accountId: executorId } });
    const path = `/issue/${key}?fields=${FIELDS}`;
    await warm(t, 'executor', path);
    const first = await t.as('executor').get(fresh(path));
    const hits = cacheOf(t).hits;
    const second = await t.as('executor').get(path);
    expect(cacheOf(t).hits).toBe(hits + 1);
    expect(second.status).toBe(200);
    expect(second.text).toBe(first.text);
    for (const name of ['content-type', 'content-length']) expect(second.headers.get(name)).toBe(first.headers.get(name));
  });

  it("reads in a row within the change feed's lease are answered from the cache without a round trip each", async () => {
    const key = await createIssue(t, 'assigner', { summary: 'Leased' });
    const path = `/issue/${key}?fields=summary`;
    await warm(t, 'executor', path);
    const feed = t.server.tracker.changes;
    if (!(feed instanceof PostgresChangeFeed)) throw new Error('not the PostgreSQL change feed');
    const probes = feed.counts.probes;
    const hits = cacheOf(t).hits;
    for (let i = 0; i < 20; i++) expect((await t.as('executor').get(path)).body.fields.summary).toBe('Leased');
    expect(cacheOf(t).hits).toBe(hits + 20);
    // One round trip per read before the lease; now a background renewal every LEASE_MS / 2 at most.
    expect(feed.counts.probes - probes).toBeLessThan(10);
  });

  it('a write is seen by the next read: edit, comment, assign, transition, sub-task, a related issue', async () => {
    const key = await createIssue(t, 'assigner', { summary: 'Before' });
    const path = `/issue/${key}?fields=${FIELDS}`;
    const assigner = t.as('assigner');
    let child = '';
    const writes: (() => Promise<Reply>)[] = [
      () => assigner.put(`/issue/${key}`, { fields: { summary: 'After' } }),
      () => assigner.post(`/issue/${key}/comment`, { body: adf('A comment') }),
      () => assigner.put(`/issue/${key}/assignee`, { accountId: executorId }),
      async () => {
        const transitions = await assigner.get(`/issue/${key}/transitions`);
        return assigner.post(`/issue/${key}/transitions`, { transition: { id: transitions.body.transitions[0].id } });
      },
      async () => {
        child = await createIssue(t, 'assigner', { issuetype: { name: 'Subtask' }, parent: { key } });
        return { status: 201 } as Reply;
      },
      () => assigner.put(`/issue/${child}`, { fields: { summary: 'Child renamed' } }),
    ];
    for (const write of writes) {
      await warm(t, 'executor', path);
      expect((await write()).status).toBeLessThan(300);
      const { got, oracle } = await readTwice(t, 'executor', path);
      expect(got.text).toBe(oracle.text);
    }
    const last = (await t.as('executor').get(path)).body.fields;
    expect(last.summary).toBe('After');
    expect(last.comment.total).toBe(1);
    expect(last.assignee.accountId).toBe(executorId);
    expect(last.subtasks[0].fields.summary).toBe('Child renamed');
  });

  it('a reply rendered while something was committed is not kept (it may mix old and new rows)', async () => {
    const key = await createIssue(t, 'assigner', {});
    const cache = cacheOf(t);
    const request = { method: 'GET', url: `/ex/jira/x/rest/api/3/issue/${key}?fields=summary`, headers: { host: 'h' } } as unknown as IncomingMessage;
    await expect.poll(() => cache.synced()).toBe(true);
    cache.offer(request, 1, '{"first":true}', cache.current()); // a first read: remembered, not kept
    const before = cache.current();
    await t.as('assigner').put(`/issue/${key}`, { fields: { summary: 'Committed meanwhile' } });
    // The commit's notification has reached this process once it is synced.
    expect(await cache.synced()).toBe(true);
    cache.offer(request, 1, '{"stale":true}', before);
    expect(cache.size).toBe(0);
    cache.offer(request, 1, '{"fresh":true}', cache.current());
    expect(cache.size).toBe(1);
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

  it('stays within its size: oldest replies go first', async () => {
    const small = await startTestTracker('postgres', undefined, { server: { readCacheBytes: 16 * 1024 } });
    try {
      // Every commit empties the cache: the issues first, then the reads.
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
});
