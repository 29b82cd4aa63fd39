import type { ChUser } from '../model.js';
import type { ChContext } from './context.js';
import type { ChTx } from './schema.js';

const USER = ['id', 'login', 'name', 'created_at'] as const;

/** The code host's users and their tokens' hashes. */
export function usersRepository({ kysely, keep }: ChContext) {
  const byLoginKey = keep((db, key: string) => db.selectFrom('ch_users').select(USER).where('login_key', '=', key));
  const byTokenHash = keep((db, hash: string) =>
    db
      .selectFrom('ch_tokens')
      .innerJoin('ch_users', 'ch_users.id', 'ch_tokens.user_id')
      .select(['ch_users.id', 'ch_users.login', 'ch_users.name', 'ch_users.created_at', 'ch_tokens.token_hash'])
      .where('ch_tokens.token_hash', '=', hash),
  );
  return {
    byLogin(login: string, tx?: ChTx): Promise<ChUser | undefined> {
      if (tx) return tx.selectFrom('ch_users').select(USER).where('login_key', '=', login.toLowerCase()).executeTakeFirst();
      return byLoginKey.first(login.toLowerCase());
    },

    async byIds(ids: number[], tx: ChTx = kysely): Promise<ChUser[]> {
      const unique = [...new Set(ids)];
      if (unique.length === 0) return [];
      return tx.selectFrom('ch_users').select(USER).where('id', 'in', unique).execute();
    },

    /** The user a token hash belongs to, with the stored hash (compared in constant time by the domain). */
    byTokenHash(tokenHash: string): Promise<(ChUser & { token_hash: string }) | undefined> {
      return byTokenHash.first(tokenHash);
    },

    insert(tx: ChTx, login: string, name: string | null, now: string): Promise<ChUser> {
      return tx.insertInto('ch_users').values({ login, login_key: login.toLowerCase(), name, created_at: now }).returning(USER).executeTakeFirstOrThrow();
    },

    async update(tx: ChTx, id: number, login: string, name: string | null): Promise<void> {
      await tx.updateTable('ch_users').set({ login, name }).where('id', '=', id).execute();
    },

    /** Adds a token's hash to a user: 'taken' when another user holds it. */
    async addToken(tx: ChTx, userId: number, tokenHash: string): Promise<'added' | 'present' | 'taken'> {
      const found = await tx.selectFrom('ch_tokens').select('user_id').where('token_hash', '=', tokenHash).executeTakeFirst();
      if (found) return found.user_id === userId ? 'present' : 'taken';
      await tx.insertInto('ch_tokens').values({ user_id: userId, token_hash: tokenHash }).execute();
      return 'added';
    },
  };
}

export type Users = ReturnType<typeof usersRepository>;
