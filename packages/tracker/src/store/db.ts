import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type PostgresPool, type PostgresPoolClient, type SqliteDatabase } from 'kysely';
import pg from 'pg';
import { BACKSTOP_PAGES, startCheckpointer, WAL_SIZE_LIMIT } from './checkpointer.js';
import type { Database } from './schema.js';

export type Dialect = 'sqlite' | 'postgres';

export interface DbOptions {
  /** postgres://… selects PostgreSQL; otherwise SQLite under `dataDir`. */
  databaseUrl?: string | undefined;
  dataDir?: string | undefined;
  /** PostgreSQL pool size per process. */
  poolSize?: number | undefined;
  /** Told about connections the database dropped while idle. */
  onPoolError?: ((error: Error) => void) | undefined;
  /** SQLite: told if the checkpoint thread fails (checkpoints then run on the request thread again). */
  onCheckpointError?: ((error: Error) => void) | undefined;
}

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  /** Where the data lives, for the ready line and the demo (never includes a password). */
  location: string;
  /**
   * Marks a SQL text as one of the store's fixed queries (store/prepared.ts): on PostgreSQL it is
   * then kept prepared on each connection (parsed and planned once, not per request).
   */
  keepPrepared(sql: string): void;
  /**
   * SQLite only: runs a read-only statement at once on the store's connection instead of waiting
   * in Kysely's queue for it (the statement runs synchronously either way). Undefined when it
   * cannot: a transaction is open on the connection (its uncommitted rows must not be read by
   * another request), or the statement writes.
   */
  readNow?(sql: string, parameters: readonly unknown[]): unknown[] | undefined;
  /**
   * SQLite only: true when no transaction is open on the store's connection, so that readNow runs
   * every read-only statement at once until the code that asked next waits for something.
   */
  readsNow?(): boolean;
  /**
   * SQLite only: a number that changes whenever any connection commits a change to the database
   * (PRAGMA data_version, read on a second connection). This process's own commits show at once;
   * another process's from the next turn of the event loop on (see CommitWatch).
   */
  dataVersion?(): number;
  /**
   * SQLite only: group commit. Runs `work` (synchronous statements through `run`) in one
   * transaction with the other work queued in the same turn of the event loop; a piece that throws
   * undoes only itself and rejects only its promise. Every promise settles after the one COMMIT, so
   * nothing is answered before it is in the database. The group runs at the end of the turn, or
   * after a Kysely transaction open on the connection ends. `work` may run twice (a group with a
   * failed piece runs again, see GroupCommit): it must do nothing but run statements and compute
   * its result from their rows.
   */
  grouped?<T>(work: (run: RunNow) => T): Promise<T>;
  close(): Promise<void>;
}

/** Runs one statement at once on the SQLite connection: the rows it returns (none for a plain write). */
export type RunNow = (sql: string, parameters: readonly unknown[]) => unknown[];

export function openDb(options: DbOptions): Db {
  if (options.databaseUrl) {
    if (!/^postgres(ql)?:\/\//.test(options.databaseUrl)) {
      throw new Error(
        // Only the scheme is echoed: the rest of a URL may hold a password.
        `--database-url must be a postgres:// or postgresql:// URL (got ${/^[A-Za-z][\w+.-]{0,20}:/.exec(options.databaseUrl)?.[0] ?? 'no scheme'}…). Leave it out to use SQLite under --data.`,
      );
    }
    // int8 (count(*), bigint) arrives as text by default; our counts fit a JS number.
    pg.types.setTypeParser(20, (v) => Number(v));
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 });
    // An idle connection dropped by the server (restart, failover, admin) must not crash the
    // process: the pool discards it and the next query opens a fresh one.
    pool.on('error', (e) => options.onPoolError?.(e));
    const named = new NamedStatements();
    const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool: named.wrap(pool) }) });
    const url = new URL(options.databaseUrl);
    url.password = '';
    return { kysely, dialect: 'postgres', location: url.toString(), keepPrepared: (sql) => named.add(sql), close: () => kysely.destroy() };
  }
  const dir = options.dataDir ?? '.jst-tracker';
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'tracker.sqlite');
  const database = new BetterSqlite3(file);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  // No mmap_size: mapping the file saved ~5 µs of an uncached GET /issue (bench/ab-read.mjs), but the
  // mapped pages count in the process's RSS (250 MiB with 100,000 issues in the bench, against the
  // 200 MB target that 144 MiB meets without it).
  // WAL checkpoints run on a thread of their own (store/checkpointer.ts); this is the backstop.
  database.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  database.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT}`);
  const checkpointer = startCheckpointer(file, (error) => {
    if (database.open) database.pragma('wal_autocheckpoint = 1000');
    options.onCheckpointError?.(error);
  });
  // PRAGMA data_version does not move for a connection's own commits: ask a second one.
  const watcher = new BetterSqlite3(file, { readonly: true });
  const version = watcher.prepare('pragma data_version').pluck();
  const commits = new CommitWatch(() => version.get() as number);
  const statements = withStatementCache(database, () => commits.wrote());
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: statements }) });
  const group = new GroupCommit(database, kysely, (sql, parameters) => {
    const statement = statements.prepare(sql);
    if (statement.reader) return statement.all(parameters);
    statement.run(parameters);
    return [];
  });
  return {
    kysely,
    dialect: 'sqlite',
    location: file,
    keepPrepared: () => undefined,
    readsNow: () => !database.inTransaction,
    readNow(sql, parameters) {
      if (database.inTransaction) return undefined;
      const statement = statements.prepare(sql);
      if (!statement.reader || !statement.readonly) return undefined;
      // Rows as arrays, made into objects here: better-sqlite3 sets an object's properties one by
      // one from C++, which costs a 22-column issue read ~2 µs more (measured in the server).
      let rows: unknown[][];
      try {
        rows = statement.raw(true).all(parameters) as unknown[][];
      } finally {
        // The statement is shared (the cache): a failed read must not leave it answering arrays.
        statement.raw(false);
      }
      const toRow = rowMaker(statement);
      return rows.map(toRow);
    },
    dataVersion: () => commits.current(),
    grouped: (work) => group.add(work),
    close: async () => {
      await checkpointer.stop();
      watcher.close();
      await kysely.destroy();
    },
  };
}

interface Queued { work: (run: RunNow) => unknown; resolve(value: unknown): void; reject(error: unknown): void }
type Outcome = { value?: unknown; error?: unknown; failed: boolean };

/**
 * Group commit on the one SQLite connection (Db.grouped). Work queued in one turn of the event
 * loop is run at the end of it, when the connection is free, in one transaction: one BEGIN and one
 * COMMIT (one WAL append) for the group instead of one per request, and no waiting in between,
 * since every statement runs synchronously.
 *
 * A group is first run as it is, with no savepoints: a SAVEPOINT and a RELEASE per piece cost
 * about a sixth of a create's SQLite time, and a piece nearly never fails (its request was checked
 * before it was queued). When one does fail, the whole transaction is rolled back and the group
 * runs again, each piece in a savepoint of its own, so the failure undoes only its own piece.
 * Pieces only run statements, so running one twice against the same rows gives the same result.
 */
class GroupCommit {
  private queue: Queued[] = [];
  private scheduled = false;
  private readonly plain: (batch: Queued[]) => unknown[];
  private readonly isolated: (batch: Queued[]) => Outcome[];

  constructor(private readonly database: BetterSqlite3.Database, private readonly kysely: Kysely<Database>, private readonly run: RunNow) {
    this.plain = database.transaction((batch: Queued[]) => batch.map((item) => {
      try {
        return item.work(this.run);
      } catch (error) {
        throw new PieceFailed(error);
      }
    }));
    const piece = database.transaction((item: Queued) => item.work(this.run));
    this.isolated = database.transaction((batch: Queued[]) => batch.map((item) => {
      try {
        return { value: piece(item), failed: false };
      } catch (error) {
        return { error, failed: true };
      }
    }));
  }

  /** Runs the group: the outcome of each piece; throws when BEGIN or COMMIT failed (nothing written). */
  private runGroup(batch: Queued[]): Outcome[] {
    try {
      return this.plain(batch).map((value) => ({ value, failed: false }));
    } catch (error) {
      if (!(error instanceof PieceFailed)) throw error;
      // One piece alone: its failure is its outcome, and nothing else was in the transaction.
      if (batch.length === 1) return [{ error: error.error, failed: true }];
      return this.isolated(batch);
    }
  }

  /** The work queued so far; what is queued from now on waits for the next flush. */
  private take(): Queued[] {
    const batch = this.queue;
    this.queue = [];
    this.scheduled = false;
    return batch;
  }

  private commit(): void {
    const batch = this.take();
    let results: Outcome[];
    try {
      results = this.runGroup(batch);
    } catch (error) {
      // The COMMIT (or BEGIN) failed: nothing of the group was written.
      for (const item of batch) item.reject(error);
      return;
    }
    results.forEach((r, i) => (r.failed ? batch[i]!.reject(r.error) : batch[i]!.resolve(r.value)));
  }

  add<T>(work: (run: RunNow) => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    // No transaction open on the connection: nothing can run between the group's statements
    // (they are synchronous), so the group runs at once. Otherwise it waits in Kysely's queue for
    // the transaction in progress to finish; work queued meanwhile joins it.
    if (!this.database.inTransaction) {
      this.commit();
      return;
    }
    try {
      await this.kysely.connection().execute(async () => this.commit());
    } catch (error) {
      // The connection could not be had (the store is closing): refuse what waits.
      for (const item of this.take()) item.reject(error);
    }
  }
}

/** A piece of a group failed (with `error`): the group is rolled back and run again with savepoints. */
class PieceFailed extends Error {
  constructor(readonly error: unknown) {
    super('a piece of the group failed');
  }
}

/** Row constructors by statement: one object literal per column list, so every row shares one shape. */
const rowMakers = new WeakMap<BetterSqlite3.Statement, (values: unknown[]) => Record<string, unknown>>();

/**
 * A function that turns a raw row of `statement` into the object better-sqlite3 would have made
 * (same names, same order; a repeated name keeps its last value, as there). Generated from the
 * statement's column names, which come from our own SQL, each written as a JSON string.
 */
function rowMaker(statement: BetterSqlite3.Statement): (values: unknown[]) => Record<string, unknown> {
  let make = rowMakers.get(statement);
  if (!make) {
    const fields = statement.columns().map((c, i) => `${JSON.stringify(c.name)}: v[${i}]`);
    make = new Function('v', `return { ${fields.join(', ')} };`) as (values: unknown[]) => Record<string, unknown>;
    rowMakers.set(statement, make);
  }
  return make;
}

/** How many distinct SQL texts keep their compiled SQLite statement (least recently used go first). */
const STATEMENT_CACHE = 500;

/** Statements that end a transaction: read-only to SQLite, yet the moment its writes land. */
const TRANSACTION_END = /^\s*(commit|end|rollback|release)\b/i;

/**
 * better-sqlite3 compiles a statement on every prepare(), and Kysely prepares once per query: this
 * keeps the compiled statements of recent SQL texts. Reusing one is safe because Kysely runs one
 * query at a time on the single SQLite connection. Kysely prepares each statement just before it
 * runs it, so `onWrite` is told of every write and commit just before it happens.
 */
function withStatementCache(database: BetterSqlite3.Database, onWrite: () => void): { prepare(sql: string): BetterSqlite3.Statement; close(): void } {
  const cache = new Map<string, { statement: BetterSqlite3.Statement; writes: boolean }>();
  return {
    prepare(sql: string) {
      let entry = cache.get(sql);
      if (entry) {
        cache.delete(sql);
      } else {
        const statement = database.prepare(sql);
        entry = { statement, writes: !statement.readonly || TRANSACTION_END.test(sql) };
        if (cache.size >= STATEMENT_CACHE) cache.delete(cache.keys().next().value!);
      }
      cache.set(sql, entry);
      if (entry.writes) onWrite();
      return entry.statement;
    },
    close: () => database.close(),
  };
}

/**
 * PRAGMA data_version costs three system calls (file locks and a stat), several microseconds in a
 * busy server: asked at most once per turn of the event loop, and again whenever this process has
 * written since. So this process's own commits are seen at once, and another process's commit from
 * the next turn on, which is when a request sent after that commit can first be read.
 */
class CommitWatch {
  private writes = 0;
  private seenWrites = -1;
  private version = 0;
  private fresh = false;
  private readonly expire = () => { this.fresh = false; };

  constructor(private readonly read: () => number) {}

  wrote(): void { this.writes++; }

  current(): number {
    if (!this.fresh || this.seenWrites !== this.writes) {
      this.seenWrites = this.writes;
      this.version = this.read();
      if (!this.fresh) {
        this.fresh = true;
        setImmediate(this.expire);
      }
    }
    return this.version;
  }
}

/**
 * Runs the store's fixed queries as named prepared statements on PostgreSQL, so each connection
 * parses and plans them once. Only SQL texts registered with `add` are named, which bounds the
 * statements a connection keeps; anything else (search queries, seed writes) runs unnamed.
 */
class NamedStatements {
  private readonly names = new Map<string, string>();
  private readonly clients = new WeakMap<pg.PoolClient, PostgresPoolClient>();

  add(sql: string): void {
    if (!this.names.has(sql)) this.names.set(sql, `jst_${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`);
  }

  wrap(pool: pg.Pool): PostgresPool {
    return {
      connect: async () => {
        const client = await pool.connect();
        let wrapped = this.clients.get(client);
        if (!wrapped) {
          wrapped = { query: ((text: unknown, values?: unknown[]) => this.query(client, text, values)) as PostgresPoolClient['query'], release: () => client.release() };
          this.clients.set(client, wrapped);
        }
        return wrapped;
      },
      end: () => pool.end(),
    };
  }

  private query(client: pg.PoolClient, text: unknown, values?: unknown[]): unknown {
    const name = typeof text === 'string' ? this.names.get(text) : undefined;
    // Unnamed SQL, or a cursor (which must come back as it is, not wrapped in a promise).
    if (name === undefined) return client.query(text as string, values);
    return client.query({ name, text: text as string, values: values ?? [] }).catch((e: unknown) => {
      // A schema change under a kept statement ("cached plan must not change result type"):
      // stop naming that text and run it as an ordinary query.
      if ((e as { code?: string }).code !== '0A000') throw e;
      this.names.delete(text as string);
      return client.query(text as string, values);
    });
  }
}
