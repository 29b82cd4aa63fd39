import { createHash } from 'node:crypto';
import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient } from 'kysely';
import pg from 'pg';
import type { Db, DbOptions } from '../db.js';
import type { Database } from '../schema.js';
import { PostgresChangeFeed, type RunStatement } from './changes.js';

/** PostgreSQL at `databaseUrl` (postgres:// or postgresql://), through a pool of `poolSize` connections. */
export function openPostgres(databaseUrl: string, options: DbOptions): Db {
  if (!/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new Error(
      // Only the scheme is echoed: the rest of a URL may hold a password.
      `--database-url must be a postgres:// or postgresql:// URL (got ${/^[A-Za-z][\w+.-]{0,20}:/.exec(databaseUrl)?.[0] ?? 'no scheme'}…). Leave it out to use SQLite under --data.`,
    );
  }
  // int8 (count(*), bigint) arrives as text by default; our counts fit a JS number.
  pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
  const pool = new pg.Pool({ connectionString: databaseUrl, max: options.poolSize ?? 10 });
  // An idle connection dropped by the server (restart, failover, admin) must not crash the
  // process: the pool discards it and the next query opens a fresh one.
  pool.on('error', (e) => options.onPoolError?.(e));
  let feed: PostgresChangeFeed | undefined;
  const changes = () => (feed ??= new PostgresChangeFeed(databaseUrl, (e) => options.onPoolError?.(e), options.changeFeed));
  // Every commit that wrote waits for the other processes' feeds before it returns (PostgresChangeFeed.afterWrite).
  const named = new NamedStatements((run) => changes().afterWrite(run));
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool: named.wrap(pool) }) });
  const url = new URL(databaseUrl);
  url.password = '';
  const close = async () => {
    await feed?.close();
    await kysely.destroy();
  };
  return { kysely, dialect: 'postgres', location: url.toString(), keepPrepared: (sql) => named.add(sql), changes, close };
}

/** Statements that never write a table (a pg result's `command`); any other is taken for a write. */
const READS = new Set([
  'SELECT',
  'SHOW',
  'SET',
  'RESET',
  'LISTEN',
  'UNLISTEN',
  'FETCH',
  'DECLARE',
  'CLOSE',
  'MOVE',
  'PREPARE',
  'DEALLOCATE',
  'EXPLAIN',
  'SAVEPOINT',
  'RELEASE',
  'DISCARD',
  'LOCK',
  'VALUES',
]);

/** A SELECT that writes all the same: a data-modifying WITH (a row lock, `for update`, writes nothing). */
const WRITING_SELECT = /\b(insert|update|delete|merge)\b/i;
const ROW_LOCK = /\bfor\s+(no\s+key\s+)?update\b/gi;

/** SQL texts already looked at by `selectWrites`, at most this many. */
const TEXTS_KEPT = 512;

/** What a connection of the pool is doing: in a transaction, and whether it wrote in it. */
interface Session {
  inTransaction: boolean;
  wrote: boolean;
}

/**
 * Runs the store's fixed queries as named prepared statements on PostgreSQL, so each connection
 * parses and plans them once. Only SQL texts registered with `add` are named, which bounds the
 * statements a connection keeps; anything else (search queries, seed writes) runs unnamed.
 *
 * It also sees every statement's answer, so it tells `afterWrite` of every commit that wrote: a
 * COMMIT after a statement that wrote, or a write outside a transaction. The write's caller gets
 * its answer only once `afterWrite` settled (the connection stays taken meanwhile), so no store
 * code, whichever path it takes, can answer a write before the other processes' caches know of it.
 */
class NamedStatements {
  private readonly names = new Map<string, string>();
  private readonly clients = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  private readonly selects = new Map<string, boolean>();

  constructor(private readonly afterWrite: (run: RunStatement) => Promise<void>) {}

  add(sql: string): void {
    if (!this.names.has(sql)) this.names.set(sql, `jst_${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`);
  }

  wrap(pool: pg.Pool): PostgresPool {
    return {
      connect: async () => {
        const client = await pool.connect();
        let wrapped = this.clients.get(client);
        if (!wrapped) {
          const session: Session = { inTransaction: false, wrote: false };
          wrapped = {
            query: ((text: unknown, values?: unknown[]) => this.query(client, session, text, values)) as PostgresPoolClient['query'],
            release: () => {
              session.inTransaction = false;
              session.wrote = false;
              client.release();
            },
          };
          this.clients.set(client, wrapped);
        }
        return wrapped;
      },
      end: () => pool.end(),
    };
  }

  private query(client: pg.PoolClient, session: Session, text: unknown, values?: unknown[]): unknown {
    // A cursor must come back as it is, not wrapped in a promise (it only reads).
    if (typeof text !== 'string') return client.query(text as string, values);
    const name = this.names.get(text);
    const result =
      name === undefined
        ? client.query(text, values)
        : client.query({ name, text, values: values ?? [] }).catch((e: unknown) => {
            // A schema change under a kept statement ("cached plan must not change result type"):
            // stop naming that text and run it as an ordinary query.
            if ((e as { code?: string }).code !== '0A000') throw e;
            this.names.delete(text);
            return client.query(text, values);
          });
    return result.then((r) => this.answered(client, session, text, r));
  }

  /** After a statement answered: a commit that wrote, or a write outside a transaction, first waits for `afterWrite`. */
  private answered<R extends pg.QueryResult>(client: pg.PoolClient, session: Session, text: string, result: R): R | Promise<R> {
    // pg names a result after its tag's first word; several statements in one text give an array.
    const command = Array.isArray(result) ? undefined : result.command;
    switch (command) {
      case 'BEGIN':
      case 'START':
        session.inTransaction = true;
        session.wrote = false;
        return result;
      case 'COMMIT': {
        const wrote = session.wrote;
        session.inTransaction = false;
        session.wrote = false;
        return wrote ? this.synced(client, result) : result;
      }
      // (A COMMIT of a failed transaction answers ROLLBACK: nothing was written.)
      case 'ROLLBACK':
        session.inTransaction = false;
        session.wrote = false;
        return result;
    }
    if (command !== undefined && READS.has(command) && (command !== 'SELECT' || !this.selectWrites(text))) return result;
    if (session.inTransaction) {
      session.wrote = true;
      return result;
    }
    return this.synced(client, result);
  }

  private async synced<R>(client: pg.PoolClient, result: R): Promise<R> {
    // Prepared once per connection: planning it (pg_stat_activity is a view over joins) costs more than running it.
    await this.afterWrite((name, text, values) => client.query({ name, text, values }));
    return result;
  }

  private selectWrites(text: string): boolean {
    let writes = this.selects.get(text);
    if (writes === undefined) {
      writes = WRITING_SELECT.test(text.replace(ROW_LOCK, ''));
      if (this.selects.size >= TEXTS_KEPT) this.selects.clear();
      this.selects.set(text, writes);
    }
    return writes;
  }
}
