import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTempDatabase, postgresAvailable, type TempDatabase } from '../../../test/support/postgres.js';
import type { Db } from '../src/store/db.js';
import { changeNotifyMigration } from '../src/store/migration-0008-change-notify.js';
import { PostgresChangeFeed } from '../src/store/postgres/changes.js';
import { ALONE_MS, CONNECTING_APPLICATION, FEED_APPLICATION, LEASE_MS, SYNC_CHANNEL, SYNC_TIMEOUT_MS } from '../src/store/postgres/feed-protocol.js';
import { openPostgres } from '../src/store/postgres/connection.js';

/**
 * The change feed's lease and the writers' wait for acknowledgements (store/postgres/changes.ts,
 * postgres/connection.ts), one process standing in for several: `writer` is a store as a
 * `jst-tracker serve` process opens it, every other feed is another process's. Across real
 * processes over HTTP: test/read-cache-postgres.test.ts.
 */

/** A process that receives every notification but never answers a write's question (stopped, or stuck). */
class StalledFeed extends PostgresChangeFeed {
  protected override acknowledge(): void {}
}

const postgres = await postgresAvailable();
const onError = () => undefined;

async function healthy(feed: PostgresChangeFeed): Promise<void> {
  for (let waited = 0; !feed.healthy; waited += 10) {
    if (waited > 10_000) throw new Error('the change feed did not listen within 10 s');
    await sleep(10);
  }
}

describe.skipIf(!postgres)('the change feed over PostgreSQL: leases and acknowledged writes', () => {
  let db: TempDatabase;
  let writer: Db;
  let admin: pg.Client;
  const opened: PostgresChangeFeed[] = [];
  const feed = (options?: { leaseMs?: number }) => {
    const f = new PostgresChangeFeed(db.url, onError, options);
    opened.push(f);
    return f;
  };
  const own = () => {
    const f = writer.changes!();
    if (!(f instanceof PostgresChangeFeed)) throw new Error('not the PostgreSQL change feed');
    return f;
  };
  let round = 0;
  /** One autocommit write through the store's pool; how long it took to return. */
  const write = async (): Promise<number> => {
    const start = performance.now();
    await sql`update things set n = ${++round}`.execute(writer.kysely);
    return performance.now() - start;
  };
  /** Backends of the test database's feeds, as a writer lists them. */
  const listed = async (): Promise<number[]> =>
    (await admin.query(`select pid from pg_stat_activity where application_name = $1 and datname = current_database()`, [FEED_APPLICATION])).rows.map(
      (r: { pid: number }) => r.pid,
    );

  beforeAll(async () => {
    db = await createTempDatabase();
    writer = openPostgres(db.url, {});
    await sql`create table things (id serial primary key, n integer not null)`.execute(writer.kysely);
    await sql`insert into things (n) values (0)`.execute(writer.kysely);
    await changeNotifyMigration('postgres').up(writer.kysely);
    admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    await healthy(own());
  }, 30_000);

  afterAll(async () => {
    await Promise.all(opened.map((f) => f.close()));
    await admin?.end();
    await writer?.close();
    await db?.drop();
  });

  it('a process that knows itself alone answers its writes without a statement; a feed that starts meanwhile is fresh only once it has counted every write answered since', async () => {
    // Alone (no other feed): after the first write lists nobody, the next ones answer at once.
    const alone = own().counts.alone;
    for (let i = 0; i < 5; i++) await write();
    expect(own().counts.alone).toBeGreaterThan(alone);
    // A feed opens while the writes go on: whenever it says fresh right after a write answered,
    // it has counted that write's notification (it was listed and acknowledged, or its first proof
    // came after the write's commit).
    let late: PostgresChangeFeed | null = null;
    let checked = 0;
    for (let i = 0; i < 150; i++) {
      if (i === 10) late = feed();
      const before = late?.counts.notifications ?? 0;
      const listening = late?.healthy ?? false;
      await write();
      if (late && listening && late.fresh()) {
        expect(late.counts.notifications).toBeGreaterThan(before);
        checked++;
      }
    }
    expect(late?.healthy).toBe(true);
    expect(checked).toBeGreaterThan(0);
    await late?.close();
  });

  it('a process alone on its database asks nobody (no notification, no wait); with another feed listening it asks, and only that one answers', async () => {
    const heard: string[] = [];
    const listener = new pg.Client({ connectionString: db.url });
    await listener.connect();
    listener.on('notification', (m) => {
      if (m.channel === SYNC_CHANNEL) heard.push(m.payload ?? '');
    });
    await listener.query(`listen ${SYNC_CHANNEL}`);
    try {
      await write();
      // Every notification committed before this statement began arrives ahead of its answer.
      await listener.query('select 1');
      expect(heard).toEqual([]);
      const other = feed();
      await healthy(other);
      // A writer's list of the other feeds may be ALONE_MS old (a process alone answers without asking): past that, it lists this one.
      await sleep(ALONE_MS + 10);
      const acks = other.counts.acks;
      await write();
      await listener.query('select 1');
      expect(heard).toHaveLength(1);
      expect(other.counts.acks).toBe(acks + 1);
      // The writer's own feed never answers its own process's writes.
      expect(own().counts.acks).toBe(0);
    } finally {
      await listener.end();
    }
  });

  it('the lease: a hit right after a proof costs no round trip; past half the lease one probe renews it in the background', async () => {
    const reader = feed({ leaseMs: 2000 });
    await healthy(reader);
    expect(await reader.synced()).toBe(true);
    const probes = reader.counts.probes;
    for (let i = 0; i < 20; i++) {
      expect(reader.fresh()).toBe(true);
      expect(await reader.synced()).toBe(true);
    }
    expect(reader.counts.probes).toBe(probes);
    await sleep(1100);
    // Still within the lease, so served at once, and one probe (never two at a time) renews it.
    expect(reader.fresh()).toBe(true);
    expect(reader.fresh()).toBe(true);
    expect(reader.counts.probes).toBe(probes + 1);
    await expect.poll(() => reader.fresh() && reader.counts.probes === probes + 1).toBe(true);
  });

  it('once the lease has run out (an idle process) a hit waits for a fresh probe', async () => {
    const reader = feed();
    await healthy(reader);
    expect(await reader.synced()).toBe(true);
    await sleep(LEASE_MS + 30);
    const probes = reader.counts.probes;
    expect(reader.fresh()).toBe(false);
    const synced = reader.synced();
    expect(reader.counts.probes).toBeGreaterThan(probes);
    expect(await synced).toBe(true);
    expect(reader.fresh()).toBe(true);
  });

  it('a write returns only once every listening feed has acknowledged it, so none can hold a view from before it', async () => {
    const reader = feed();
    await healthy(reader);
    const timeouts = own().counts.timeouts;
    for (let i = 0; i < 10; i++) {
      const version = reader.version();
      const acks = reader.counts.acks;
      const took = await write();
      // Checked the moment the write returned: the reader has counted the commit, and said so.
      expect(reader.version()).toBeGreaterThan(version);
      expect(reader.counts.acks).toBeGreaterThan(acks);
      expect(took).toBeLessThan(SYNC_TIMEOUT_MS);
    }
    expect(own().counts.timeouts).toBe(timeouts);
  });

  it('a peer that never acknowledges: the write answers after the timeout, and the peer then serves nothing it kept without a probe', async () => {
    const stalled = new StalledFeed(db.url, onError);
    opened.push(stalled);
    await healthy(stalled);
    expect(await stalled.synced()).toBe(true);
    const timeouts = own().counts.timeouts;
    const took = await write();
    expect(took).toBeGreaterThanOrEqual(SYNC_TIMEOUT_MS - 5);
    expect(own().counts.timeouts).toBe(timeouts + 1);
    // Its last proof was sent before the commit, more than the timeout ago: the lease is gone.
    const probes = stalled.counts.probes;
    expect(stalled.fresh()).toBe(false);
    expect(await stalled.synced()).toBe(true);
    expect(stalled.counts.probes).toBeGreaterThan(probes);
    await stalled.close();
    // Once its connection is gone, writes no longer wait for it.
    await expect.poll(async () => (await write()) < SYNC_TIMEOUT_MS, { timeout: 10_000 }).toBe(true);
  });

  it('a connection still connecting (not yet named a feed) is not waited for; once named, it is', async () => {
    const peer = new pg.Client({ connectionString: db.url, application_name: CONNECTING_APPLICATION });
    await peer.connect();
    try {
      await peer.query(`listen ${SYNC_CHANNEL}`);
      expect(await write()).toBeLessThan(SYNC_TIMEOUT_MS);
      await peer.query(`set application_name = '${FEED_APPLICATION}'`);
      expect(await write()).toBeGreaterThanOrEqual(SYNC_TIMEOUT_MS - 5);
    } finally {
      await peer.end();
    }
    await expect.poll(async () => (await write()) < SYNC_TIMEOUT_MS, { timeout: 10_000 }).toBe(true);
  });

  it('a feed takes the name writers wait for only after its LISTENs answered', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const query = pg.Client.prototype.query as unknown as (this: pg.Client, ...args: unknown[]) => unknown;
    const spy = vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args: unknown[]): never {
      const text = args[0];
      const run = () => query.apply(this, args);
      return (typeof text === 'string' && text.startsWith('listen ') ? held.then(run) : run()) as never;
    });
    const before = await listed();
    const late = feed();
    try {
      // Connected, its LISTENs held back: listed under the connecting name only, and not waited for.
      await expect
        .poll(
          async () => (await admin.query(`select count(*)::int as n from pg_stat_activity where application_name = $1`, [CONNECTING_APPLICATION])).rows[0].n,
        )
        .toBe(1);
      expect(await listed()).toEqual(before);
      expect(late.healthy).toBe(false);
      expect(await write()).toBeLessThan(SYNC_TIMEOUT_MS);
    } finally {
      release();
      spy.mockRestore();
    }
    await healthy(late);
    expect((await listed()).length).toBe(before.length + 1);
    const version = late.version();
    await write();
    expect(late.version()).toBeGreaterThan(version);
  });

  it('only commits that wrote wait: a read-only transaction does not, a transaction that wrote waits once, a SELECT that writes waits', async () => {
    const syncs = () => own().counts.syncs;
    let before = syncs();
    await writer.kysely.transaction().execute(async (tx) => {
      await sql`select n from things`.execute(tx);
      await sql`select n from things for update`.execute(tx);
    });
    await sql`select n from things`.execute(writer.kysely);
    expect(syncs()).toBe(before);
    before = syncs();
    await writer.kysely.transaction().execute(async (tx) => {
      await sql`update things set n = n + 1`.execute(tx);
      await sql`update things set n = n + 1`.execute(tx);
      expect(syncs()).toBe(before);
    });
    expect(syncs()).toBe(before + 1);
    await sql`with done as (update things set n = n + 1 returning n) select n from done`.execute(writer.kysely);
    expect(syncs()).toBe(before + 2);
    // A failed transaction commits nothing: its COMMIT answers ROLLBACK.
    await expect(
      writer.kysely.transaction().execute(async (tx) => {
        await sql`update things set n = n + 1`.execute(tx);
        await sql`select 1/0`.execute(tx);
      }),
    ).rejects.toThrow();
    expect(syncs()).toBe(before + 2);
  });
});
