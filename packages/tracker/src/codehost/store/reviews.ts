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

    /** Every review of a pull request, oldest first (the approvals a protected base counts). */
    all(pullId: number): Promise<ChReview[]> {
      return kysely.selectFrom('ch_reviews').selectAll().where('pull_id', '=', pullId).orderBy('id').execute();
    },

    /** GitHub's stale-review dismissal: approvals of another commit than `headSha` become DISMISSED. */
    async dismissStale(pullId: number, headSha: string): Promise<void> {
      await kysely
        .updateTable('ch_reviews')
        .set({ state: 'DISMISSED' })
        .where('pull_id', '=', pullId)
        .where('state', '=', 'APPROVED')
        .where('commit_id', '<>', headSha)
        .execute();
    },

    /** One page of a pull request's reviews, oldest first, and how many it has. */
    async page(pullId: number, offset: number, limit: number): Promise<{ rows: ChReview[]; total: number }> {
      const rows = await kysely.selectFrom('ch_reviews').selectAll().where('pull_id', '=', pullId).orderBy('id').offset(offset).limit(limit).execute();
      return { rows, total: await count(pullId) };
    },
  };
}

export type Reviews = ReturnType<typeof reviewsRepository>;
