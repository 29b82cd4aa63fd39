import { sql, type Kysely, type SqlBool } from 'kysely';
import type { StoreContext } from './adapter.js';
import { escapeLike, like } from './like.js';
import type { ProjectRow, StatusRow } from './rows.js';
import type { Database, Tx } from './schema.js';

/** The projects of a site with their members (a role each) and the site's statuses their workflows name. */

export interface ProjectQuery {
  query?: string | undefined;
  keys?: string[] | undefined;
  ids?: number[] | undefined;
  orderBy?: 'key' | 'name';
  descending?: boolean;
  startAt: number;
  maxResults: number;
}

const projectWithRole = (db: Kysely<Database>, userId: number) =>
  db
    .selectFrom('projects')
    .leftJoin('members', (join) => join.onRef('members.project_id', '=', 'projects.id').on('members.user_id', '=', userId))
    .selectAll('projects')
    .select('members.role as role');

export function projectsRepository({ kysely, prepare }: StoreContext) {
  const q = {
    byKey: prepare((db, siteId: number, key: string) => db.selectFrom('projects').selectAll().where('site_id', '=', siteId).where('key', '=', key)),
    withRoleByKey: prepare((db, userId: number, siteId: number, key: string) =>
      projectWithRole(db, userId).where('projects.site_id', '=', siteId).where('projects.key', '=', key),
    ),
    withRoleById: prepare((db, userId: number, id: number) => projectWithRole(db, userId).where('projects.id', '=', id)),
    roleOf: prepare((db, projectId: number, userId: number) =>
      db.selectFrom('members').select('role').where('project_id', '=', projectId).where('user_id', '=', userId),
    ),
  };

  function roleOf(projectId: number, userId: number, tx: Tx = kysely): Promise<string | undefined> {
    return q.roleOf.first(tx, projectId, userId).then((r) => r?.role);
  }

  return {
    byKey(siteId: number, key: string, tx: Tx = kysely): Promise<ProjectRow | undefined> {
      return q.byKey.first(tx, siteId, key.toUpperCase());
    },

    /** A project and the user's role there (undefined: not a member), in one read. */
    async withRole(
      ref: { siteId: number; key: string } | { id: number },
      userId: number,
    ): Promise<{ project: ProjectRow; role: string | undefined } | undefined> {
      const row =
        'key' in ref ? await q.withRoleByKey.first(kysely, userId, ref.siteId, ref.key.toUpperCase()) : await q.withRoleById.first(kysely, userId, ref.id);
      if (!row) return undefined;
      const { role, ...project } = row;
      return { project, role: role ?? undefined };
    },

    insert(tx: Tx, p: Omit<ProjectRow, 'id' | 'issue_counter'>): Promise<ProjectRow> {
      return tx
        .insertInto('projects')
        .values({ ...p, issue_counter: 0 })
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    async update(tx: Tx, id: number, set: { name: string; lead_user_id: number | null; workflow: string }): Promise<void> {
      await tx.updateTable('projects').set(set).where('id', '=', id).execute();
    },

    /** Projects the user is a member of, ordered by key (or name), with an optional key/name filter, and their total. */
    async forUser(siteId: number, userId: number, opts: ProjectQuery): Promise<{ total: number; rows: ProjectRow[] }> {
      let base = kysely
        .selectFrom('projects')
        .innerJoin('members', 'members.project_id', 'projects.id')
        .where('projects.site_id', '=', siteId)
        .where('members.user_id', '=', userId);
      if (opts.query) {
        const pattern = `%${escapeLike(opts.query.toLowerCase())}%`;
        base = base.where((eb) => eb.or([like(eb.fn('lower', ['projects.key']), pattern), like(eb.fn('lower', ['projects.name']), pattern)]));
      }
      if (opts.keys && opts.keys.length > 0)
        base = base.where(
          'projects.key',
          'in',
          opts.keys.map((k) => k.toUpperCase()),
        );
      if (opts.ids) base = opts.ids.length > 0 ? base.where('projects.id', 'in', opts.ids) : base.where(sql<SqlBool>`1 = 0`);
      const count = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      const direction = opts.descending ? 'desc' : 'asc';
      const rows =
        opts.maxResults === 0
          ? []
          : await base
              .selectAll('projects')
              .orderBy(opts.orderBy === 'name' ? 'projects.name' : 'projects.key', direction)
              .orderBy('projects.id')
              .offset(opts.startAt)
              .limit(opts.maxResults)
              .execute();
      return { total: Number(count.n), rows };
    },

    // --- members ---

    roleOf,

    /** Adds the member or sets its role; true when that changed anything. */
    async upsertMember(tx: Tx, projectId: number, userId: number, role: string): Promise<boolean> {
      const current = await roleOf(projectId, userId, tx);
      if (current === undefined) await tx.insertInto('members').values({ project_id: projectId, user_id: userId, role }).execute();
      else if (current !== role) await tx.updateTable('members').set({ role }).where('project_id', '=', projectId).where('user_id', '=', userId).execute();
      return current !== role;
    },

    /** Moves the version of every issue of the project (each issue's compare-and-set then fails once for a writer that read it before). */
    async touchIssues(tx: Tx, projectId: number): Promise<void> {
      await tx
        .updateTable('issues')
        .set((eb) => ({ version: eb('version', '+', 1) }))
        .where('project_id', '=', projectId)
        .execute();
    },

    // --- statuses (a site's, named by its projects' workflows) ---

    statusesOfSite(siteId: number, tx: Tx = kysely): Promise<StatusRow[]> {
      return tx.selectFrom('statuses').selectAll().where('site_id', '=', siteId).orderBy('id').execute();
    },

    async ensureStatus(tx: Tx, siteId: number, name: string, category: string): Promise<StatusRow> {
      const existing = await tx.selectFrom('statuses').selectAll().where('site_id', '=', siteId).where('name', '=', name).executeTakeFirst();
      if (existing) return existing;
      return tx.insertInto('statuses').values({ site_id: siteId, name, category }).returningAll().executeTakeFirstOrThrow();
    },
  };
}

export type Projects = ReturnType<typeof projectsRepository>;
