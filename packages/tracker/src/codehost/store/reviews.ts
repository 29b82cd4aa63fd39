import type { ChReview } from '../model.js';
import type { ChContext } from './context.js';

/** A pull request's reviews. */
export function reviewsRepository({ kysely }: ChContext) {
  const count = async (pullId: number): Promise<number> => {
    const { n } = await kysely
      .selectFrom('ch_reviews')
      .where('pull_id', '=', pullId)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(n);
  };
  return {
    count,

    insert(review: Omit<ChReview, 'id'>): Promise<ChReview> {
      return kysely.insertInto('ch_reviews').values(review).returningAll().executeTakeFirstOrThrow();
    },

    /** One page of a pull request's reviews, oldest first, and how many it has. */
    async page(pullId: number, offset: number, limit: number): Promise<{ rows: ChReview[]; total: number }> {
      const rows = await kysely.selectFrom('ch_reviews').selectAll().where('pull_id', '=', pullId).orderBy('id').offset(offset).limit(limit).execute();
      return { rows, total: await count(pullId) };
    },
  };
}

export type Reviews = ReturnType<typeof reviewsRepository>;
