import type { Db, DbOptions } from './db.js';
import { openPostgres } from './postgres/connection.js';
import { openSqlite } from './sqlite/connection.js';

/** Opens the database: PostgreSQL for a postgres:// `databaseUrl`, otherwise SQLite under `dataDir`. */
export function openDb(options: DbOptions): Db {
  return options.databaseUrl ? openPostgres(options.databaseUrl, options) : openSqlite(options);
}
