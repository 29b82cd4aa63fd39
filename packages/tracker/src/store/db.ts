import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** The PostgreSQL change feed's timings (postgres/changes.ts), set by tests. */
export interface FeedOptions {
  /** LEASE_MS unless given. */
  leaseMs?: number;
  /** SYNC_TIMEOUT_MS unless given. */
  syncTimeoutMs?: number;
}

/**
 * A connection to the database the store works on, opened by open-db.ts: SQLite's
 * (sqlite/connection.ts) or PostgreSQL's (postgres/connection.ts). Everything above it runs the
 * same Kysely queries on both; what the two do differently is their StoreAdapter (adapter.ts).
 */

export type Dialect = 'sqlite' | 'postgres';

export interface DbOptions {
  /** postgres://… selects PostgreSQL; otherwise SQLite under `dataDir`. */
  databaseUrl?: string | undefined;
  dataDir?: string | undefined;
  /** PostgreSQL pool size per process. */
  poolSize?: number | undefined;
  /** PostgreSQL: the change feed's lease and acknowledgement timeout (postgres/changes.ts), for tests. */
  changeFeed?: FeedOptions | undefined;
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
  readNow?: (sql: string, parameters: readonly unknown[]) => unknown[] | undefined;
  /**
   * SQLite only: true when no transaction is open on the store's connection, so that readNow runs
   * every read-only statement at once until the code that asked next waits for something.
   */
  readsNow?: () => boolean;
  /**
   * SQLite only: a number that changes whenever any connection commits a change to the database
   * (PRAGMA data_version, read on a second connection). This process's own commits show at once;
   * another process's from the next turn of the event loop on (see CommitWatch).
   */
  dataVersion?: () => number;
  /**
   * PostgreSQL only: commits by any process as this one learns of them (postgres/changes.ts),
   * opened on first call (a connection of its own) and closed with the Db.
   */
  changes?: () => ChangeFeed;
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

/**
 * Commits by any process over a shared database (PostgreSQL's LISTEN/NOTIFY, postgres/changes.ts),
 * for a cache that must never answer with data older than a write already answered.
 */
export interface ChangeFeed {
  /** Moves whenever anything may have been committed that this process has not seen yet. */
  version(): number;
  /** True when every commit answered before the call counts in `version()`; false when that cannot be known now. */
  synced(): Promise<boolean>;
  /** True when that is known now, without waiting (PostgreSQL: the feed's lease holds); false: ask `synced()`. */
  fresh(): boolean;
}
