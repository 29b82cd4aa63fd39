import type { Maybe } from '../maybe.js';
import type { StoreContext } from './adapter.js';
import { escapeLike, like } from './like.js';
import type { Prepared } from './prepared.js';
import type { TokenRow, UserRow } from './rows.js';
import type { Tx } from './schema.js';

/** The users of a site and their API tokens (kept as salted hashes, never as sent). */

/** `where id in (…)` statements kept compiled, one per list length up to this. */
const MAX_PREPARED_IN = 16;

export function usersRepository({ kysely, prepare }: StoreContext) {
  const q = {
    byEmail: prepare((db, siteId: number, email: string) => db.selectFrom('users').selectAll().where('site_id', '=', siteId).where('email', '=', email)),
    byAccountId: prepare((db, siteId: number, accountId: string) =>
      db.selectFrom('users').selectAll().where('site_id', '=', siteId).where('account_id', '=', accountId),
    ),
    tokensOf: prepare((db, userId: number) => db.selectFrom('tokens').select(['token_hash', 'kind', 'scopes']).where('user_id', '=', userId)),
  };
  const inLists = new Map<number, Prepared<number[], UserRow>>();

  function usersIn(length: number): Prepared<number[], UserRow> {
    let query = inLists.get(length);
    if (!query) {
      query = prepare((db, ...list: number[]) => db.selectFrom('users').selectAll().where('id', 'in', list), length);
      inLists.set(length, query);
    }
    return query;
  }

  return {
    /** By e-mail, which matches case-insensitively. */
    byEmail(siteId: number, email: string, tx: Tx = kysely): Promise<UserRow | undefined> {
      return q.byEmail.first(tx, siteId, email.toLowerCase());
    },

    byAccountId(siteId: number, accountId: string, tx: Tx = kysely): Promise<UserRow | undefined> {
      return q.byAccountId.first(tx, siteId, accountId);
    },

    /** At once where it can (Prepared.rows), a list longer than the kept statements aside. */
    byIds(ids: readonly number[], tx: Tx = kysely): Maybe<UserRow[]> {
      if (ids.length === 0) return [];
      const unique = [...new Set(ids)];
      if (unique.length > MAX_PREPARED_IN) return tx.selectFrom('users').selectAll().where('id', 'in', unique).execute();
      return usersIn(unique.length).rows(tx, ...unique);
    },

    insert(tx: Tx, user: Omit<UserRow, 'id'>): Promise<UserRow> {
      return tx.insertInto('users').values(user).returningAll().executeTakeFirstOrThrow();
    },

    async updateName(tx: Tx, id: number, displayName: string): Promise<void> {
      await tx.updateTable('users').set({ display_name: displayName }).where('id', '=', id).execute();
    },

    /** Users whose e-mail or display name starts with the query (case-insensitive), or whose account id it is. */
    search(siteId: number, query: string, startAt: number, maxResults: number): Promise<UserRow[]> {
      const pattern = `${escapeLike(query.toLowerCase())}%`;
      return kysely
        .selectFrom('users')
        .selectAll()
        .where('site_id', '=', siteId)
        .where('active', '=', 1)
        .where((eb) => eb.or([like(eb.ref('email'), pattern), like(eb.fn('lower', ['display_name']), pattern), eb('account_id', '=', query)]))
        .orderBy('display_name')
        .orderBy('id')
        .offset(startAt)
        .limit(maxResults)
        .execute();
    },

    tokensOf(userId: number, tx: Tx = kysely): Promise<TokenRow[]> {
      return q.tokensOf.all(tx, userId);
    },

    /** Files a token's hash for the user; a token filed before takes the kind and scopes given. */
    async insertTokenIfAbsent(tx: Tx, userId: number, token: TokenRow): Promise<void> {
      const existing = await tx
        .selectFrom('tokens')
        .select(['id', 'kind', 'scopes'])
        .where('user_id', '=', userId)
        .where('token_hash', '=', token.token_hash)
        .executeTakeFirst();
      if (!existing) {
        await tx
          .insertInto('tokens')
          .values({ user_id: userId, ...token })
          .execute();
      } else if (existing.kind !== token.kind || existing.scopes !== token.scopes) {
        await tx.updateTable('tokens').set({ kind: token.kind, scopes: token.scopes }).where('id', '=', existing.id).execute();
      }
    },
  };
}

export type Users = ReturnType<typeof usersRepository>;
