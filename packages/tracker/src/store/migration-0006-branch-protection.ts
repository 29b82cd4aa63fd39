import type { Kysely, Migration } from 'kysely';

/**
 * The code host's branch protection (ARCHITECTURE §21, GitHub's "Update branch protection"): one
 * row per protected branch of a repository. `rules` is the protection as the code host's domain
 * keeps it (codehost/domain/protection.ts), JSON text, so GitHub's settings the code host echoes
 * but does not enforce need no column of their own.
 */
export const branchProtectionMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('ch_protections')
      .addColumn('repo_id', 'integer', (c: any) => c.notNull().references('ch_repos.id'))
      .addColumn('branch', 'text', (c: any) => c.notNull())
      .addColumn('rules', 'text', (c: any) => c.notNull())
      .addColumn('updated_at', 'text', (c: any) => c.notNull())
      .addPrimaryKeyConstraint('ch_protections_pk', ['repo_id', 'branch'])
      .execute();
  },
};
