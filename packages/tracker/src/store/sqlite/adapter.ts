import type { CreateTableBuilder, Kysely, Transaction } from 'kysely';
import type { StoreAdapter } from '../adapter.js';
import { addCommentBounded, updateOwnComment } from '../comments.js';
import type { Db, RunNow } from '../db.js';
import { newIssueColumns, touchIssue } from '../issues.js';
import type { Prepare, Prepared } from '../prepared.js';
import type { Maybe } from '../../maybe.js';
import type { CommentRow, IssueRow, IssueWithComments, IssueWithProject, NewIssue } from '../rows.js';
import type { Database, Tx } from '../schema.js';

/**
 * SQLite: one connection in this process and one write lock in the database. A short write is a
 * piece of a group commit (Db.grouped): its statements run at once, synchronously, and commit with
 * the other writes of the same turn of the event loop. Nothing needs holding beyond the write lock
 * a write takes, and processes starting together take turns on it.
 */
export class SqliteAdapter implements StoreAdapter {
  readonly dialect = 'sqlite';
  private readonly q;

  constructor(
    private readonly db: Db,
    prepare: Prepare,
  ) {
    this.q = {
      advanceCounter: prepare((k, projectId: number) =>
        k
          .updateTable('projects')
          .set((eb) => ({ issue_counter: eb('issue_counter', '+', 1) }))
          .where('id', '=', projectId)
          .returning('issue_counter'),
      ),
      insertIssue: prepare(
        (
          k,
          projectId: number,
          number: number,
          key: string,
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
            .insertInto('issues')
            .values({
              project_id: projectId,
              number,
              key,
              ...newIssueColumns(issueType, summary, description, statusId, parentId, assigneeId, reporterId, creatorId, now),
            })
            .returningAll(),
      ),
      touchIssue: prepare(touchIssue),
      addCommentBounded: prepare(addCommentBounded),
      updateOwnComment: prepare(updateOwnComment),
    };
  }

  idColumn<T extends string>(table: CreateTableBuilder<T>): CreateTableBuilder<T, 'id'> {
    return table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  }

  /** The migrations' own transaction takes the write lock: a second process waits for it, then finds nothing to do. */
  migrating(db: Kysely<any>, run: (db: Kysely<any>) => Promise<void>): Promise<void> {
    return run(db);
  }

  /** The seed's transaction takes the write lock at its first write, which the next loader waits for. */
  async lockForSeed(): Promise<void> {}

  /** The group commit, which every SQLite Db has. */
  private grouped<T>(work: (run: RunNow) => T): Promise<T> {
    if (!this.db.grouped) throw new Error('group commit asked of a store without it');
    return this.db.grouped(work);
  }

  /** The counter and the insert as one piece of a group commit. */
  createIssue(issue: NewIssue, keyPrefix: string): Promise<IssueRow> {
    const { projectId, issueType, summary, description, statusId, parentId, assigneeId, reporterId, creatorId, now } = issue;
    return this.grouped((run) => {
      const counter = this.q.advanceCounter.firstNow(run, projectId);
      if (!counter) throw new Error(`project ${projectId} vanished while an issue was created in it`);
      const number = Number(counter.issue_counter);
      return this.q.insertIssue.firstNow(
        run,
        projectId,
        number,
        `${keyPrefix}${number}`,
        issueType,
        summary,
        description,
        statusId,
        parentId,
        assigneeId,
        reporterId,
        creatorId,
        now,
      )!;
    });
  }

  /**
   * The plain read: two statements (the issue now, its comments once the view may read them) cost
   * less here than one that aggregates the comments as JSON (measured in the server: bench/RESULTS.md),
   * and outside a transaction both run at once, within the caller's turn (Prepared.rows).
   */
  issueView(_ref: unknown, _userId: number, _commentPage: number, plain: () => Maybe<IssueWithProject | undefined>): Maybe<IssueWithComments | undefined> {
    return plain();
  }

  /** Outside a transaction: one statement, committed with the other writes of its turn. */
  async updateIssue(tx: Tx, query: Prepared<unknown[], { id: number }>, args: unknown[]): Promise<boolean> {
    if (tx === this.db.kysely) return this.grouped((run) => query.firstNow(run, ...args) !== undefined);
    return (await query.execute(tx, ...args)).rows.length === 1;
  }

  /** Writes to the row: the transaction takes the database's write lock before any read, so another process cannot slip in between. */
  async holdIssue(tx: Transaction<Database>, id: number): Promise<boolean> {
    return Number((await this.q.touchIssue.execute(tx, id)).numAffectedRows) === 1;
  }

  /** One statement, under the one write lock, committed with the other writes of its turn. */
  addComment(issueId: number, authorId: number, body: string, now: string, max: number): Promise<CommentRow | undefined> {
    return this.grouped((run) => this.q.addCommentBounded.firstNow(run, issueId, authorId, body, now, max));
  }

  updateComment(issueId: number, id: number, authorId: number, body: string, now: string): Promise<CommentRow | undefined> {
    return this.grouped((run) => {
      const row = this.q.updateOwnComment.firstNow(run, issueId, id, authorId, body, now);
      if (row) this.q.touchIssue.firstNow(run, issueId);
      return row;
    });
  }
}
