import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { Db, DbOptions } from '../db.js';
import type { Database } from '../schema.js';
import { BACKSTOP_PAGES, startCheckpointer, WAL_SIZE_LIMIT } from './checkpointer.js';
import { GroupCommit } from './group-commit.js';
import { CommitWatch, rowMaker, withStatementCache } from './statement-cache.js';
import { walIndexVersion } from './wal-index.js';

/** SQLite in `dataDir` (tracker.sqlite, WAL), on one connection of this process. */
export function openSqlite(options: DbOptions): Db {
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
  // WAL checkpoints run on a thread of their own (sqlite/checkpointer.ts); this is the backstop.
  database.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  database.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT}`);
  const checkpointer = startCheckpointer(file, (error) => {
    if (database.open) database.pragma('wal_autocheckpoint = 1000');
    options.onCheckpointError?.(error);
  });
  // PRAGMA data_version does not move for a connection's own commits: ask a second one.
  const watcher = new BetterSqlite3(file, { readonly: true });
  const version = watcher.prepare('pragma data_version').pluck();
  // Read once, so that the WAL index exists; then its header is read instead (sqlite/wal-index.ts).
  version.get();
  const index = walIndexVersion(file);
  const commits = new CommitWatch(index ? index.read : () => version.get() as number);
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
      index?.close();
      watcher.close();
      await kysely.destroy();
    },
  };
}
