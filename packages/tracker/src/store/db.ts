import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
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
}

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  /** Where the data lives, for the ready line and the demo (never includes a password). */
  location: string;
  close(): Promise<void>;
}

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
    const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    const url = new URL(options.databaseUrl);
    url.password = '';
    return { kysely, dialect: 'postgres', location: url.toString(), close: () => kysely.destroy() };
  }
  const dir = options.dataDir ?? '.jst-tracker';
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'tracker.sqlite');
  const database = new BetterSqlite3(file);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  return { kysely, dialect: 'sqlite', location: file, close: () => kysely.destroy() };
}
