import { sql, type CreateTableBuilder, type Kysely, type Transaction } from 'kysely';
import type { StoreAdapter } from '../adapter.js';
import { addCommentBounded, updateOwnComment } from '../comments.js';
import { issueWithProject, newIssueColumns, splitJoined, touchIssue, type Joined } from '../issues.js';
import type { Prepare, Prepared } from '../prepared.js';
import type { Maybe } from '../../maybe.js';
import type { CommentRow, IssueRef, IssueRow, IssueWithComments, IssueWithProject, NewIssue } from '../rows.js';
import type { Database, Tx } from '../schema.js';

/** Advisory lock keys: the migrations and the seed (the code host's store takes 4242019 for its own seed). */
const MIGRATION_LOCK = 4242017;
const SEED_LOCK = 4242018;
/** Issue views kept compiled, one per first comment page size up to this many sizes. */
const MAX_VIEWS = 16;

/** An issue view's row: the joined issue, its first comments (firstCommentsColumn) and what viewColumns adds, parsed by the driver. */
type Viewed = Joined & { p_comments: unknown; p_comment_total: number; p_subtasks: unknown; p_parent: unknown };

/**
 * The issue's first `size` comments, oldest first, as one JSON array of [id, author_id, body,
 * created_at, updated_at] (null when it has none), a column of the issue's own statement.
 */
function firstCommentsColumn(size: number) {
  const page = sql`(select c.id, c.author_id, c.body, c.created_at, c.updated_at from comments as c where c.issue_id = issues.id order by c.id limit ${sql.lit(size)})`;
  return sql`(select json_agg(json_build_array(p.id, p.author_id, p.body, p.created_at, p.updated_at) order by p.id) from ${page} as p)`.as('p_comments');
}

/**
 * The rest of what the view shows, in the issue's own statement so that an uncached `GET /issue`
 * is one round trip: the issue's comment count, its sub-tasks (as Issues.subtasksOf orders them)
 * and its parent, each row as JSON (null: none).
 */
const viewColumns = [
  sql<number>`(select count(*) from comments as c where c.issue_id = issues.id)`.as('p_comment_total'),
  sql`(select json_agg(row_to_json(s) order by s.id) from issues as s where s.parent_id = issues.id)`.as('p_subtasks'),
  sql`(select row_to_json(p) from issues as p where p.id = issues.parent_id)`.as('p_parent'),
];

/** A JSON column as the driver gives it (parsed for json; text otherwise). */
const json = (value: unknown): unknown => (value === null || value === undefined ? null : typeof value === 'string' ? JSON.parse(value) : value);

/** The comments of firstCommentsColumn as rows. */
function commentRows(issueId: number, value: unknown): CommentRow[] {
  if (value === null || value === undefined) return [];
  const list = (typeof value === 'string' ? JSON.parse(value) : value) as [number, number, string, string, string][];
  return list.map(([id, author, body, created, updated]) => ({
    id: Number(id),
    issue_id: issueId,
    author_id: Number(author),
    body,
    created_at: created,
    updated_at: updated,
  }));
}

/**
 * PostgreSQL: a pool of connections, each statement a round trip. A write that needs an issue to
 * stay takes the issue's row lock first (`select … for update`), in the order a delete takes it, so
 * the two wait for each other instead of deadlocking; reads that always go together share one
 * statement; processes starting together take turns through advisory locks.
 */
export class PostgresAdapter implements StoreAdapter {
  readonly dialect = 'postgres';
  private readonly q;
  /** The issue view's statements by first comment page size (issueView). */
  private readonly views = new Map<number, { byKey: Prepared<[number, number, string, number], Viewed>; byId: Prepared<[number, number], Viewed> }>();

  constructor(
    private readonly kysely: Kysely<Database>,
    private readonly prepare: Prepare,
  ) {
    this.q = {
      // Counter and insert in one statement. The UPDATE's row lock serialises concurrent creators
      // exactly as a two-statement transaction does, at one round trip instead of four.
      createIssue: prepare(
        (
          k,
          projectId: number,
          keyPrefix: string,
          issueType: string,
          summary: string,
          description: string | null,
          statusId: number,
          parentId: number | null,
          assigneeId: number | null,
          reporterId: number,
          creatorId: number,
          now: string,
        ) =>
          k
            .with('counter', (qb) =>
              qb
                .updateTable('projects')
                .set((eb) => ({ issue_counter: eb('issue_counter', '+', 1) }))
                .where('id', '=', projectId)
                .returning('issue_counter'),
            )
            .insertInto('issues')
            .values({
              project_id: projectId,
              number: sql<number>`(select issue_counter from counter)`,
              key: sql<string>`concat(cast(${keyPrefix} as text), (select issue_counter from counter))`,
              ...newIssueColumns(issueType, summary, description, statusId, parentId, assigneeId, reporterId, creatorId, now),
            })
            .returningAll(),
      ),
      // Holds the issue's row until the transaction ends, so a delete and a write that needs the
      // issue to stay (a comment) run one after the other, not into each other.
      lockIssue: prepare((k, id: number) => k.selectFrom('issues').select('id').where('id', '=', id).forUpdate()),
      touchIssue: prepare(touchIssue),
      addCommentBounded: prepare(addCommentBounded),
      updateOwnComment: prepare(updateOwnComment),
    };
  }

  idColumn<T extends string>(table: CreateTableBuilder<T>): CreateTableBuilder<T, 'id'> {
    return table.addColumn('id', 'serial', (c) => c.primaryKey());
  }

  /** Several server processes may start at once: the run holds an advisory lock (Kysely's own lock table covers the rest). */
  async migrating(db: Kysely<any>, run: (db: Kysely<any>) => Promise<void>): Promise<void> {
    await db.connection().execute(async (conn) => {
      await sql`select pg_advisory_lock(${sql.lit(MIGRATION_LOCK)})`.execute(conn);
      try {
        await run(conn);
      } finally {
        await sql`select pg_advisory_unlock(${sql.lit(MIGRATION_LOCK)})`.execute(conn);
      }
    });
  }

  async lockForSeed(tx: Transaction<Database>): Promise<void> {
    await sql`select pg_advisory_xact_lock(${sql.lit(SEED_LOCK)})`.execute(tx);
  }

  async createIssue(issue: NewIssue, keyPrefix: string): Promise<IssueRow> {
    const { projectId, issueType, summary, description, statusId, parentId, assigneeId, reporterId, creatorId, now } = issue;
    const row = await this.q.createIssue.first(
      this.kysely,
      projectId,
      keyPrefix,
      issueType,
      summary,
      description,
      statusId,
      parentId,
      assigneeId,
      reporterId,
      creatorId,
      now,
    );
    return row!;
  }

  /** The issue, its first comments and their total, its sub-tasks and its parent: one statement, one round trip. */
  issueView(ref: IssueRef, userId: number, commentPage: number, plain: () => Maybe<IssueWithProject | undefined>): Maybe<IssueWithComments | undefined> {
    return commentPage < 1 ? plain() : this.withFirstComments(ref, userId, commentPage);
  }

  private async withFirstComments(ref: IssueRef, userId: number, commentPage: number): Promise<IssueWithComments | undefined> {
    const view = this.viewQueries(commentPage);
    const row =
      'id' in ref
        ? await view.byId.first(this.kysely, userId, ref.id)
        : await view.byKey.first(this.kysely, userId, ref.siteId, ref.projectKey.toUpperCase(), ref.number);
    const found = splitJoined(row);
    if (!found || !row) return undefined;
    const rows = commentRows(row.id, row.p_comments);
    return {
      ...found,
      comments: { total: Number(row.p_comment_total), rows },
      subtasks: (json(row.p_subtasks) as IssueRow[] | null) ?? [],
      parent: json(row.p_parent) as IssueRow | null,
    };
  }

  private viewQueries(size: number) {
    let view = this.views.get(size);
    if (!view) {
      if (!Number.isSafeInteger(size) || size < 1) throw new RangeError(`a comment page of ${size}`);
      const column = firstCommentsColumn(size);
      view = {
        byKey: this.prepare((k, userId: number, siteId: number, key: string, number: number) =>
          issueWithProject(k, userId)
            .select(column)
            .select(viewColumns)
            .where('projects.site_id', '=', siteId)
            .where('projects.key', '=', key)
            .where('issues.number', '=', number),
        ),
        byId: this.prepare((k, userId: number, id: number) => issueWithProject(k, userId).select(column).select(viewColumns).where('issues.id', '=', id)),
      };
      if (this.views.size < MAX_VIEWS) this.views.set(size, view);
    }
    return view;
  }

  async updateIssue(tx: Tx, query: Prepared<unknown[], { id: number }>, args: unknown[]): Promise<boolean> {
    return (await query.execute(tx, ...args)).rows.length === 1;
  }

  async holdIssue(tx: Transaction<Database>, id: number): Promise<boolean> {
    return (await this.q.lockIssue.first(tx, id)) !== undefined;
  }

  /** The count is read under the issue's row lock, so concurrent writers cannot pass `max` together. */
  addComment(issueId: number, authorId: number, body: string, now: string, max: number): Promise<CommentRow | undefined> {
    return this.kysely
      .transaction()
      .execute(async (tx) => ((await this.q.lockIssue.first(tx, issueId)) ? this.q.addCommentBounded.first(tx, issueId, authorId, body, now, max) : undefined));
  }

  /** The issue's row first, as a delete takes it (holdIssue) before the comments: an edit and a delete wait for each other. */
  updateComment(issueId: number, id: number, authorId: number, body: string, now: string): Promise<CommentRow | undefined> {
    return this.kysely.transaction().execute(async (tx) => {
      if (!(await this.q.lockIssue.first(tx, issueId))) return undefined;
      const row = await this.q.updateOwnComment.first(tx, issueId, id, authorId, body, now);
      if (row) await this.q.touchIssue.execute(tx, issueId);
      return row;
    });
  }
}
