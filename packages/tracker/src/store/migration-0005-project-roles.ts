import type { Kysely, Migration } from 'kysely';

/**
 * Which account holds each of the toolkit's three roles in a project (ARCHITECTURE §5 `"roles"`,
 * an optional seed field): the board highlights a marker comment only when that role's account
 * wrote it (ARCHITECTURE §11, §12). One row per (project, role); no row = the role is not named.
 */
export const projectRolesMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('project_roles')
      .addColumn('project_id', 'integer', (c: any) => c.notNull().references('projects.id'))
      .addColumn('role', 'text', (c: any) => c.notNull())
      .addColumn('user_id', 'integer', (c: any) => c.notNull().references('users.id'))
      .addPrimaryKeyConstraint('project_roles_pk', ['project_id', 'role'])
      .execute();
  },
};
