import type { Kysely, Migration } from 'kysely';
import type { Dialect } from './db.js';
import { changeTrigger } from './migration-0008-change-notify.js';

/**
 * What the code host knows of its repositories' git without running git (ARCHITECTURE §14 "Refs
 * and figures from the database"):
 * - `ch_refs`: each ref's commit, recorded when git updates it — a push the code host took (its
 *   post-receive hook), one of its own merges, or a push made straight into the repository folder
 *   (read from the folder's hook spool) — and read in place of `git rev-parse`.
 * - `ch_repos.pushed_at`: GitHub's repository `pushed_at`, the time of the last accepted push.
 * - `ch_pulls.stats_key` / `stats`: a pull request's figures (commits, additions, deletions,
 *   changed files, mergeability) as JSON text, and the `base\nhead` commits they were computed
 *   for: kept on the pull request's own row, so there is one per pull request and nothing to evict,
 *   and recomputed only when one of the two commits changed.
 */
export const refsMigration = (dialect: Dialect): Migration => ({
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('ch_refs')
      .addColumn('repo_id', 'integer', (c: any) => c.notNull().references('ch_repos.id'))
      .addColumn('ref', 'text', (c: any) => c.notNull())
      .addColumn('sha', 'text', (c: any) => c.notNull())
      .addColumn('updated_at', 'text', (c: any) => c.notNull())
      .addPrimaryKeyConstraint('ch_refs_pk', ['repo_id', 'ref'])
      .execute();
    await db.schema.alterTable('ch_repos').addColumn('pushed_at', 'text').execute();
    await db.schema.alterTable('ch_repos').addColumn('refs_synced_at', 'text').execute();
    await db.schema.alterTable('ch_pulls').addColumn('stats_key', 'text').execute();
    await db.schema.alterTable('ch_pulls').addColumn('stats', 'text').execute();
    // PostgreSQL: the new table tells every process's read cache of its commits, as every table does (0008).
    if (dialect === 'postgres') await changeTrigger(db, 'ch_refs');
  },
});
