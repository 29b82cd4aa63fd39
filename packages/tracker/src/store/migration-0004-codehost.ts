import type { Kysely, Migration } from 'kysely';

/**
 * The embedded code host's tables (ARCHITECTURE §14; the module is src/codehost/, whose
 * store/schema.ts types them). They live in the tracker's one migration list so that every
 * process over one database agrees on one schema version; the tracker's own code never reads them.
 *
 * `ch_pulls.open_key` is `head\nbase` while the pull request is open and NULL once it is closed:
 * the unique index on (repo, open_key) lets the database itself refuse a second open pull request
 * for one head and base (NULLs never collide, on SQLite and PostgreSQL alike). `merge_claim` is
 * the merge in progress (one process at a time runs git's merge for one pull request).
 * `issue_key` is the tracker issue key the head branch carries (`feature/ABC-1-…` → `ABC-1`), upper-case,
 * for the board's development panel. `idColumn` declares an auto-numbered key as the dialect spells it
 * (StoreAdapter.idColumn).
 */
export function codehostMigration(idColumn: (table: any) => any): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('ch_meta')
        .addColumn('name', 'text', (c: any) => c.primaryKey())
        .addColumn('value', 'text', (c: any) => c.notNull())
        .execute();
      await idColumn(db.schema.createTable('ch_users'))
        .addColumn('login', 'text', (c: any) => c.notNull())
        .addColumn('login_key', 'text', (c: any) => c.notNull().unique())
        .addColumn('name', 'text')
        .addColumn('created_at', 'text', (c: any) => c.notNull())
        .execute();
      await idColumn(db.schema.createTable('ch_tokens'))
        .addColumn('user_id', 'integer', (c: any) => c.notNull().references('ch_users.id'))
        .addColumn('token_hash', 'text', (c: any) => c.notNull().unique())
        .execute();
      await idColumn(db.schema.createTable('ch_repos'))
        .addColumn('owner', 'text', (c: any) => c.notNull())
        .addColumn('name', 'text', (c: any) => c.notNull())
        .addColumn('owner_key', 'text', (c: any) => c.notNull())
        .addColumn('name_key', 'text', (c: any) => c.notNull())
        .addColumn('default_branch', 'text', (c: any) => c.notNull())
        .addColumn('pull_counter', 'integer', (c: any) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c: any) => c.notNull())
        .addColumn('updated_at', 'text', (c: any) => c.notNull())
        .addUniqueConstraint('ch_repos_owner_name', ['owner_key', 'name_key'])
        .execute();
      await db.schema
        .createTable('ch_collaborators')
        .addColumn('repo_id', 'integer', (c: any) => c.notNull().references('ch_repos.id'))
        .addColumn('user_id', 'integer', (c: any) => c.notNull().references('ch_users.id'))
        .addColumn('permission', 'text', (c: any) => c.notNull())
        .addPrimaryKeyConstraint('ch_collaborators_pk', ['repo_id', 'user_id'])
        .execute();
      await idColumn(db.schema.createTable('ch_pulls'))
        .addColumn('repo_id', 'integer', (c: any) => c.notNull().references('ch_repos.id'))
        .addColumn('number', 'integer', (c: any) => c.notNull())
        .addColumn('user_id', 'integer', (c: any) => c.notNull().references('ch_users.id'))
        .addColumn('title', 'text', (c: any) => c.notNull())
        .addColumn('body', 'text')
        .addColumn('state', 'text', (c: any) => c.notNull())
        .addColumn('draft', 'integer', (c: any) => c.notNull().defaultTo(0))
        .addColumn('head_ref', 'text', (c: any) => c.notNull())
        .addColumn('issue_key', 'text')
        .addColumn('base_ref', 'text', (c: any) => c.notNull())
        .addColumn('head_sha', 'text', (c: any) => c.notNull())
        .addColumn('base_sha', 'text', (c: any) => c.notNull())
        .addColumn('open_key', 'text')
        .addColumn('merged', 'integer', (c: any) => c.notNull().defaultTo(0))
        .addColumn('merged_at', 'text')
        .addColumn('merged_by_id', 'integer', (c: any) => c.references('ch_users.id'))
        .addColumn('merge_commit_sha', 'text')
        .addColumn('merge_claim', 'text')
        .addColumn('merge_claim_at', 'text')
        .addColumn('created_at', 'text', (c: any) => c.notNull())
        .addColumn('updated_at', 'text', (c: any) => c.notNull())
        .addColumn('closed_at', 'text')
        .addUniqueConstraint('ch_pulls_repo_number', ['repo_id', 'number'])
        .addUniqueConstraint('ch_pulls_one_open', ['repo_id', 'open_key'])
        .execute();
      await db.schema.createIndex('ch_pulls_repo_head').on('ch_pulls').columns(['repo_id', 'head_ref']).execute();
      await db.schema.createIndex('ch_pulls_issue_key').on('ch_pulls').columns(['issue_key', 'id']).execute();
      await idColumn(db.schema.createTable('ch_reviews'))
        .addColumn('pull_id', 'integer', (c: any) => c.notNull().references('ch_pulls.id'))
        .addColumn('user_id', 'integer', (c: any) => c.notNull().references('ch_users.id'))
        .addColumn('state', 'text', (c: any) => c.notNull())
        .addColumn('body', 'text', (c: any) => c.notNull())
        .addColumn('commit_id', 'text', (c: any) => c.notNull())
        .addColumn('submitted_at', 'text', (c: any) => c.notNull())
        .execute();
      await db.schema.createIndex('ch_reviews_pull').on('ch_reviews').columns(['pull_id', 'id']).execute();
      await idColumn(db.schema.createTable('ch_comments'))
        .addColumn('repo_id', 'integer', (c: any) => c.notNull().references('ch_repos.id'))
        .addColumn('number', 'integer', (c: any) => c.notNull())
        .addColumn('user_id', 'integer', (c: any) => c.notNull().references('ch_users.id'))
        .addColumn('body', 'text', (c: any) => c.notNull())
        .addColumn('created_at', 'text', (c: any) => c.notNull())
        .addColumn('updated_at', 'text', (c: any) => c.notNull())
        .execute();
      await db.schema.createIndex('ch_comments_issue').on('ch_comments').columns(['repo_id', 'number', 'id']).execute();
    },
  };
}
