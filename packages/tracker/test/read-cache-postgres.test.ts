import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopProcess } from '../../../scripts/lib/local-services.mjs';
import { createTempDatabase, postgresAvailable, type TempDatabase } from '../../../test/support/postgres.js';
import { credentialOf, testSeed, type Who } from '../../../test/support/seed.js';
import { adf, basic } from '../../../test/support/tracker.js';
import { spawnTracker, type TrackerProcess } from '../../../test/support/tracker-process.js';
import { buildTracker } from './support/cli-run.js';

/**
 * ARCHITECTURE §19 (several processes) and docs/deploy.md: the read cache over PostgreSQL never
 * answers a read with a view older than a write already answered, whichever of two `jst-tracker
 * serve` processes on one database wrote and whichever reads, for every kind of write that changes
 * an issue's view, also while the cache's LISTEN connection is being killed.
 */

const ROUNDS = 36;

interface Answer {
  status: number;
  body: any;
}

async function call(api: string, who: Who, method: string, path: string, body?: unknown): Promise<Answer> {
  const { email, token } = credentialOf(who);
  const res = await fetch(`${api}${path}`, {
    method,
    headers: { Accept: 'application/json', Authorization: basic(email, token), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
}

async function ok(answer: Promise<Answer>, status: number): Promise<any> {
  const a = await answer;
  expect(a.status, JSON.stringify(a.body)).toBe(status);
  return a.body;
}

const task = (summary: string) => ({ fields: { project: { key: 'ABC' }, issuetype: { name: 'Task' }, summary } });
const subtask = (parent: string, summary: string) => ({
  fields: { project: { key: 'ABC' }, issuetype: { name: 'Subtask' }, summary, parent: { key: parent } },
});
/** The text of an ADF document as the test writes it (adf()). */
const textOf = (doc: any): string => doc?.content?.[0]?.content?.[0]?.text ?? '';

/** One write to issue `key` (or its sub-tasks) through `api`, and what a read must show after its answer. */
type Write = (api: string, key: string, round: number) => Promise<(view: any) => void>;

const subtasks: string[] = [];
let ownComment: string | undefined;

const WRITES: [string, Write][] = [
  [
    'summary',
    async (api, key, round) => {
      await ok(call(api, 'assigner', 'PUT', `/issue/${key}`, { fields: { summary: `summary ${round}` } }), 204);
      return (view) => expect(view.fields.summary).toBe(`summary ${round}`);
    },
  ],
  [
    'status (transition)',
    async (api, key) => {
      const now = (await ok(call(api, 'assigner', 'GET', `/issue/${key}?fields=status`), 200)).fields.status.name as string;
      const { transitions } = await ok(call(api, 'assigner', 'GET', `/issue/${key}/transitions`), 200);
      const to = (transitions as { id: string; to: { name: string } }[]).find((t) => t.to.name !== now)!;
      await ok(call(api, 'assigner', 'POST', `/issue/${key}/transitions`, { transition: { id: to.id } }), 204);
      return (view) => expect(view.fields.status.name).toBe(to.to.name);
    },
  ],
  [
    'comment added',
    async (api, key, round) => {
      const c = await ok(call(api, 'assigner', 'POST', `/issue/${key}/comment`, { body: adf(`comment ${round}`) }), 201);
      ownComment = c.id as string;
      return (view) => expect(view.fields.comment.comments.map((x: any) => textOf(x.body))).toContain(`comment ${round}`);
    },
  ],
  [
    'comment edited',
    async (api, key, round) => {
      await ok(call(api, 'assigner', 'PUT', `/issue/${key}/comment/${ownComment}`, { body: adf(`edited ${round}`) }), 200);
      return (view) => expect(textOf(view.fields.comment.comments.find((x: any) => x.id === ownComment).body)).toBe(`edited ${round}`);
    },
  ],
  [
    'assignee',
    async (api, key, round) => {
      const who = round % 2 === 0 ? 'executor' : 'reviewer';
      const accountId = (await ok(call(api, who, 'GET', '/myself'), 200)).accountId as string;
      await ok(call(api, 'assigner', 'PUT', `/issue/${key}/assignee`, { accountId }), 204);
      return (view) => expect(view.fields.assignee.accountId).toBe(accountId);
    },
  ],
  [
    'description',
    async (api, key, round) => {
      await ok(call(api, 'assigner', 'PUT', `/issue/${key}`, { fields: { description: adf(`description ${round}`) } }), 204);
      return (view) => expect(textOf(view.fields.description)).toBe(`description ${round}`);
    },
  ],
  [
    'sub-task created',
    async (api, key, round) => {
      const child = (await ok(call(api, 'assigner', 'POST', '/issue', subtask(key, `child ${round}`)), 201)).key as string;
      subtasks.push(child);
      return (view) => expect(view.fields.subtasks.map((s: any) => s.key)).toContain(child);
    },
  ],
  [
    "a sub-task's summary",
    async (api, _key, round) => {
      const child = subtasks.at(-1)!;
      await ok(call(api, 'assigner', 'PUT', `/issue/${child}`, { fields: { summary: `child renamed ${round}` } }), 204);
      return (view) => expect(view.fields.subtasks.find((s: any) => s.key === child).fields.summary).toBe(`child renamed ${round}`);
    },
  ],
  [
    'sub-task deleted',
    async (api) => {
      const child = subtasks.pop()!;
      await ok(call(api, 'assigner', 'DELETE', `/issue/${child}`), 204);
      return (view) => expect(view.fields.subtasks.map((s: any) => s.key)).not.toContain(child);
    },
  ],
];

const postgres = await postgresAvailable();

describe.skipIf(!postgres)('ARCHITECTURE §19: the read cache over PostgreSQL, two processes on one database', () => {
  let trackers: TrackerProcess[] = [];
  let db: TempDatabase | undefined;
  let admin: pg.Client;
  let dir: string;
  let key: string;

  beforeAll(async () => {
    buildTracker();
    dir = mkdtempSync(join(tmpdir(), 'jst-pgcache-'));
    const seedFile = join(dir, 'seed.json');
    writeFileSync(seedFile, JSON.stringify(testSeed()));
    db = await createTempDatabase();
    trackers = [await spawnTracker(['--database-url', db.url, '--seed', seedFile])];
    trackers.push(await spawnTracker(['--database-url', db.url]));
    admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    key = (await ok(call(trackers[0]!.api, 'assigner', 'POST', '/issue', task('cached')), 201)).key as string;
  }, 60_000);

  afterAll(async () => {
    await admin?.end();
    await Promise.all(trackers.map((t) => stopProcess(t.proc)));
    await db?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const read = async (api: string) => ok(call(api, 'executor', 'GET', `/issue/${key}`), 200);

  /**
   * Whether `api` answers from its cache: the summary is changed behind every process's back (the
   * triggers off for this one statement, as no writer of the tracker can), so only a kept reply
   * still shows the old one. Put back the same way afterwards.
   */
  async function servedFromCache(api: string): Promise<boolean> {
    await read(api);
    const before = (await read(api)).fields.summary as string;
    await admin.query('begin');
    await admin.query('set local session_replication_role = replica');
    await admin.query(`update issues set summary = 'behind the cache' where key = $1`, [key]);
    await admin.query('commit');
    const seen = (await read(api)).fields.summary as string;
    await admin.query('begin');
    await admin.query('set local session_replication_role = replica');
    await admin.query(`update issues set summary = $2 where key = $1`, [key, before]);
    await admin.query('commit');
    return seen === before;
  }

  /** Ends every process's LISTEN connection, as an administrator or a failover would. */
  const killListeners = () =>
    admin.query(`select pg_terminate_backend(pid, 5000) from pg_stat_activity where datname = current_database() and application_name = 'jst-tracker changes'`);

  it('every table notifies its commits (migration 0008): a table without the trigger would be cached past its writes', async () => {
    const { rows } = await admin.query(
      `select t.tablename from pg_tables t where t.schemaname = current_schema() and t.tablename not like 'kysely\\_%'
         and not exists (select 1 from pg_trigger g join pg_class c on c.oid = g.tgrelid where c.relname = t.tablename and g.tgname = 'jst_changes')`,
    );
    expect(rows).toEqual([]);
  });

  it('both processes answer a repeated read from their cache', async () => {
    for (const t of trackers) await expect.poll(() => servedFromCache(t.api), { timeout: 10_000 }).toBe(true);
  });

  const writeAndRead = async (round: number) => {
    const writer = trackers[round % 2]!.api;
    const reader = trackers[(round + 1) % 2]!.api;
    // The reader holds the view before the write (a key read twice is kept).
    await read(reader);
    await read(reader);
    const [, write] = WRITES[round % WRITES.length]!;
    const check = await write(writer, key, round);
    // Right after the write's answer, from the other process, then from the writer.
    check(await read(reader));
    check(await read(writer));
  };

  it(`${ROUNDS} rounds: a write answered in one process is seen by the next read in the other (summary, status, comments, assignee, description, sub-tasks)`, async () => {
    for (let round = 0; round < ROUNDS; round++) await writeAndRead(round);
    // The rounds ran with the cache in use.
    for (const t of trackers) expect(await servedFromCache(t.api)).toBe(true);
  }, 120_000);

  it('the LISTEN connection killed again and again mid-run: never stale, and the cache comes back once it listens again', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      if (round % 3 === 0) await killListeners();
      await writeAndRead(round);
    }
    for (const t of trackers) await expect.poll(() => servedFromCache(t.api), { timeout: 10_000 }).toBe(true);
  }, 120_000);

  it('while the LISTEN connection is down, nothing is served from the cache', async () => {
    await expect.poll(() => servedFromCache(trackers[1]!.api), { timeout: 10_000 }).toBe(true);
    // Kill and, before the feed is back (it waits 50 ms first), read a change made behind its back.
    await read(trackers[1]!.api);
    await read(trackers[1]!.api);
    await killListeners();
    await admin.query('begin');
    await admin.query('set local session_replication_role = replica');
    await admin.query(`update issues set summary = 'while down' where key = $1`, [key]);
    await admin.query('commit');
    expect((await read(trackers[1]!.api)).fields.summary).toBe('while down');
  });
});
