import type { StoreContext } from './adapter.js';
import type { SiteRow } from './rows.js';
import type { Tx } from './schema.js';

/** The sites: one per tracker domain (its host and cloud id), each with the salt of its tokens' hashes. */
export function sitesRepository({ kysely }: StoreContext) {
  return {
    list(tx: Tx = kysely): Promise<SiteRow[]> {
      return tx.selectFrom('sites').select(['id', 'host', 'cloud_id', 'token_salt']).orderBy('id').execute();
    },

    insert(tx: Tx, site: Omit<SiteRow, 'id'>, now: string): Promise<SiteRow> {
      return tx
        .insertInto('sites')
        .values({ ...site, created_at: now })
        .returning(['id', 'host', 'cloud_id', 'token_salt'])
        .executeTakeFirstOrThrow();
    },

    async updateHost(tx: Tx, id: number, host: string): Promise<void> {
      await tx.updateTable('sites').set({ host }).where('id', '=', id).execute();
    },
  };
}

export type Sites = ReturnType<typeof sitesRepository>;
