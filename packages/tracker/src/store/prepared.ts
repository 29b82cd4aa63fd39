import type { Compilable, CompiledQuery, Kysely, QueryResult } from 'kysely';
import { after, type Maybe } from '../maybe.js';
import type { Db, RunNow } from './db.js';
import type { Database, Tx } from './schema.js';

/** Stands for the i-th argument while a query is compiled; replaced by the real value per call. */
class Slot {
  constructor(readonly index: number) {}
}

/**
 * A query that Kysely builds and compiles once, on first use; each call only puts its values into
 * the compiled statement's parameters. The hot reads and writes of every request go through these:
 * building and compiling a Kysely query costs more than running a simple one on SQLite.
 *
 * `build` receives stand-ins for its arguments and must use them only as values (never compute
 * with them); constants it writes into the query stay as they were compiled.
 */
export class Prepared<A extends unknown[], R> {
  private compiled: CompiledQuery<R> | undefined;
  private sources: ({ arg: number } | { value: unknown })[] = [];

  constructor(
    private readonly kysely: Kysely<Database>,
    private readonly build: (db: Kysely<Database>, ...args: A) => Compilable<R>,
    /** Told the SQL text once, so the driver may keep it prepared on the server (PostgreSQL). */
    private readonly onCompile?: (sql: string) => void,
    /** How many arguments `build` takes after `db` (needed when it takes them as a rest parameter). */
    private readonly arity = build.length - 1,
    /** SQLite: runs a read at once outside any transaction (Db.readNow); undefined when it cannot. */
    private readonly readNow?: (sql: string, parameters: readonly unknown[]) => unknown[] | undefined,
  ) {}

  private compile(): CompiledQuery<R> {
    const slots = Array.from({ length: this.arity }, (_, i) => new Slot(i));
    const compiled = this.build(this.kysely, ...(slots as unknown as A)).compile();
    this.sources = compiled.parameters.map((p) => (p instanceof Slot ? { arg: p.index } : { value: p }));
    this.onCompile?.(compiled.sql);
    this.compiled = compiled;
    return compiled;
  }

  /** Runs on the store's connection or inside a transaction (`db`). */
  execute(db: Tx, ...args: A): Promise<QueryResult<R>> {
    const compiled = this.compiled ?? this.compile();
    const parameters = this.sources.map((s) => ('arg' in s ? args[s.arg] : s.value));
    // Outside a transaction a SQLite read need not queue behind Kysely's connection lock: nothing
    // else can run on the connection while it does, and its rows are committed ones.
    if (this.readNow && db === this.kysely) {
      try {
        const rows = this.readNow(compiled.sql, parameters);
        if (rows) return Promise.resolve({ rows: rows as R[] });
      } catch (e) {
        return Promise.reject(e instanceof Error ? e : new Error(String(e)));
      }
    }
    return this.queued(db, compiled, parameters);
  }

  /** Runs through Kysely, in its turn on the connection (a transaction's, or a pooled one). */
  private queued(db: Tx, compiled: CompiledQuery<R>, parameters: readonly unknown[]): Promise<QueryResult<R>> {
    return db.executeQuery<R>({ query: compiled.query, queryId: compiled.queryId, sql: compiled.sql, parameters });
  }

  /** Runs one call at once on the SQLite connection, as a piece of a group commit (Db.grouped): its first row. */
  firstNow(run: RunNow, ...args: A): R | undefined {
    const compiled = this.compiled ?? this.compile();
    return run(
      compiled.sql,
      this.sources.map((s) => ('arg' in s ? args[s.arg] : s.value)),
    )[0] as R | undefined;
  }

  /**
   * The read's rows, at once where the store's connection can read at once (SQLite outside a
   * transaction: Db.readNow), else a promise (PostgreSQL, a transaction open, `db` a transaction):
   * a read of several statements written over these (maybe.ts) is then synchronous end to end on
   * SQLite and waits for each statement on PostgreSQL, from one piece of code.
   */
  rows(db: Tx, ...args: A): Maybe<R[]> {
    const compiled = this.compiled ?? this.compile();
    const parameters = this.sources.map((s) => ('arg' in s ? args[s.arg] : s.value));
    const rows = this.readNow && db === this.kysely ? this.readNow(compiled.sql, parameters) : undefined;
    return rows ? (rows as R[]) : this.queued(db, compiled, parameters).then((result) => result.rows);
  }

  /** The first of `rows`. */
  row(db: Tx, ...args: A): Maybe<R | undefined> {
    return after(this.rows(db, ...args), (rows) => rows[0]);
  }

  async all(db: Tx, ...args: A): Promise<R[]> {
    return (await this.execute(db, ...args)).rows;
  }

  async first(db: Tx, ...args: A): Promise<R | undefined> {
    return (await this.execute(db, ...args)).rows[0];
  }
}

/** Makes the store's kept statements (Prepared) on one database: what every aggregate module is given. */
export type Prepare = <A extends unknown[], R>(build: (db: Kysely<Database>, ...args: A) => Compilable<R>, arity?: number) => Prepared<A, R>;

/** The Prepare of a database: its statements kept prepared on PostgreSQL, read at once on SQLite (Db.readNow). */
export function preparer(db: Db): Prepare {
  return (build, arity) => new Prepared(db.kysely, build, (text) => db.keepPrepared(text), arity, db.readNow);
}
