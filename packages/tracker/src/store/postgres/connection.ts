import { createHash } from 'node:crypto';
import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient } from 'kysely';
import pg from 'pg';
import type { Db, DbOptions } from '../db.js';
import type { Database } from '../schema.js';
import { PostgresChangeFeed } from './changes.js';

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
  const named = new NamedStatements();
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool: named.wrap(pool) }) });
  const url = new URL(databaseUrl);
  url.password = '';
  let feed: PostgresChangeFeed | undefined;
  const changes = () => (feed ??= new PostgresChangeFeed(databaseUrl, (e) => options.onPoolError?.(e)));
  const close = async () => {
    await feed?.close();
    await kysely.destroy();
  };
  return { kysely, dialect: 'postgres', location: url.toString(), keepPrepared: (sql) => named.add(sql), changes, close };
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
          wrapped = {
            query: ((text: unknown, values?: unknown[]) => this.query(client, text, values)) as PostgresPoolClient['query'],
            release: () => client.release(),
          };
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
