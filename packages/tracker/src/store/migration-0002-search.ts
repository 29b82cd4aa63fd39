import type { Kysely, Migration } from 'kysely';

/**
 * Indexes for issue search (POST /search/jql). A search with no ORDER BY sorts by creation, newest
 * first, with the issue id as tie-breaker; this index lets a page be read in that order and stop
 * after one page instead of sorting every match. Project + status, assignee, parent and updated
 * already have indexes from 0001.
 */
export const searchMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.createIndex('issues_created').on('issues').columns(['created_at', 'id']).execute();
  },
};
