import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from './db.js';
import { CHANGES_CHANNEL } from './postgres/feed-protocol.js';

/** The function the triggers run, and the triggers' name on every table. */
export const CHANGE_TRIGGER = 'jst_changes';

/**
 * PostgreSQL: every table NOTIFYs CHANGES_CHANNEL when a statement writes it (a statement trigger,
 * so a transaction that writes many rows sends one notification: PostgreSQL folds a transaction's
 * identical notifications into one and delivers it at commit). Any process's read cache learns of
 * every commit this way, whichever code or tool wrote it (postgres/changes.ts). Tables a later
 * migration creates need the same trigger (`changeTrigger`); a test checks that every table has it.
 * SQLite needs none: its data version moves with every commit (sqlite/connection.ts).
 */
export function changeNotifyMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'postgres') return;
      await sql
        .raw(
          `create or replace function ${CHANGE_TRIGGER}() returns trigger language plpgsql as $$ ` +
            `begin perform pg_notify('${CHANGES_CHANNEL}', ''); return null; end $$`,
        )
        .execute(db);
      const { rows } = await sql<{
        name: string;
      }>`select tablename as name from pg_tables where schemaname = current_schema() and tablename not like 'kysely\\_%'`.execute(db);
      for (const { name } of rows) await changeTrigger(db, name);
    },
  };
}

/** Adds the change trigger (migration 0008) to `table`, made by a migration after it. */
export async function changeTrigger(db: Kysely<any>, table: string): Promise<void> {
  const name = sql.id(CHANGE_TRIGGER);
  await sql`create trigger ${name} after insert or update or delete or truncate on ${sql.id(table)} for each statement execute function ${name}()`.execute(db);
}
