import type { ChComment } from '../model.js';
import type { ChContext } from './context.js';

/** A pull request's conversation (GitHub's issue comments, on the pull request's number). */
export function commentsRepository({ kysely }: ChContext) {
  return {
    insert(comment: Omit<ChComment, 'id'>): Promise<ChComment> {
      return kysely.insertInto('ch_comments').values(comment).returningAll().executeTakeFirstOrThrow();
    },

    /** One page of the comments, oldest first (updated since `since`, when given), and how many there are. */
    async page(repoId: number, number: number, offset: number, limit: number, since?: string): Promise<{ rows: ChComment[]; total: number }> {
      let q = kysely.selectFrom('ch_comments').where('repo_id', '=', repoId).where('number', '=', number);
      if (since !== undefined) q = q.where('updated_at', '>=', since);
      const { n } = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      return { rows: await q.selectAll().orderBy('id').offset(offset).limit(limit).execute(), total: Number(n) };
    },

    async count(repoId: number, number: number): Promise<number> {
      const { n } = await kysely
        .selectFrom('ch_comments')
        .where('repo_id', '=', repoId)
        .where('number', '=', number)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(n);
    },
  };
}

export type Comments = ReturnType<typeof commentsRepository>;
