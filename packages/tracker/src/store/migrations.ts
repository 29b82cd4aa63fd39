import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
import type { StoreAdapter } from './adapter.js';
import { searchMigration } from './migration-0002-search.js';
import { boardIndexesMigration } from './migration-0003-board-indexes.js';
import { codehostMigration } from './migration-0004-codehost.js';
import { projectRolesMigration } from './migration-0005-project-roles.js';
import { branchProtectionMigration } from './migration-0006-branch-protection.js';
import { hooksMigration } from './migration-0007-hooks-and-integration.js';
import { changeNotifyMigration } from './migration-0008-change-notify.js';
import { refsMigration } from './migration-0009-refs.js';

/**
 * One set of migrations for both dialects. The only difference is how an auto-numbered key is
 * spelled, which the dialect's adapter says (`idColumn`).
 */
function migrations(adapter: StoreAdapter): Record<string, Migration> {
  const idColumn = (t: any): any => adapter.idColumn(t);

  return {
    '0001_initial': {
      async up(db: Kysely<any>) {
        await idColumn(db.schema.createTable('sites'))
          .addColumn('host', 'text', (c: any) => c.notNull().unique())
          .addColumn('cloud_id', 'text', (c: any) => c.notNull().unique())
          .addColumn('token_salt', 'text', (c: any) => c.notNull())
          .addColumn('created_at', 'text', (c: any) => c.notNull())
          .execute();
        await idColumn(db.schema.createTable('users'))
          .addColumn('site_id', 'integer', (c: any) => c.notNull().references('sites.id'))
          .addColumn('account_id', 'text', (c: any) => c.notNull())
          .addColumn('email', 'text', (c: any) => c.notNull())
          .addColumn('display_name', 'text', (c: any) => c.notNull())
          .addColumn('active', 'integer', (c: any) => c.notNull().defaultTo(1))
          .addUniqueConstraint('users_site_email', ['site_id', 'email'])
          .addUniqueConstraint('users_site_account', ['site_id', 'account_id'])
          .execute();
        await idColumn(db.schema.createTable('tokens'))
          .addColumn('user_id', 'integer', (c: any) => c.notNull().references('users.id'))
          .addColumn('token_hash', 'text', (c: any) => c.notNull())
          .addColumn('kind', 'text', (c: any) => c.notNull())
          .addColumn('scopes', 'text', (c: any) => c.notNull())
          .addUniqueConstraint('tokens_user_hash', ['user_id', 'token_hash'])
          .execute();
        await idColumn(db.schema.createTable('projects'))
          .addColumn('site_id', 'integer', (c: any) => c.notNull().references('sites.id'))
          .addColumn('key', 'text', (c: any) => c.notNull())
          .addColumn('name', 'text', (c: any) => c.notNull())
          .addColumn('lead_user_id', 'integer', (c: any) => c.references('users.id'))
          .addColumn('workflow', 'text', (c: any) => c.notNull())
          .addColumn('issue_counter', 'integer', (c: any) => c.notNull().defaultTo(0))
          .addUniqueConstraint('projects_site_key', ['site_id', 'key'])
          .execute();
        await db.schema
          .createTable('members')
          .addColumn('project_id', 'integer', (c: any) => c.notNull().references('projects.id'))
          .addColumn('user_id', 'integer', (c: any) => c.notNull().references('users.id'))
          .addColumn('role', 'text', (c: any) => c.notNull())
          .addPrimaryKeyConstraint('members_pk', ['project_id', 'user_id'])
          .execute();
        await idColumn(db.schema.createTable('statuses'))
          .addColumn('site_id', 'integer', (c: any) => c.notNull().references('sites.id'))
          .addColumn('name', 'text', (c: any) => c.notNull())
          .addColumn('category', 'text', (c: any) => c.notNull())
          .addUniqueConstraint('statuses_site_name', ['site_id', 'name'])
          .execute();
        await idColumn(db.schema.createTable('issues'))
          .addColumn('project_id', 'integer', (c: any) => c.notNull().references('projects.id'))
          .addColumn('number', 'integer', (c: any) => c.notNull())
          .addColumn('key', 'text', (c: any) => c.notNull())
          .addColumn('issue_type', 'text', (c: any) => c.notNull())
          .addColumn('summary', 'text', (c: any) => c.notNull())
          .addColumn('description', 'text')
          .addColumn('status_id', 'integer', (c: any) => c.notNull().references('statuses.id'))
          .addColumn('parent_id', 'integer', (c: any) => c.references('issues.id'))
          .addColumn('assignee_id', 'integer', (c: any) => c.references('users.id'))
          .addColumn('reporter_id', 'integer', (c: any) => c.notNull().references('users.id'))
          .addColumn('creator_id', 'integer', (c: any) => c.notNull().references('users.id'))
          .addColumn('created_at', 'text', (c: any) => c.notNull())
          .addColumn('updated_at', 'text', (c: any) => c.notNull())
          .addColumn('version', 'integer', (c: any) => c.notNull().defaultTo(1))
          .addUniqueConstraint('issues_project_number', ['project_id', 'number'])
          .execute();
        await db.schema.createIndex('issues_project_status').on('issues').columns(['project_id', 'status_id']).execute();
        await db.schema.createIndex('issues_assignee').on('issues').column('assignee_id').execute();
        await db.schema.createIndex('issues_parent').on('issues').column('parent_id').execute();
        await db.schema.createIndex('issues_updated').on('issues').column('updated_at').execute();
        await idColumn(db.schema.createTable('comments'))
          .addColumn('issue_id', 'integer', (c: any) => c.notNull().references('issues.id'))
          .addColumn('author_id', 'integer', (c: any) => c.notNull().references('users.id'))
          .addColumn('body', 'text', (c: any) => c.notNull())
          .addColumn('created_at', 'text', (c: any) => c.notNull())
          .addColumn('updated_at', 'text', (c: any) => c.notNull())
          .execute();
        await db.schema.createIndex('comments_issue').on('comments').columns(['issue_id', 'id']).execute();
      },
    },
    '0002_search': searchMigration,
    '0003_board_indexes': boardIndexesMigration,
    '0004_codehost': codehostMigration(idColumn),
    '0005_project_roles': projectRolesMigration,
    '0006_branch_protection': branchProtectionMigration,
    '0007_hooks_and_integration': hooksMigration(idColumn),
    '0008_change_notify': changeNotifyMigration(adapter.dialect),
    '0009_refs': refsMigration(adapter.dialect),
  };
}

class InCodeProvider implements MigrationProvider {
  constructor(private readonly adapter: StoreAdapter) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    return migrations(this.adapter);
  }
}

/**
 * Brings the schema up to date, alone among processes starting together over one database
 * (StoreAdapter.migrating; Kysely's own lock table covers the rest).
 */
export function migrate(db: Kysely<any>, adapter: StoreAdapter): Promise<void> {
  return adapter.migrating(db, async (conn) => {
    const { error } = await new Migrator({ db: conn, provider: new InCodeProvider(adapter) }).migrateToLatest();
    if (error) throw error instanceof Error ? error : new Error(JSON.stringify(error));
  });
}
