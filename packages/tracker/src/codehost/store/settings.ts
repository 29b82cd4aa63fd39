import type { ChContext } from './context.js';
import type { ChTx } from './schema.js';

/** The code host's own settings (`ch_meta`): the token salt, the page forms' secret. */
export function settingsRepository({ kysely }: ChContext) {
  const get = async (name: string, tx: ChTx = kysely): Promise<string | undefined> =>
    (await tx.selectFrom('ch_meta').select('value').where('name', '=', name).executeTakeFirst())?.value;
  return {
    get,

    /** Sets a value, made or replaced in one statement. */
    async put(name: string, value: string): Promise<void> {
      await kysely
        .insertInto('ch_meta')
        .values({ name, value })
        .onConflict((oc) => oc.column('name').doUpdateSet({ value }))
        .execute();
    },

    /** The stored value, writing `value` first when there is none (the first writer wins). */
    async getOrSet(tx: ChTx, name: string, value: string): Promise<string> {
      const found = await get(name, tx);
      if (found !== undefined) return found;
      await tx.insertInto('ch_meta').values({ name, value }).execute();
      return value;
    },
  };
}

export type Settings = ReturnType<typeof settingsRepository>;
