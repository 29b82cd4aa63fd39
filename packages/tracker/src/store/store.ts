import { sql, type Expression, type Kysely, type SqlBool, type Transaction } from 'kysely';
import type { Db, Dialect } from './db.js';
import { migrate } from './migrations.js';
import type { Database } from './schema.js';

export type Tx = Kysely<Database> | Transaction<Database>;

export interface SiteRow { id: number; host: string; cloud_id: string; token_salt: string }
export interface UserRow { id: number; site_id: number; account_id: string; email: string; display_name: string; active: number }
export interface TokenRow { token_hash: string; kind: string; scopes: string }
export interface ProjectRow { id: number; site_id: number; key: string; name: string; lead_user_id: number | null; workflow: string; issue_counter: number }
export interface StatusRow { id: number; site_id: number; name: string; category: string }
export interface IssueRow {
  id: number; project_id: number; number: number; key: string; issue_type: string; summary: string;
  description: string | null; status_id: number; parent_id: number | null; assignee_id: number | null;
  reporter_id: number; creator_id: number; created_at: string; updated_at: string; version: number;
}
export interface CommentRow { id: number; issue_id: number; author_id: number; body: string; created_at: string; updated_at: string }

export interface NewIssue {
  projectId: number; issueType: string; summary: string; description: string | null; statusId: number;
  parentId: number | null; assigneeId: number | null; reporterId: number; creatorId: number; now: string;
}

export interface IssuePatch { summary?: string; description?: string | null; assignee_id?: number | null; reporter_id?: number; status_id?: number }

/**
 * The only place that writes SQL. One code path for SQLite and PostgreSQL through Kysely; the
 * store decides no rule (that is the domain's job), it only reads and writes rows.
 */
export class Store {
  readonly kysely: Kysely<Database>;
  readonly dialect: Dialect;

  constructor(private readonly db: Db) {
    this.kysely = db.kysely;
    this.dialect = db.dialect;
  }

  get location(): string { return this.db.location; }

  migrate(): Promise<void> { return migrate(this.kysely, this.dialect); }

  close(): Promise<void> { return this.db.close(); }

  transaction<T>(work: (tx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.kysely.transaction().execute(work);
  }

  /**
   * Serialises seed loading across processes that start together over one PostgreSQL database:
   * the lock is held until the transaction ends, so the next loader sees the rows the first one
   * wrote instead of racing it into a unique-key violation.
   */
  async lockForSeed(tx: Transaction<Database>): Promise<void> {
    if (this.dialect === 'postgres') await sql`select pg_advisory_xact_lock(4242018)`.execute(tx);
  }

  // --- sites and users -------------------------------------------------------------------------

  listSites(tx: Tx = this.kysely): Promise<SiteRow[]> {
    return tx.selectFrom('sites').select(['id', 'host', 'cloud_id', 'token_salt']).orderBy('id').execute();
  }

  async insertSite(tx: Tx, site: Omit<SiteRow, 'id'>, now: string): Promise<SiteRow> {
    const row = await tx.insertInto('sites').values({ ...site, created_at: now }).returning(['id', 'host', 'cloud_id', 'token_salt']).executeTakeFirstOrThrow();
    return row;
  }

  async updateSiteHost(tx: Tx, id: number, host: string): Promise<void> {
    await tx.updateTable('sites').set({ host }).where('id', '=', id).execute();
  }

  userByEmail(siteId: number, email: string, tx: Tx = this.kysely): Promise<UserRow | undefined> {
    return tx.selectFrom('users').selectAll().where('site_id', '=', siteId).where('email', '=', email.toLowerCase()).executeTakeFirst();
  }

  userByAccountId(siteId: number, accountId: string, tx: Tx = this.kysely): Promise<UserRow | undefined> {
    return tx.selectFrom('users').selectAll().where('site_id', '=', siteId).where('account_id', '=', accountId).executeTakeFirst();
  }

  usersByIds(ids: number[], tx: Tx = this.kysely): Promise<UserRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return tx.selectFrom('users').selectAll().where('id', 'in', [...new Set(ids)]).execute();
  }

  tokensOf(userId: number, tx: Tx = this.kysely): Promise<TokenRow[]> {
    return tx.selectFrom('tokens').select(['token_hash', 'kind', 'scopes']).where('user_id', '=', userId).execute();
  }

  async insertUser(tx: Tx, user: Omit<UserRow, 'id'>): Promise<UserRow> {
    return tx.insertInto('users').values(user).returningAll().executeTakeFirstOrThrow();
  }

  async updateUserName(tx: Tx, id: number, displayName: string): Promise<void> {
    await tx.updateTable('users').set({ display_name: displayName }).where('id', '=', id).execute();
  }

  async insertTokenIfAbsent(tx: Tx, userId: number, token: TokenRow): Promise<void> {
    const existing = await tx.selectFrom('tokens').select(['id', 'kind', 'scopes']).where('user_id', '=', userId).where('token_hash', '=', token.token_hash).executeTakeFirst();
    if (!existing) {
      await tx.insertInto('tokens').values({ user_id: userId, ...token }).execute();
    } else if (existing.kind !== token.kind || existing.scopes !== token.scopes) {
      await tx.updateTable('tokens').set({ kind: token.kind, scopes: token.scopes }).where('id', '=', existing.id).execute();
    }
  }

  /** Users whose e-mail or display name starts with the query (case-insensitive). */
  searchUsers(siteId: number, query: string, startAt: number, maxResults: number): Promise<UserRow[]> {
    const q = query.toLowerCase();
    const pattern = `${escapeLike(q)}%`;
    return this.kysely
      .selectFrom('users')
      .selectAll()
      .where('site_id', '=', siteId)
      .where('active', '=', 1)
      .where((eb) => eb.or([
        like(eb.ref('email'), pattern),
        like(eb.fn('lower', ['display_name']), pattern),
        eb('account_id', '=', query),
      ]))
      .orderBy('display_name')
      .orderBy('id')
      .offset(startAt)
      .limit(maxResults)
      .execute();
  }

  // --- projects --------------------------------------------------------------------------------

  projectByKey(siteId: number, key: string, tx: Tx = this.kysely): Promise<ProjectRow | undefined> {
    return tx.selectFrom('projects').selectAll().where('site_id', '=', siteId).where('key', '=', key.toUpperCase()).executeTakeFirst();
  }

  projectById(id: number, tx: Tx = this.kysely): Promise<ProjectRow | undefined> {
    return tx.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async insertProject(tx: Tx, p: Omit<ProjectRow, 'id' | 'issue_counter'>): Promise<ProjectRow> {
    return tx.insertInto('projects').values({ ...p, issue_counter: 0 }).returningAll().executeTakeFirstOrThrow();
  }

  async updateProject(tx: Tx, id: number, set: { name: string; lead_user_id: number | null; workflow: string }): Promise<void> {
    await tx.updateTable('projects').set(set).where('id', '=', id).execute();
  }

  roleOf(projectId: number, userId: number, tx: Tx = this.kysely): Promise<string | undefined> {
    return tx.selectFrom('members').select('role').where('project_id', '=', projectId).where('user_id', '=', userId)
      .executeTakeFirst().then((r) => r?.role);
  }

  async upsertMember(tx: Tx, projectId: number, userId: number, role: string): Promise<void> {
    const current = await this.roleOf(projectId, userId, tx);
    if (current === undefined) await tx.insertInto('members').values({ project_id: projectId, user_id: userId, role }).execute();
    else if (current !== role) await tx.updateTable('members').set({ role }).where('project_id', '=', projectId).where('user_id', '=', userId).execute();
  }

  /** Projects the user is a member of, ordered by key, with an optional key/name filter. */
  async projectsForUser(siteId: number, userId: number, opts: { query?: string | undefined; keys?: string[] | undefined; orderBy?: 'key' | 'name'; descending?: boolean; startAt: number; maxResults: number }): Promise<{ total: number; rows: ProjectRow[] }> {
    let base = this.kysely
      .selectFrom('projects')
      .innerJoin('members', 'members.project_id', 'projects.id')
      .where('projects.site_id', '=', siteId)
      .where('members.user_id', '=', userId);
    if (opts.query) {
      const pattern = `%${escapeLike(opts.query.toLowerCase())}%`;
      base = base.where((eb) => eb.or([like(eb.fn('lower', ['projects.key']), pattern), like(eb.fn('lower', ['projects.name']), pattern)]));
    }
    if (opts.keys && opts.keys.length > 0) base = base.where('projects.key', 'in', opts.keys.map((k) => k.toUpperCase()));
    const count = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const direction = opts.descending ? 'desc' : 'asc';
    const rows = opts.maxResults === 0 ? [] : await base.selectAll('projects').orderBy(opts.orderBy === 'name' ? 'projects.name' : 'projects.key', direction).orderBy('projects.id').offset(opts.startAt).limit(opts.maxResults).execute();
    return { total: Number(count.n), rows };
  }

  // --- statuses --------------------------------------------------------------------------------

  statusesOfSite(siteId: number, tx: Tx = this.kysely): Promise<StatusRow[]> {
    return tx.selectFrom('statuses').selectAll().where('site_id', '=', siteId).orderBy('id').execute();
  }

  async ensureStatus(tx: Tx, siteId: number, name: string, category: string): Promise<StatusRow> {
    const existing = await tx.selectFrom('statuses').selectAll().where('site_id', '=', siteId).where('name', '=', name).executeTakeFirst();
    if (existing) return existing;
    return tx.insertInto('statuses').values({ site_id: siteId, name, category }).returningAll().executeTakeFirstOrThrow();
  }

  // --- issues ----------------------------------------------------------------------------------

  /**
   * Creates an issue with the next key of its project. The counter is advanced by an UPDATE in the
   * same transaction as the insert, so the row lock serialises concurrent creators (also across
   * processes on PostgreSQL) and no two issues ever share a key.
   */
  async createIssue(tx: Transaction<Database>, issue: NewIssue, projectKey: string): Promise<IssueRow> {
    const counter = await tx.updateTable('projects').set((eb) => ({ issue_counter: eb('issue_counter', '+', 1) }))
      .where('id', '=', issue.projectId).returning('issue_counter').executeTakeFirstOrThrow();
    const number = Number(counter.issue_counter);
    return tx.insertInto('issues').values({
      project_id: issue.projectId,
      number,
      key: `${projectKey}-${number}`,
      issue_type: issue.issueType,
      summary: issue.summary,
      description: issue.description,
      status_id: issue.statusId,
      parent_id: issue.parentId,
      assignee_id: issue.assigneeId,
      reporter_id: issue.reporterId,
      creator_id: issue.creatorId,
      created_at: issue.now,
      updated_at: issue.now,
      version: 1,
    }).returningAll().executeTakeFirstOrThrow();
  }

  issueByNumber(projectId: number, number: number, tx: Tx = this.kysely): Promise<IssueRow | undefined> {
    return tx.selectFrom('issues').selectAll().where('project_id', '=', projectId).where('number', '=', number).executeTakeFirst();
  }

  issueById(id: number, tx: Tx = this.kysely): Promise<IssueRow | undefined> {
    return tx.selectFrom('issues').selectAll().where('id', '=', id).executeTakeFirst();
  }

  subtasksOf(parentId: number, tx: Tx = this.kysely): Promise<IssueRow[]> {
    return tx.selectFrom('issues').selectAll().where('parent_id', '=', parentId).orderBy('id').execute();
  }

  countSubtasks(parentId: number, tx: Tx = this.kysely): Promise<number> {
    return tx.selectFrom('issues').select((eb) => eb.fn.countAll<number>().as('n')).where('parent_id', '=', parentId)
      .executeTakeFirstOrThrow().then((r) => Number(r.n));
  }

  /**
   * Compare-and-set update: applies only when the row still has `expectedVersion`, so two
   * writers racing on one issue (in one process or several) never lose an update silently.
   * Returns false when the version moved on.
   */
  async updateIssue(tx: Tx, id: number, expectedVersion: number, patch: IssuePatch, now: string): Promise<boolean> {
    const result = await tx.updateTable('issues')
      .set({ ...patch, updated_at: now, version: expectedVersion + 1 })
      .where('id', '=', id).where('version', '=', expectedVersion)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Deletes issues and their comments. */
  async deleteIssues(tx: Tx, ids: number[]): Promise<void> {
    if (ids.length === 0) return;
    await tx.deleteFrom('comments').where('issue_id', 'in', ids).execute();
    await tx.deleteFrom('issues').where('id', 'in', ids).execute();
  }

  // --- comments --------------------------------------------------------------------------------

  async addComment(tx: Tx, issueId: number, authorId: number, body: string, now: string): Promise<CommentRow> {
    return tx.insertInto('comments').values({ issue_id: issueId, author_id: authorId, body, created_at: now, updated_at: now })
      .returningAll().executeTakeFirstOrThrow();
  }

  async commentsOf(issueId: number, opts: { startAt: number; maxResults: number; descending: boolean }, tx: Tx = this.kysely): Promise<{ total: number; rows: CommentRow[] }> {
    const count = await tx.selectFrom('comments').select((eb) => eb.fn.countAll<number>().as('n')).where('issue_id', '=', issueId).executeTakeFirstOrThrow();
    const rows = opts.maxResults === 0 ? [] : await tx.selectFrom('comments').selectAll().where('issue_id', '=', issueId)
      .orderBy('id', opts.descending ? 'desc' : 'asc').offset(opts.startAt).limit(opts.maxResults).execute();
    return { total: Number(count.n), rows };
  }
}

/** User text is matched literally: LIKE's wildcards are escaped, the same way on both dialects. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function like(expr: Expression<unknown>, pattern: string): Expression<SqlBool> {
  return sql<SqlBool>`${expr} like ${pattern} escape '\\'`;
}
