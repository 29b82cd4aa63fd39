import type { CreateTableBuilder, Kysely, Transaction } from 'kysely';
import type { Dialect } from './db.js';
import type { Prepare, Prepared } from './prepared.js';
import type { Maybe } from '../maybe.js';
import type { CommentRow, IssueRef, IssueRow, IssueWithComments, IssueWithProject, NewIssue } from './rows.js';
import type { Database, Tx } from './schema.js';

/**
 * Everything SQLite and PostgreSQL do differently, behind one interface with one implementation
 * per dialect (sqlite/adapter.ts, postgres/adapter.ts), as Kysely keeps its DialectAdapter apart
 * from its query builder. The aggregates (sites.ts, users.ts, projects.ts, issues.ts,
 * comments.ts) write each query once for both and ask the adapter only what differs: how a write
 * commits (SQLite's group commit, a PostgreSQL transaction), how a row is held against other
 * writers, how processes starting together take turns, and which reads share a round trip. Whether a read runs at once or waits is the dialect's too:
 * SQLite's connection reads at once outside a transaction (Db.readNow), so a read written over
 * Prepared.rows (a Maybe, ../maybe.ts) is synchronous there and a promise on PostgreSQL.
 */
export interface StoreAdapter {
  readonly dialect: Dialect;

  /** Migrations: declares the table's auto-numbered `id` primary key. */
  idColumn<T extends string>(table: CreateTableBuilder<T>): CreateTableBuilder<T, 'id'>;
  /** Runs the migrations alone among processes starting together over one database. */
  migrating(db: Kysely<any>, run: (db: Kysely<any>) => Promise<void>): Promise<void>;
  /**
   * Serialises seed loading across processes starting together: held until `tx` ends, so the next
   * loader sees the rows the first one wrote instead of racing it into a unique-key violation.
   */
  lockForSeed(tx: Transaction<Database>): Promise<void>;

  /**
   * Creates an issue with the next key of its project (`keyPrefix` is its key and a dash). The
   * counter is advanced by an UPDATE committed with the insert, so the row lock serialises
   * concurrent creators (also across processes) and no two issues ever share a key.
   */
  createIssue(issue: NewIssue, keyPrefix: string): Promise<IssueRow>;
  /**
   * The issue view's first read (Issues.withFirstComments): the issue with its project (`plain`,
   * the aggregate's own read) and, where it saves a round trip, its first `commentPage` comments
   * (0: none shown) with their total. SQLite's is the plain read, at once outside a transaction
   * (Prepared.rows); PostgreSQL's one statement, a promise.
   */
  issueView(ref: IssueRef, userId: number, commentPage: number, plain: () => Maybe<IssueWithProject | undefined>): Maybe<IssueWithComments | undefined>;
  /** Runs an issue's compare-and-set update (Issues.update) in `tx`: the id of the row written, if any. */
  updateIssue(tx: Tx, query: Prepared<unknown[], { id: number }>, args: unknown[]): Promise<boolean>;
  /**
   * Holds an issue against concurrent writers until `tx` ends (false: it is gone). Called first
   * in a transaction that deletes it, so a comment or sub-task being written to it either lands
   * before (and is deleted with it) or finds it gone, never a foreign-key failure.
   */
  holdIssue(tx: Transaction<Database>, id: number): Promise<boolean>;
  /** Adds a comment while the issue exists and holds fewer than `max` comments (undefined: it does not). */
  addComment(issueId: number, authorId: number, body: string, now: string, max: number): Promise<CommentRow | undefined>;
  /** Rewrites `authorId`'s comment and moves its issue's version, both committed together (undefined: gone, or not theirs). */
  updateComment(issueId: number, id: number, authorId: number, body: string, now: string): Promise<CommentRow | undefined>;
}

/** What every aggregate module works with: the connection, its kept statements and the dialect's adapter. */
export interface StoreContext {
  kysely: Kysely<Database>;
  prepare: Prepare;
  adapter: StoreAdapter;
}
