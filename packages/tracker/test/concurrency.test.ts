import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempDatabase, postgresAvailable, type TempDatabase } from '../../../test/support/postgres.js';
import { credentialOf, testSeed, type Who } from '../../../test/support/seed.js';
import { adf, basic, send, startTestTracker, type Reply, type TestTracker } from '../../../test/support/tracker.js';
import { stopProcess } from '../../../scripts/lib/local-services.mjs';
import { commitCount } from './support/sqlite-commits.js';
import { ensureTrackerBuilt, spawnTracker, type TrackerProcess } from '../../../test/support/tracker-process.js';

/**
 * ARCHITECTURE §8: keys come from a per-project counter advanced inside the creating transaction,
 * so no two issues share a key, also with several server processes on one database; writes to one
 * issue from several processes lose nothing.
 */

const CREATES = 400;
const IN_FLIGHT = 50;

/** Runs `work(0..n-1)` with at most `limit` calls in flight; results in index order. */
async function pooled<T>(n: number, limit: number, work: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array<T>(n);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, n) }, async () => {
      while (next < n) {
        const i = next++;
        out[i] = await work(i);
      }
    }),
  );
  return out;
}

const expectedKeys = (n: number) => Array.from({ length: n }, (_, i) => `ABC-${i + 1}`);
const byNumber = (a: string, b: string) => Number(a.split('-')[1]) - Number(b.split('-')[1]);

const call = (api: string, who: Who, method: string, path: string, body?: unknown): Promise<Reply> => {
  const { email, token } = credentialOf(who);
  return send(`${api}${path}`, {
    method,
    headers: { Accept: 'application/json', Authorization: basic(email, token), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
};

const newIssue = (summary: string, project = 'ABC') => ({ fields: { project: { key: project }, issuetype: { name: 'Task' }, summary } });

const postgres = await postgresAvailable();

describe.skipIf(!postgres)('ARCHITECTURE §8: four jst-tracker processes over one PostgreSQL database', () => {
  const children: ChildProcess[] = [];
  let trackers: TrackerProcess[] = [];
  let db: TempDatabase | undefined;
  let dir: string;
  const at = (i: number) => trackers[i % trackers.length]!.api;

  beforeAll(async () => {
    ensureTrackerBuilt();
    db = await createTempDatabase();
    dir = mkdtempSync(join(tmpdir(), 'jst-concurrency-'));
    const seedFile = join(dir, 'seed.json');
    writeFileSync(seedFile, JSON.stringify(testSeed()));
    // All four start at once over an empty database: migrations and the seed must serialise.
    // One that fails to start is killed or has exited; the others are stopped in afterAll.
    const started = await Promise.allSettled(
      [0, 1, 2, 3].map(async () => {
        const t = await spawnTracker(['--database-url', db!.url, '--seed', seedFile]);
        children.push(t.proc);
        return t;
      }),
    );
    const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) throw failed.reason;
    trackers = started.map((s) => (s as PromiseFulfilledResult<TrackerProcess>).value);
  }, 60_000);

  afterAll(async () => {
    await Promise.all(children.map((proc) => stopProcess(proc)));
    await db?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('ARCHITECTURE §8: 400 concurrent creates over 4 processes give 400 × 201 and exactly the keys ABC-1..ABC-400', async () => {
    expect(new Set(trackers.map((c) => c.url)).size).toBe(4);
    const replies = await pooled(CREATES, IN_FLIGHT, (i) => call(at(i), i % 2 ? 'executor' : 'assigner', 'POST', '/issue', newIssue(`Concurrent ${i}`)));
    expect(replies.filter((r) => r.status !== 201).map((r) => `${r.status} ${r.text}`)).toEqual([]);
    const keys = replies.map((r) => (r.body as { key: string }).key);
    expect(new Set(keys).size).toBe(CREATES);
    expect([...keys].sort(byNumber)).toEqual(expectedKeys(CREATES));

    // Each issue reads back, with the summary it was created with, through another process.
    const reads = await pooled(CREATES, IN_FLIGHT, (i) => call(at(i + 1), 'reviewer', 'GET', `/issue/${keys[i]}?fields=summary`));
    expect(reads.filter((r, i) => r.status !== 200 || r.body.key !== keys[i] || r.body.fields.summary !== `Concurrent ${i}`).length).toBe(0);
  }, 45_000);

  it('spec §3: the same transition raced from 4 processes applies once; the others get 400 (the workflow forbids it from the new status)', async () => {
    const key = (await call(at(0), 'assigner', 'POST', '/issue', newIssue('Race me', 'RST'))).body.key as string;
    const transitions = (await call(at(1), 'executor', 'GET', `/issue/${key}/transitions`)).body.transitions as { id: string; to: { name: string } }[];
    const start = transitions.find((tr) => tr.to.name === 'Doing')!;
    const replies = await Promise.all(
      Array.from({ length: 12 }, (_, i) => call(at(i), 'executor', 'POST', `/issue/${key}/transitions`, { transition: { id: start.id } })),
    );
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s === 204)).toHaveLength(1);
    expect(statuses.filter((s) => s !== 204 && s !== 400 && s !== 409)).toEqual([]);
    for (const i of [0, 1, 2, 3]) expect((await call(at(i), 'executor', 'GET', `/issue/${key}?fields=status`)).body.fields.status.name).toBe('Doing');
  });

  it('ARCHITECTURE §8: concurrent edits, assignments and 50 comments from 4 processes lose no update', async () => {
    const key = (await call(at(0), 'assigner', 'POST', '/issue', newIssue('original'))).body.key as string;
    const account = async (who: Who) => (await call(at(0), who, 'GET', '/myself')).body.accountId as string;
    const people = [await account('executor'), await account('reviewer')];
    const summaries = Array.from({ length: 10 }, (_, i) => `edited ${i}`);
    const assignees = Array.from({ length: 20 }, (_, i) => people[i % 2]!);
    const writes = Promise.all([
      ...assignees.map((accountId, i) => call(at(i), 'assigner', 'PUT', `/issue/${key}/assignee`, { accountId })),
      ...summaries.map((summary, i) => call(at(i + 2), 'executor', 'PUT', `/issue/${key}`, { fields: { summary } })),
    ]);
    const comments = Promise.all(
      Array.from({ length: 50 }, (_, i) => call(at(i), i % 2 ? 'reviewer' : 'executor', 'POST', `/issue/${key}/comment`, { body: adf(`comment ${i}`) })),
    );
    const [written, commented] = await Promise.all([writes, comments]);
    // A write either applies (204) or is refused as a conflict (409, which Jira documents); it is
    // never answered 204 and then dropped, and comments never conflict.
    expect(written.filter((r) => r.status !== 204 && r.status !== 409).map((r) => `${r.status} ${r.text}`)).toEqual([]);
    expect(commented.filter((r) => r.status !== 201)).toHaveLength(0);
    const applied = (i: number) => written[i]!.status === 204;
    const appliedAssignees = assignees.filter((_, i) => applied(i));
    const appliedSummaries = summaries.filter((_, i) => applied(assignees.length + i));
    expect(appliedAssignees.length).toBeGreaterThan(0);
    expect(appliedSummaries.length).toBeGreaterThan(0);

    const views = await Promise.all([0, 1, 2, 3].map((i) => call(at(i), 'assigner', 'GET', `/issue/${key}?fields=summary,assignee,comment`)));
    // Every process reads the same row (their `self` links differ only in the port).
    const same = (r: Reply) => r.text.replace(/http:\/\/127\.0\.0\.1:\d+/g, '<base>');
    for (const v of views) expect(same(v)).toBe(same(views[0]!));
    const fields = views[0]!.body.fields;
    // Edits of different fields do not undo each other: the final row carries an applied value of each.
    expect(appliedSummaries).toContain(fields.summary);
    expect(appliedAssignees).toContain(fields.assignee.accountId);
    expect(fields.comment.total).toBe(50);
    const page = await call(at(3), 'viewer', 'GET', `/issue/${key}/comment`);
    expect(page.body.total).toBe(50);
    const texts = (page.body.comments as { body: { content: { content: { text: string }[] }[] } }[]).map((c) => c.body.content[0]!.content[0]!.text);
    expect(new Set(texts)).toEqual(new Set(Array.from({ length: 50 }, (_, i) => `comment ${i}`)));
  });
});

describe('ARCHITECTURE §8: key allocation on SQLite (one process)', () => {
  let t: TestTracker;
  beforeAll(async () => {
    t = await startTestTracker('sqlite');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('ARCHITECTURE §8: 400 concurrent creates give 400 × 201 and exactly the keys ABC-1..ABC-400', async () => {
    const replies = await pooled(CREATES, IN_FLIGHT, (i) => t.as(i % 2 ? 'executor' : 'assigner').post('/issue', newIssue(`Concurrent ${i}`)));
    expect(replies.filter((r) => r.status !== 201).map((r) => `${r.status} ${r.text}`)).toEqual([]);
    const keys = replies.map((r) => (r.body as { key: string }).key);
    expect([...keys].sort(byNumber)).toEqual(expectedKeys(CREATES));
    const reads = await pooled(CREATES, IN_FLIGHT, (i) => t.as('viewer').get(`/issue/${keys[i]}?fields=summary`));
    expect(reads.filter((r, i) => r.status !== 200 || r.body.fields.summary !== `Concurrent ${i}`).length).toBe(0);
  }, 45_000);

  it('ARCHITECTURE §19 group commit: creates, comments and edits of one turn of the event loop are one commit, each answered after it', async () => {
    const store = t.server.store;
    const file = new BetterSqlite3(store.location, { readonly: true });
    try {
      const one = <T>(text: string) => file.prepare(text).get() as T;
      const project = one<{ id: number }>("select id from projects where key = 'ABC'");
      const user = one<{ id: number }>("select user_id as id from members where project_id = (select id from projects where key = 'ABC') and role = 'admin'");
      const status = one<{ id: number }>("select id from statuses where name = 'To Do'");
      const now = new Date().toISOString();
      const create = (summary: string) =>
        store.issues.create(
          {
            projectId: project.id,
            issueType: 'Task',
            summary,
            description: null,
            statusId: status.id,
            parentId: null,
            assigneeId: null,
            reporterId: user.id,
            creatorId: user.id,
            now,
          },
          'ABC',
        );
      const [a, b] = [await create('one turn: a'), await create('one turn: b')];
      const commits = () => commitCount(store.location);
      const before = commits();
      const [c, comment, edited, stale] = await Promise.all([
        create('one turn: c'),
        store.comments.add(a.id, user.id, JSON.stringify({ type: 'doc', version: 1, content: [] }), now, 10),
        store.issues.update(b.id, b.version, { summary: 'one turn: b, edited' }, now),
        // The same version again: the edit before it in the group moved it on, so this one loses.
        store.issues.update(b.id, b.version, { summary: 'one turn: b, lost' }, now),
      ]);
      expect(commits()).toBe(before + 1);
      expect([edited, stale]).toEqual([true, false]);
      expect(file.prepare('select summary from issues where id = ?').pluck().get(c.id)).toBe('one turn: c');
      expect(file.prepare('select summary, version from issues where id = ?').get(b.id)).toEqual({ summary: 'one turn: b, edited', version: b.version + 1 });
      expect(
        file
          .prepare('select count(*) from comments where id = ? and issue_id = ?')
          .pluck()
          .get((comment as { id: number }).id, a.id),
      ).toBe(1);
    } finally {
      file.close();
    }
  });

  it('ARCHITECTURE §8 keys: creates sent together, one refused by the database and three by validation: the others are 201 with the next keys, no gap', async () => {
    // A trigger points one new row at a user who does not exist, as if its assignee had been deleted
    // a moment before: the store refuses it inside the group commit (409, a lost race). That create
    // alone fails, its counter step is undone with it, and the creates grouped with it commit.
    const file = new BetterSqlite3(t.server.store.location);
    file.exec(`create trigger refuse_one after insert on issues when new.summary = 'refused by the database'
      begin update issues set assignee_id = -1 where id = new.id; end`);
    try {
      const last = Math.max(
        0,
        ...(file.prepare("select number from issues i join projects p on p.id = i.project_id where p.key = 'ABC'").pluck().all() as number[]),
      );
      const bodies = [
        ...Array.from({ length: 4 }, (_, i) => newIssue(`Together ${i}`)),
        newIssue('refused by the database'),
        { fields: { ...newIssue('x').fields, summary: 'two\nlines' } },
        ...Array.from({ length: 4 }, (_, i) => newIssue(`Together ${i + 4}`)),
        { fields: { ...newIssue('x').fields, issuetype: { name: 'Epic' } } },
        newIssue('in a project nobody can see', 'NOPE'),
      ];
      const replies = await Promise.all(bodies.map((body) => t.as('assigner').post('/issue', body)));
      expect(replies.map((r) => r.status)).toEqual([201, 201, 201, 201, 409, 400, 201, 201, 201, 201, 400, 400]);
      const keys = replies.filter((r) => r.status === 201).map((r) => (r.body as { key: string }).key);
      expect([...keys].sort(byNumber)).toEqual(Array.from({ length: 8 }, (_, i) => `ABC-${last + i + 1}`));
      const reads = await Promise.all(keys.map((key) => t.as('viewer').get(`/issue/${key}?fields=summary`)));
      expect(new Set(reads.map((r) => r.body.fields.summary))).toEqual(new Set(Array.from({ length: 8 }, (_, i) => `Together ${i}`)));
      expect(file.prepare("select count(*) from issues where summary = 'refused by the database'").pluck().get()).toBe(0);
    } finally {
      file.exec('drop trigger refuse_one');
      file.close();
    }
  });
});
