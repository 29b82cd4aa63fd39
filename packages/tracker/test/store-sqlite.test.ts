import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { sql, type Kysely, type Transaction } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { Db } from '../src/store/db.js';
import { openDb } from '../src/store/open-db.js';
import { BACKSTOP_PAGES, startCheckpointer } from '../src/store/sqlite/checkpointer.js';
import { commitCount } from './support/sqlite-commits.js';

/**
 * The SQLite store's own machinery: WAL checkpoints on a thread of their own, the data version
 * that tells the read cache about commits, and reads that skip Kysely's queue only outside a
 * transaction.
 */

const dirs: string[] = [];
const dbs: Db[] = [];
function open(): { db: Db; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'jst-store-'));
  dirs.push(dir);
  const db = openDb({ dataDir: dir });
  dbs.push(db);
  return { db, file: join(dir, 'tracker.sqlite') };
}
/** The tests' own scratch table is not in the store's schema type. */
type Scratch = { t: { x: string } };
const scratch = (db: Db) => db.kysely as unknown as Kysely<Scratch>;

afterEach(async () => {
  for (const db of dbs.splice(0)) await db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const until = async (what: () => boolean, ms = 5_000) => {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('SQLite store: WAL checkpoints off the request thread', () => {
  it('commits are copied into the database file by the checkpoint thread, long before the backstop', async () => {
    const { db, file } = open();
    await db.kysely.schema.createTable('t').addColumn('x', 'text').execute();
    const size = () => statSync(file).size;
    const before = size();
    // ~300 pages of WAL: far below the store's own automatic checkpoint.
    for (let i = 0; i < 300; i++)
      await scratch(db)
        .insertInto('t')
        .values({ x: 'y'.repeat(3000) })
        .execute();
    expect(300).toBeLessThan(BACKSTOP_PAGES);
    await until(() => size() > before + 300 * 3000);
  });

  it('a checkpoint thread that cannot open the file reports it (the store then checkpoints on its own)', async () => {
    const errors: Error[] = [];
    const checkpointer = startCheckpointer('/nonexistent-dir/for/jst/tracker.sqlite', (e) => errors.push(e));
    await until(() => errors.length > 0);
    expect(errors[0]!.message).toMatch(/unable to open|directory does not exist|SQLITE_CANTOPEN/i);
    await checkpointer.stop();
  });

  it('close() ends the checkpoint thread (no thread keeps the process alive)', async () => {
    const { db } = open();
    await db.close();
    dbs.pop();
  });
});

describe('SQLite store: data version and reads outside transactions', () => {
  it("dataVersion moves with this connection's own commit at once, and with another connection's", async () => {
    const { db, file } = open();
    await db.kysely.schema.createTable('t').addColumn('x', 'text').execute();
    const v0 = db.dataVersion!();
    await scratch(db).insertInto('t').values({ x: 'a' }).execute();
    const v1 = db.dataVersion!();
    expect(v1).not.toBe(v0);
    expect(db.dataVersion!()).toBe(v1);
    const other = new BetterSqlite3(file);
    other.prepare('insert into t (x) values (?)').run('b');
    other.close();
    // Another process's commit shows from the next turn of the event loop on.
    await new Promise((r) => setImmediate(r));
    expect(db.dataVersion!()).not.toBe(v1);
  });

  it('a commit inside a transaction moves the version when it commits, not before', async () => {
    const { db } = open();
    await db.kysely.schema.createTable('t').addColumn('x', 'text').execute();
    let inside = 0;
    const before = db.dataVersion!();
    await scratch(db)
      .transaction()
      .execute(async (tx: Transaction<Scratch>) => {
        await tx.insertInto('t').values({ x: 'a' }).execute();
        inside = db.dataVersion!();
      });
    expect(inside).toBe(before);
    expect(db.dataVersion!()).not.toBe(before);
  });

  it('readNow declines while a transaction is open on the connection (its rows are not committed yet)', async () => {
    const { db } = open();
    await db.kysely.schema.createTable('t').addColumn('x', 'text').execute();
    const count = 'select count(*) as n from "t"';
    expect(db.readNow!(count, [])).toEqual([{ n: 0 }]);
    await scratch(db)
      .transaction()
      .execute(async (tx: Transaction<Scratch>) => {
        await tx.insertInto('t').values({ x: 'a' }).execute();
        expect(db.readNow!(count, [])).toBeUndefined();
      });
    expect(db.readNow!(count, [])).toEqual([{ n: 1 }]);
    expect(db.readNow!('insert into "t" (x) values (?)', ['b'])).toBeUndefined();
    expect(db.readNow!(count, [])).toEqual([{ n: 1 }]);
  });
});

describe('ARCHITECTURE §19: group commit of the SQLite store (Db.grouped)', () => {
  const setUp = async () => {
    const { db, file } = open();
    await db.kysely.schema
      .createTable('t')
      .addColumn('x', 'text', (c) => c.unique())
      .execute();
    const watcher = new BetterSqlite3(file, { readonly: true });
    const commits = () => commitCount(file);
    return { db, file, watcher, commits };
  };

  it('work queued in one turn of the event loop is one commit; one piece that throws undoes only itself', async () => {
    const { db, watcher, commits } = await setUp();
    const before = commits();
    const results = await Promise.allSettled(
      ['a', 'b', 'dup', 'c', 'dup', 'd'].map((x) =>
        db.grouped!((run) => {
          run('insert into t (x) values (?)', [x]);
          return x;
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect((results[4] as PromiseRejectedResult).reason.message).toMatch(/UNIQUE constraint failed/);
    expect(commits()).toBe(before + 1);
    expect(watcher.prepare('select x from t order by x').pluck().all()).toEqual(['a', 'b', 'c', 'd', 'dup']);
    watcher.close();
  });

  it('a piece that writes twice and then throws leaves neither write', async () => {
    const { db, watcher } = await setUp();
    const [bad, good] = await Promise.allSettled([
      db.grouped!((run) => {
        run('insert into t (x) values (?)', ['one']);
        run('insert into t (x) values (?)', ['two']);
        throw new Error('refused');
      }),
      db.grouped!((run) => run('insert into t (x) values (?) returning x', ['three'])),
    ]);
    expect(bad.status).toBe('rejected');
    expect(good).toEqual({ status: 'fulfilled', value: [{ x: 'three' }] });
    expect(watcher.prepare('select x from t').pluck().all()).toEqual(['three']);
    watcher.close();
  });

  it('a group with a failed piece runs again from the start: the others number gaplessly, as if it had never run', async () => {
    const { db, watcher, commits } = await setUp();
    await db.kysely.schema.createTable('counter').addColumn('n', 'integer').execute();
    await sql`insert into counter (n) values (0)`.execute(db.kysely);
    const before = commits();
    // Each piece takes the next number and writes a row named by it; the third advances the counter, then fails.
    const take = (fail: boolean) =>
      db.grouped!((run) => {
        const [row] = run('update counter set n = n + 1 returning n', []) as { n: number }[];
        run('insert into t (x) values (?)', [`row ${row!.n}`]);
        if (fail) throw new Error('refused after writing');
        return row!.n;
      });
    const results = await Promise.allSettled([false, false, true, false, false].map(take));
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([1, 2, 'refused after writing', 3, 4]);
    expect(commits()).toBe(before + 1);
    expect(watcher.prepare('select x from t order by x').pluck().all()).toEqual(['row 1', 'row 2', 'row 3', 'row 4']);
    expect(watcher.prepare('select n from counter').pluck().get()).toBe(4);
    watcher.close();
  });

  it("a group of one failed piece is refused with that piece's own error, and writes nothing", async () => {
    const { db, watcher, commits } = await setUp();
    const before = commits();
    const refusal = new Error('refused');
    const outcome = db.grouped!((run) => {
      run('insert into t (x) values (?)', ['alone']);
      throw refusal;
    });
    await expect(outcome).rejects.toBe(refusal);
    expect(commits()).toBe(before);
    expect(watcher.prepare('select count(*) from t').pluck().get()).toBe(0);
    watcher.close();
  });

  it('a piece is answered only once its commit is in the file: another connection reads it at once', async () => {
    const { db, file } = await setUp();
    for (let i = 0; i < 20; i++) {
      await db.grouped!((run) => run('insert into t (x) values (?)', [`row ${i}`]));
      const other = new BetterSqlite3(file, { readonly: true });
      expect(other.prepare('select count(*) from t').pluck().get()).toBe(i + 1);
      other.close();
    }
  });

  it('a group waits for a Kysely transaction in progress and never runs inside it', async () => {
    const { db, watcher } = await setUp();
    const tx = db.kysely.transaction().execute(async (trx) => {
      await (trx as unknown as Kysely<Scratch>).insertInto('t').values({ x: 'in the transaction' }).execute();
      await new Promise((r) => setTimeout(r, 50));
      throw new Error('rolled back');
    });
    await new Promise((r) => setTimeout(r, 10));
    const grouped = db.grouped!((run) => run('insert into t (x) values (?)', ['grouped']));
    await expect(tx).rejects.toThrow('rolled back');
    await grouped;
    expect(watcher.prepare('select x from t').pluck().all()).toEqual(['grouped']);
    watcher.close();
  });
});
