import pg from 'pg';
import { createTempDatabase as createDatabaseAt, type TempDatabase } from '../../scripts/lib/local-services.mjs';

/**
 * PostgreSQL for tests: each caller gets a database of its own, dropped afterwards. When no
 * server is reachable the PostgreSQL tests skip with a notice, unless JST_REQUIRE_POSTGRES=1
 * (CI), where they fail instead.
 */
export const ADMIN_URL = process.env.JST_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const required = process.env.JST_REQUIRE_POSTGRES === '1';

let available: boolean | undefined;

export async function postgresAvailable(): Promise<boolean> {
  if (available !== undefined) return available;
  const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    available = true;
  } catch (e) {
    if (required) throw new Error(`JST_REQUIRE_POSTGRES=1 but PostgreSQL is not reachable at ${ADMIN_URL}: ${(e as Error).message}`, { cause: e });
    process.stderr.write(`notice: PostgreSQL not reachable at ${ADMIN_URL}; PostgreSQL tests are skipped (set JST_REQUIRE_POSTGRES=1 to fail instead)\n`);
    available = false;
  } finally {
    await client.end().catch(() => undefined);
  }
  return available;
}

export type { TempDatabase } from '../../scripts/lib/local-services.mjs';

/** A database of the caller's own on the test server, dropped with `drop()`. */
export function createTempDatabase(): Promise<TempDatabase> {
  return createDatabaseAt(ADMIN_URL, 'jst_test');
}
