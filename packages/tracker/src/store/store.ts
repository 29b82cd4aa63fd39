import { sql, type Compilable, type Expression, type Kysely, type SqlBool, type Transaction } from 'kysely';
import type { Comment, CommentRows, Issue, Project, Site, Status, User } from '../domain/model.js';
import type { Db, Dialect, RunNow } from './db.js';
import { migrate } from './migrations.js';
import { Prepared } from './prepared.js';
import type { Database, Tx } from './schema.js';

export type { Tx } from './schema.js';

// The rows are the domain's values (domain/model.ts, which imports nothing), under the store's names.
export type SiteRow = Site;
export type UserRow = User;
export interface TokenRow { token_hash: string; kind: string; scopes: string }
export type ProjectRow = Project;
export type StatusRow = Status;
export type IssueRow = Issue;
export type CommentRow = Comment;

export interface NewIssue {
  projectId: number; issueType: string; summary: string; description: string | null; statusId: number;
  parentId: number | null; assigneeId: number | null; reporterId: number; creatorId: number; now: string;
}

export interface IssuePatch { summary?: string; description?: string | null; assignee_id?: number | null; reporter_id?: number; status_id?: number }

/**
 * An issue with its project and the reading user's role there (undefined: not a member), and
 * whether it has sub-tasks (an index probe in the same statement, so a view of an issue without
 * any, nearly every one, needs no second read for them).
 */
export interface IssueWithProject { issue: IssueRow; project: ProjectRow; role: string | undefined; hasSubtasks: boolean }

const ISSUE_COLUMNS = ['id', 'project_id', 'number', 'key', 'issue_type', 'summary', 'description', 'status_id', 'parent_id',
  'assignee_id', 'reporter_id', 'creator_id', 'created_at', 'updated_at', 'version'] as const;
/** Issue-update statements kept compiled, one per set of changed columns (a request changes few). */
const MAX_PREPARED_PATCHES = 64;
/** `where id in (…)` statements kept compiled, one per list length up to this. */
const MAX_PREPARED_IN = 16;

/** An issue, its project, the reading user's role there and whether it has sub-tasks, in one statement (IssueWithProject). */
const issueWithProject = (db: Kysely<Database>, userId: number) => db.selectFrom('issues')
  .innerJoin('projects', 'projects.id', 'issues.project_id')
  .leftJoin('members', (join) => join.onRef('members.project_id', '=', 'projects.id').on('members.user_id', '=', userId))
  .select(ISSUE_COLUMNS.map((c) => `issues.${c}` as const))
  .select(['projects.site_id as p_site_id', 'projects.key as p_key', 'projects.name as p_name', 'projects.lead_user_id as p_lead_user_id',
    'projects.workflow as p_workflow', 'projects.issue_counter as p_issue_counter', 'members.role as p_role'])
  .select((eb) => eb.exists(eb.selectFrom('issues as sub').select('sub.id').whereRef('sub.parent_id', '=', 'issues.id')).as('p_has_subtasks'));

/**
 * PostgreSQL: the issue's first `size` comments, oldest first, as one JSON array of [id,
 * author_id, body, created_at, updated_at] (null when it has none), a column of the issue's own
 * statement (Store.issueView).
 */
function firstCommentsColumn(size: number) {
  const page = sql`(select c.id, c.author_id, c.body, c.created_at, c.updated_at from comments as c where c.issue_id = issues.id order by c.id limit ${sql.lit(size)})`;
  return sql<unknown>`(select json_agg(json_build_array(p.id, p.author_id, p.body, p.created_at, p.updated_at) order by p.id) from ${page} as p)`.as('p_comments');
}

/**
 * The queries every request runs, compiled once per store (store/prepared.ts). The builders
 * use their arguments only as values; everything computed (lower-casing, counting) happens in the
 * Store methods that call them.
 */
function hotQueries(prepare: <A extends unknown[], R>(build: (db: Kysely<Database>, ...args: A) => Compilable<R>) => Prepared<A, R>) {
  const projectWithRole = (db: Kysely<Database>, userId: number) => db.selectFrom('projects')
    .leftJoin('members', (join) => join.onRef('members.project_id', '=', 'projects.id').on('members.user_id', '=', userId))
    .selectAll('projects').select('members.role as role');
  return {
    userByEmail: prepare((db, siteId: number, email: string) => db.selectFrom('users').selectAll().where('site_id', '=', siteId).where('email', '=', email)),
    userByAccountId: prepare((db, siteId: number, accountId: string) => db.selectFrom('users').selectAll().where('site_id', '=', siteId).where('account_id', '=', accountId)),
    tokensOf: prepare((db, userId: number) => db.selectFrom('tokens').select(['token_hash', 'kind', 'scopes']).where('user_id', '=', userId)),
    projectByKey: prepare((db, siteId: number, key: string) => db.selectFrom('projects').selectAll().where('site_id', '=', siteId).where('key', '=', key)),
    projectWithRoleByKey: prepare((db, userId: number, siteId: number, key: string) => projectWithRole(db, userId).where('projects.site_id', '=', siteId).where('projects.key', '=', key)),
    projectWithRoleById: prepare((db, userId: number, id: number) => projectWithRole(db, userId).where('projects.id', '=', id)),
    roleOf: prepare((db, projectId: number, userId: number) => db.selectFrom('members').select('role').where('project_id', '=', projectId).where('user_id', '=', userId)),
    issueById: prepare((db, id: number) => db.selectFrom('issues').selectAll().where('id', '=', id)),
    issueWithProjectByKey: prepare((db, userId: number, siteId: number, key: string, number: number) => issueWithProject(db, userId)
      .where('projects.site_id', '=', siteId).where('projects.key', '=', key).where('issues.number', '=', number)),
    issueWithProjectById: prepare((db, userId: number, id: number) => issueWithProject(db, userId).where('issues.id', '=', id)),
    subtasksOf: prepare((db, parentId: number) => db.selectFrom('issues').selectAll().where('parent_id', '=', parentId).orderBy('id')),
    advanceCounter: prepare((db, projectId: number) => db.updateTable('projects').set((eb) => ({ issue_counter: eb('issue_counter', '+', 1) }))
      .where('id', '=', projectId).returning('issue_counter')),
    insertIssue: prepare((db, projectId: number, number: number, key: string, issueType: string, summary: string, description: string | null,
      statusId: number, parentId: number | null, assigneeId: number | null, reporterId: number, creatorId: number, now: string) => db.insertInto('issues').values({
      project_id: projectId, number, key, issue_type: issueType, summary, description, status_id: statusId, parent_id: parentId,
      assignee_id: assigneeId, reporter_id: reporterId, creator_id: creatorId, created_at: now, updated_at: now, version: 1,
    }).returningAll()),
    // PostgreSQL: counter and insert in one statement. The UPDATE's row lock serialises concurrent
    // creators exactly as the two-statement transaction does, at one round trip instead of four.
    createIssueAtomically: prepare((db, projectId: number, keyPrefix: string, issueType: string, summary: string, description: string | null,
      statusId: number, parentId: number | null, assigneeId: number | null, reporterId: number, creatorId: number, now: string) => db
      .with('counter', (qb) => qb.updateTable('projects').set((eb) => ({ issue_counter: eb('issue_counter', '+', 1) })).where('id', '=', projectId).returning('issue_counter'))
      .insertInto('issues').values({
        project_id: projectId,
        number: sql<number>`(select issue_counter from counter)`,
        key: sql<string>`concat(cast(${keyPrefix} as text), (select issue_counter from counter))`,
        issue_type: issueType, summary, description, status_id: statusId, parent_id: parentId,
        assignee_id: assigneeId, reporter_id: reporterId, creator_id: creatorId, created_at: now, updated_at: now, version: 1,
      }).returningAll()),
    commentCount: prepare((db, issueId: number) => db.selectFrom('comments').select((eb) => eb.fn.countAll<number>().as('n')).where('issue_id', '=', issueId)),
    commentsAscending: prepare((db, issueId: number, limit: number, offset: number) => db.selectFrom('comments').selectAll().where('issue_id', '=', issueId)
      .orderBy('id', 'asc').offset(offset).limit(limit)),
    commentsDescending: prepare((db, issueId: number, limit: number, offset: number) => db.selectFrom('comments').selectAll().where('issue_id', '=', issueId)
      .orderBy('id', 'desc').offset(offset).limit(limit)),
    // One statement: the comment is written only while its issue exists and holds fewer than
    // `max` comments, so a deleted issue (or a full one) gets no row, never a foreign-key failure.
    addCommentBounded: prepare((db, issueId: number, authorId: number, body: string, now: string, max: number) => db.insertInto('comments')
      .columns(['issue_id', 'author_id', 'body', 'created_at', 'updated_at'])
      .expression(db.selectFrom('issues').select([
        'issues.id',
        sql<number>`cast(${authorId} as integer)`.as('author_id'),
        sql<string>`cast(${body} as text)`.as('body'),
        sql<string>`cast(${now} as text)`.as('created_at'),
        sql<string>`cast(${now} as text)`.as('updated_at'),
      ]).where('issues.id', '=', issueId)
        .where(sql<SqlBool>`(select count(*) from comments where comments.issue_id = ${issueId}) < ${max}`))
      .returningAll()),
    commentOf: prepare((db, issueId: number, id: number) => db.selectFrom('comments').selectAll().where('issue_id', '=', issueId).where('id', '=', id)),
    // A comment's body, rewritten only while it is this author's and on this issue: one deleted
    // (with its issue) meanwhile gets no row.
    updateOwnComment: prepare((db, issueId: number, id: number, authorId: number, body: string, now: string) => db.updateTable('comments')
      .set({ body, updated_at: now }).where('id', '=', id).where('issue_id', '=', issueId).where('author_id', '=', authorId).returningAll()),
    // PostgreSQL: holds the issue's row until the transaction ends, so a delete and a write that
    // needs the issue to stay (a comment) run one after the other, not into each other.
    lockIssue: prepare((db, id: number) => db.selectFrom('issues').select('id').where('id', '=', id).forUpdate()),
    // SQLite: the same by writing to the row (a write takes the database's one write lock at once).
    touchIssue: prepare((db, id: number) => db.updateTable('issues').set((eb) => ({ version: eb('version', '+', 1) })).where('id', '=', id)),
  };
}

type Joined = IssueRow & {
  p_site_id: number; p_key: string; p_name: string; p_lead_user_id: number | null; p_workflow: string; p_issue_counter: number; p_role: string | null;
  /** 1/0 on SQLite, true/false on PostgreSQL. */
  p_has_subtasks: number | boolean;
};

/** An issue view's row on PostgreSQL: the joined issue and its first comments (firstCommentsColumn), parsed by the driver. */
type Viewed = Joined & { p_comments: unknown };

/** Where an issue is: its project's key and its number on a site, or its row id. */
export type IssueRef = { siteId: number; projectKey: string; number: number } | { id: number };

/** What Store.issueView reads: the issue with its project, and its first comment page (PostgreSQL only). */
export interface IssueView extends IssueWithProject { comments?: CommentRows }

/** The comments of firstCommentsColumn as rows. */
function commentRows(issueId: number, value: unknown): CommentRow[] {
  if (value === null || value === undefined) return [];
  const list = (typeof value === 'string' ? JSON.parse(value) : value) as [number, number, string, string, string][];
  return list.map(([id, author, body, created, updated]) => ({ id: Number(id), issue_id: issueId, author_id: Number(author), body, created_at: created, updated_at: updated }));
}

/** Spelled out field by field: a rest pattern (`{ p_key, ...issue }`) costs several times as much per request. */
function splitJoined(row: Joined | undefined): IssueWithProject | undefined {
  if (!row) return undefined;
  const issue: IssueRow = {
    id: row.id, project_id: row.project_id, number: row.number, key: row.key, issue_type: row.issue_type, summary: row.summary,
    description: row.description, status_id: row.status_id, parent_id: row.parent_id, assignee_id: row.assignee_id,
    reporter_id: row.reporter_id, creator_id: row.creator_id, created_at: row.created_at, updated_at: row.updated_at, version: row.version,
  };
  return {
    issue,
    project: { id: row.project_id, site_id: row.p_site_id, key: row.p_key, name: row.p_name, lead_user_id: row.p_lead_user_id, workflow: row.p_workflow, issue_counter: Number(row.p_issue_counter) },
    role: row.p_role ?? undefined,
    hasSubtasks: row.p_has_subtasks === true || row.p_has_subtasks === 1,
  };
}

/**
 * The only place that writes SQL. One code path for SQLite and PostgreSQL through Kysely; the
 * store decides no rule (that is the domain's job), it only reads and writes rows.
 */
export class Store {
  readonly kysely: Kysely<Database>;
  readonly dialect: Dialect;
  private readonly q: ReturnType<typeof hotQueries>;
  private readonly patches = new Map<string, Prepared<unknown[], { id: number }>>();
  private readonly inLists = new Map<number, Prepared<number[], UserRow>>();
  private readonly firstPages = new Map<number, Prepared<[number], CommentRow>>();
  /** PostgreSQL: the issue view's statements by first comment page size (issueView). */
  private readonly views = new Map<number, { byKey: Prepared<[number, number, string, number], Viewed>; byId: Prepared<[number, number], Viewed> }>();

  constructor(private readonly db: Db) {
    this.kysely = db.kysely;
    this.dialect = db.dialect;
    this.q = hotQueries((build) => this.prepare(build));
  }

  private prepare<A extends unknown[], R>(build: (db: Kysely<Database>, ...args: A) => Compilable<R>, arity?: number): Prepared<A, R> {
    return new Prepared(this.kysely, build, (text) => this.db.keepPrepared(text), arity, this.db.readNow);
  }

  /**
   * True when the `…Now` reads can run: SQLite with no transaction open on its connection. They
   * then read at once, synchronously, and stay able to until the caller next waits for something
   * (only then can a transaction begin). Always false on PostgreSQL.
   */
  get readsNow(): boolean { return this.db.readsNow?.() ?? false; }

  /** SQLite: changes whenever anyone commits (Db.dataVersion); undefined on PostgreSQL. */
  get dataVersion(): (() => number) | undefined { return this.db.dataVersion; }

  get location(): string { return this.db.location; }

  migrate(): Promise<void> { return migrate(this.kysely, this.dialect); }

  close(): Promise<void> { return this.db.close(); }

  /** SQLite's group commit (Db.grouped), which every SQLite store has. */
  private grouped<T>(work: (run: RunNow) => T): Promise<T> {
    if (!this.db.grouped) throw new Error(`group commit asked of a ${this.dialect} store`);
    return this.db.grouped(work);
  }

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
    return this.q.userByEmail.first(tx, siteId, email.toLowerCase());
  }

  userByAccountId(siteId: number, accountId: string, tx: Tx = this.kysely): Promise<UserRow | undefined> {
    return this.q.userByAccountId.first(tx, siteId, accountId);
  }

  usersByIds(ids: number[], tx: Tx = this.kysely): Promise<UserRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    const unique = [...new Set(ids)];
    if (unique.length > MAX_PREPARED_IN) return tx.selectFrom('users').selectAll().where('id', 'in', unique).execute();
    return this.usersIn(unique.length).all(tx, ...unique);
  }

  /** usersByIds at once (readsNow); undefined for a list too long for a kept statement, which only usersByIds reads. */
  usersByIdsNow(ids: number[]): UserRow[] | undefined {
    if (ids.length === 0) return [];
    const unique = [...new Set(ids)];
    return unique.length > MAX_PREPARED_IN ? undefined : this.usersIn(unique.length).allNow(...unique);
  }

  private usersIn(length: number): Prepared<number[], UserRow> {
    let query = this.inLists.get(length);
    if (!query) {
      query = this.prepare((db, ...list: number[]) => db.selectFrom('users').selectAll().where('id', 'in', list), length);
      this.inLists.set(length, query);
    }
    return query;
  }

  tokensOf(userId: number, tx: Tx = this.kysely): Promise<TokenRow[]> {
    return this.q.tokensOf.all(tx, userId);
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
    return this.q.projectByKey.first(tx, siteId, key.toUpperCase());
  }

  /** A project and the user's role there (undefined: not a member), in one read. */
  async projectWithRole(ref: { siteId: number; key: string } | { id: number }, userId: number): Promise<{ project: ProjectRow; role: string | undefined } | undefined> {
    const row = 'key' in ref
      ? await this.q.projectWithRoleByKey.first(this.kysely, userId, ref.siteId, ref.key.toUpperCase())
      : await this.q.projectWithRoleById.first(this.kysely, userId, ref.id);
    if (!row) return undefined;
    const { role, ...project } = row;
    return { project, role: role ?? undefined };
  }

  async insertProject(tx: Tx, p: Omit<ProjectRow, 'id' | 'issue_counter'>): Promise<ProjectRow> {
    return tx.insertInto('projects').values({ ...p, issue_counter: 0 }).returningAll().executeTakeFirstOrThrow();
  }

  async updateProject(tx: Tx, id: number, set: { name: string; lead_user_id: number | null; workflow: string }): Promise<void> {
    await tx.updateTable('projects').set(set).where('id', '=', id).execute();
  }

  roleOf(projectId: number, userId: number, tx: Tx = this.kysely): Promise<string | undefined> {
    return this.q.roleOf.first(tx, projectId, userId).then((r) => r?.role);
  }

  async upsertMember(tx: Tx, projectId: number, userId: number, role: string): Promise<void> {
    const current = await this.roleOf(projectId, userId, tx);
    if (current === undefined) await tx.insertInto('members').values({ project_id: projectId, user_id: userId, role }).execute();
    else if (current !== role) await tx.updateTable('members').set({ role }).where('project_id', '=', projectId).where('user_id', '=', userId).execute();
  }

  /** Projects the user is a member of, ordered by key, with an optional key/name filter. */
  async projectsForUser(siteId: number, userId: number, opts: { query?: string | undefined; keys?: string[] | undefined; ids?: number[] | undefined; orderBy?: 'key' | 'name'; descending?: boolean; startAt: number; maxResults: number }): Promise<{ total: number; rows: ProjectRow[] }> {
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
    if (opts.ids) base = opts.ids.length > 0 ? base.where('projects.id', 'in', opts.ids) : base.where(sql<SqlBool>`1 = 0`);
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
   * same transaction as the insert (on PostgreSQL: the same statement), so the row lock serialises
   * concurrent creators (also across processes) and no two issues ever share a key.
   */
  async createIssue(issue: NewIssue, projectKey: string): Promise<IssueRow> {
    const { projectId, issueType, summary, description, statusId, parentId, assigneeId, reporterId, creatorId, now } = issue;
    if (this.dialect === 'postgres') {
      const row = await this.q.createIssueAtomically.first(this.kysely, projectId, `${projectKey}-`, issueType, summary, description,
        statusId, parentId, assigneeId, reporterId, creatorId, now);
      return row!;
    }
    // SQLite: the counter and the insert as one piece of a group commit (Db.grouped).
    return this.grouped((run) => {
      const counter = this.q.advanceCounter.firstNow(run, projectId);
      if (!counter) throw new Error(`project ${projectId} vanished while an issue was created in it`);
      const number = Number(counter.issue_counter);
      return this.q.insertIssue.firstNow(run, projectId, number, `${projectKey}-${number}`, issueType, summary,
        description, statusId, parentId, assigneeId, reporterId, creatorId, now)!;
    });
  }

  issueById(id: number, tx: Tx = this.kysely): Promise<IssueRow | undefined> {
    return this.q.issueById.first(tx, id);
  }

  /** One read for the common case of every request on an issue: the issue, its project, the caller's role. */
  async issueWithProject(ref: IssueRef, userId: number): Promise<IssueWithProject | undefined> {
    const row = 'id' in ref
      ? await this.q.issueWithProjectById.first(this.kysely, userId, ref.id)
      : await this.q.issueWithProjectByKey.first(this.kysely, userId, ref.siteId, ref.projectKey.toUpperCase(), ref.number);
    return splitJoined(row as Joined | undefined);
  }

  /** issueWithProject at once (readsNow). */
  issueWithProjectNow(ref: IssueRef, userId: number): IssueWithProject | undefined {
    const rows = 'id' in ref
      ? this.q.issueWithProjectById.allNow(userId, ref.id)
      : this.q.issueWithProjectByKey.allNow(userId, ref.siteId, ref.projectKey.toUpperCase(), ref.number);
    return splitJoined(rows[0] as Joined | undefined);
  }

  /**
   * issueWithProject and, on PostgreSQL, where each statement is a round trip, the issue's first
   * `commentPage` comments, oldest first, with their total, in the same statement (the total is
   * counted apart only when the page is full): what the issue view reads. On SQLite `comments` is
   * left out: two statements cost less there than one that aggregates the comments as JSON
   * (measured in the server: bench/RESULTS.md), and the view reads them once it may.
   */
  async issueView(ref: IssueRef, userId: number, commentPage: number): Promise<IssueView | undefined> {
    if (this.dialect !== 'postgres') return this.issueWithProject(ref, userId);
    const view = this.viewQueries(commentPage);
    const row = 'id' in ref
      ? await view.byId.first(this.kysely, userId, ref.id)
      : await view.byKey.first(this.kysely, userId, ref.siteId, ref.projectKey.toUpperCase(), ref.number);
    const found = splitJoined(row);
    if (!found || !row) return undefined;
    const rows = commentRows(row.id, row.p_comments);
    const total = rows.length < commentPage ? rows.length : Number((await this.q.commentCount.first(this.kysely, row.id))?.n ?? 0);
    return { ...found, comments: { total, rows } };
  }

  private viewQueries(size: number) {
    let view = this.views.get(size);
    if (!view) {
      if (!Number.isSafeInteger(size) || size < 1) throw new RangeError(`a comment page of ${size}`);
      const column = firstCommentsColumn(size);
      view = {
        byKey: this.prepare((db, userId: number, siteId: number, key: string, number: number) => issueWithProject(db, userId).select(column)
          .where('projects.site_id', '=', siteId).where('projects.key', '=', key).where('issues.number', '=', number)) as Prepared<[number, number, string, number], Viewed>,
        byId: this.prepare((db, userId: number, id: number) => issueWithProject(db, userId).select(column).where('issues.id', '=', id)) as Prepared<[number, number], Viewed>,
      };
      if (this.views.size < MAX_PREPARED_IN) this.views.set(size, view);
    }
    return view;
  }

  /** issueById at once (readsNow). */
  issueByIdNow(id: number): IssueRow | undefined {
    return this.q.issueById.allNow(id)[0];
  }

  /** subtasksOf at once (readsNow). */
  subtasksOfNow(parentId: number): IssueRow[] {
    return this.q.subtasksOf.allNow(parentId);
  }

  subtasksOf(parentId: number, tx: Tx = this.kysely): Promise<IssueRow[]> {
    return this.q.subtasksOf.all(tx, parentId);
  }

  /**
   * Compare-and-set update: applies only when the row still has `expectedVersion`, so two
   * writers racing on one issue (in one process or several) never lose an update silently.
   * Returns false when the version moved on.
   */
  async updateIssue(tx: Tx, id: number, expectedVersion: number, patch: IssuePatch, now: string): Promise<boolean> {
    const columns = (Object.keys(patch) as (keyof IssuePatch)[]).filter((c) => patch[c] !== undefined).sort();
    const signature = columns.join(',');
    let query = this.patches.get(signature);
    if (!query) {
      // `returning id`: the row that was written, if any, on both dialects and in a group commit alike.
      query = this.prepare((db, ...args: unknown[]) => db.updateTable('issues')
        .set({ ...Object.fromEntries(columns.map((c, i) => [c, args[i + 4]])), updated_at: args[0] as string, version: args[1] as number })
        .where('id', '=', args[2] as number).where('version', '=', args[3] as number)
        .returning('id'), columns.length + 4) as Prepared<unknown[], { id: number }>;
      if (this.patches.size < MAX_PREPARED_PATCHES) this.patches.set(signature, query);
    }
    const args = [now, expectedVersion + 1, id, expectedVersion, ...columns.map((c) => patch[c])];
    // SQLite, outside a transaction: one statement, committed with the other writes of its turn.
    if (this.db.grouped && tx === this.kysely) return this.db.grouped((run) => query.firstNow(run, ...args) !== undefined);
    return (await query.execute(tx, ...args)).rows.length === 1;
  }

  /**
   * Holds an issue against concurrent writers until `tx` ends (false: it is gone). Called first
   * in a transaction that deletes it: on PostgreSQL a comment or sub-task being written to it then
   * either lands before (and is deleted with it) or finds it gone, never a foreign-key failure; on
   * SQLite the write lock is taken before any read, so another process cannot slip in between.
   */
  async holdIssue(tx: Transaction<Database>, id: number): Promise<boolean> {
    if (this.dialect === 'postgres') return (await this.q.lockIssue.first(tx, id)) !== undefined;
    return Number((await this.q.touchIssue.execute(tx, id)).numAffectedRows) === 1;
  }

  /** Deletes issues and their comments. */
  async deleteIssues(tx: Tx, ids: number[]): Promise<void> {
    if (ids.length === 0) return;
    await tx.deleteFrom('comments').where('issue_id', 'in', ids).execute();
    await tx.deleteFrom('issues').where('id', 'in', ids).execute();
  }

  // --- comments --------------------------------------------------------------------------------

  /**
   * Adds a comment unless the issue is gone or already has `max` comments. PostgreSQL reads the
   * count under the issue's row lock, so concurrent writers cannot pass `max` together; SQLite's
   * single statement runs under its one write lock.
   */
  async addComment(issueId: number, authorId: number, body: string, now: string, max: number): Promise<CommentRow | 'gone' | 'full'> {
    const row = this.dialect === 'postgres'
      ? await this.transaction(async (tx) => ((await this.q.lockIssue.first(tx, issueId))
        ? this.q.addCommentBounded.first(tx, issueId, authorId, body, now, max)
        : undefined))
      // SQLite: one statement, committed with the other writes of its turn (Db.grouped).
      : await this.grouped((run) => this.q.addCommentBounded.firstNow(run, issueId, authorId, body, now, max));
    if (row) return row;
    return (await this.issueById(issueId)) ? 'full' : 'gone';
  }

  /** One comment of an issue (undefined: none with that id on that issue). */
  commentOf(issueId: number, id: number): Promise<CommentRow | undefined> {
    return this.q.commentOf.first(this.kysely, issueId, id);
  }

  /**
   * Rewrites the body of `authorId`'s comment `id` on the issue (undefined: it is gone, or not
   * theirs). The issue's version moves with it, so what watches the issue's changes (the board's
   * version) sees the edit; on each dialect both writes commit together.
   */
  async updateComment(issueId: number, id: number, authorId: number, body: string, now: string): Promise<CommentRow | undefined> {
    if (this.dialect === 'postgres') {
      // The issue's row first, as a delete takes it (holdIssue) before the comments: the same
      // order in both, so an edit and a delete wait for each other instead of deadlocking.
      return this.transaction(async (tx) => {
        if (!(await this.q.lockIssue.first(tx, issueId))) return undefined;
        const row = await this.q.updateOwnComment.first(tx, issueId, id, authorId, body, now);
        if (row) await this.q.touchIssue.execute(tx, issueId);
        return row;
      });
    }
    return this.grouped((run) => {
      const row = this.q.updateOwnComment.firstNow(run, issueId, id, authorId, body, now);
      if (row) this.q.touchIssue.firstNow(run, issueId);
      return row;
    });
  }

  /** The first `size` comments, oldest first, and the total, at once (readsNow): commentsOf's first page. */
  firstCommentsNow(issueId: number, size: number): CommentRows {
    const first = this.firstComments(size);
    const rows = size === 0 ? [] : first ? first.allNow(issueId) : this.q.commentsAscending.allNow(issueId, size, 0);
    if (rows.length < size) return { total: rows.length, rows };
    return { total: Number(this.q.commentCount.allNow(issueId)[0]?.n ?? 0), rows };
  }

  async commentsOf(issueId: number, opts: { startAt: number; maxResults: number; descending: boolean }, tx: Tx = this.kysely): Promise<CommentRows> {
    const first = opts.startAt === 0 && !opts.descending ? this.firstComments(opts.maxResults) : undefined;
    const rows = opts.maxResults === 0 ? []
      : first ? await first.all(tx, issueId)
        : await (opts.descending ? this.q.commentsDescending : this.q.commentsAscending).all(tx, issueId, opts.maxResults, opts.startAt);
    // A first page that is not full holds every comment: its length is the total, no count needed.
    if (opts.startAt === 0 && rows.length < opts.maxResults) return { total: rows.length, rows };
    const count = await this.q.commentCount.first(tx, issueId);
    return { total: Number(count?.n ?? 0), rows };
  }

  /**
   * The first page of an issue's comments (the issue view's), its size written into the SQL:
   * SQLite runs this query with `limit ?` at twice its cost with `limit 100` (measured in the
   * server, better-sqlite3 12), so each first-page size is compiled once (a few sizes; others take the usual query).
   */
  private firstComments(limit: number): Prepared<[number], CommentRow> | undefined {
    let query = this.firstPages.get(limit);
    if (!query && this.firstPages.size < MAX_PREPARED_IN && Number.isSafeInteger(limit) && limit > 0) {
      query = this.prepare((db, issueId: number) => db.selectFrom('comments').selectAll().where('issue_id', '=', issueId)
        .orderBy('id', 'asc').limit(sql.lit(limit)));
      this.firstPages.set(limit, query);
    }
    return query;
  }
}

/** User text is matched literally: LIKE's wildcards are escaped, the same way on both dialects. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function like(expr: Expression<unknown>, pattern: string): Expression<SqlBool> {
  return sql<SqlBool>`${expr} like ${pattern} escape '\\'`;
}
