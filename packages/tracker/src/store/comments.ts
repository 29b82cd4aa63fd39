import { sql, type Kysely, type SqlBool } from 'kysely';
import { after, type Maybe } from '../maybe.js';
import type { StoreContext } from './adapter.js';
import type { Prepared } from './prepared.js';
import type { CommentRow, CommentRows } from './rows.js';
import type { Database, Tx } from './schema.js';

/** An issue's comments: added up to a bound, edited by their author, read a page at a time with their total. */

/** First-page statements kept compiled, one per page size up to this many sizes. */
const MAX_FIRST_PAGES = 16;

/**
 * One statement: the comment is written only while its issue exists and holds fewer than `max`
 * comments, so a deleted issue (or a full one) gets no row, never a foreign-key failure.
 */
export const addCommentBounded = (db: Kysely<Database>, issueId: number, authorId: number, body: string, now: string, max: number) =>
  db
    .insertInto('comments')
    .columns(['issue_id', 'author_id', 'body', 'created_at', 'updated_at'])
    .expression(
      db
        .selectFrom('issues')
        .select([
          'issues.id',
          sql<number>`cast(${authorId} as integer)`.as('author_id'),
          sql<string>`cast(${body} as text)`.as('body'),
          sql<string>`cast(${now} as text)`.as('created_at'),
          sql<string>`cast(${now} as text)`.as('updated_at'),
        ])
        .where('issues.id', '=', issueId)
        .where(sql<SqlBool>`(select count(*) from comments where comments.issue_id = ${issueId}) < ${max}`),
    )
    .returningAll();

/** A comment's body, rewritten only while it is this author's and on this issue: one deleted (with its issue) meanwhile gets no row. */
export const updateOwnComment = (db: Kysely<Database>, issueId: number, id: number, authorId: number, body: string, now: string) =>
  db
    .updateTable('comments')
    .set({ body, updated_at: now })
    .where('id', '=', id)
    .where('issue_id', '=', issueId)
    .where('author_id', '=', authorId)
    .returningAll();

/** How many comments an issue has. */
export const commentCount = (db: Kysely<Database>, issueId: number) =>
  db
    .selectFrom('comments')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('issue_id', '=', issueId);

export function commentsRepository({ kysely, prepare, adapter }: StoreContext) {
  const q = {
    count: prepare(commentCount),
    ascending: prepare((db, issueId: number, limit: number, offset: number) =>
      db.selectFrom('comments').selectAll().where('issue_id', '=', issueId).orderBy('id', 'asc').offset(offset).limit(limit),
    ),
    descending: prepare((db, issueId: number, limit: number, offset: number) =>
      db.selectFrom('comments').selectAll().where('issue_id', '=', issueId).orderBy('id', 'desc').offset(offset).limit(limit),
    ),
    one: prepare((db, issueId: number, id: number) => db.selectFrom('comments').selectAll().where('issue_id', '=', issueId).where('id', '=', id)),
    issue: prepare((db, issueId: number) => db.selectFrom('issues').select('id').where('id', '=', issueId)),
  };
  const firstPages = new Map<number, Prepared<[number], CommentRow>>();

  /**
   * The first page of an issue's comments (the issue view's), its size written into the SQL:
   * SQLite runs this query with `limit ?` at twice its cost with `limit 100` (measured in the
   * server, better-sqlite3 12), so each first-page size is compiled once (a few sizes; others take the usual query).
   */
  function firstComments(limit: number): Prepared<[number], CommentRow> | undefined {
    let query = firstPages.get(limit);
    if (!query && firstPages.size < MAX_FIRST_PAGES && Number.isSafeInteger(limit) && limit > 0) {
      query = prepare((db, issueId: number) =>
        db.selectFrom('comments').selectAll().where('issue_id', '=', issueId).orderBy('id', 'asc').limit(sql.lit(limit)),
      );
      firstPages.set(limit, query);
    }
    return query;
  }

  return {
    /**
     * Adds a comment unless the issue is gone or already has `max` comments
     * (StoreAdapter.addComment: concurrent writers cannot pass `max` together).
     */
    async add(issueId: number, authorId: number, body: string, now: string, max: number): Promise<CommentRow | 'gone' | 'full'> {
      const row = await adapter.addComment(issueId, authorId, body, now, max);
      if (row) return row;
      return (await q.issue.first(kysely, issueId)) ? 'full' : 'gone';
    },

    /** One comment of an issue (undefined: none with that id on that issue). */
    one(issueId: number, id: number): Promise<CommentRow | undefined> {
      return q.one.first(kysely, issueId, id);
    },

    /**
     * Rewrites the body of `authorId`'s comment `id` on the issue (undefined: it is gone, or not
     * theirs). The issue's version moves with it, so what watches the issue's changes (the board's
     * version) sees the edit; on each dialect both writes commit together (StoreAdapter.updateComment).
     */
    update(issueId: number, id: number, authorId: number, body: string, now: string): Promise<CommentRow | undefined> {
      return adapter.updateComment(issueId, id, authorId, body, now);
    },

    /** One page of an issue's comments, oldest first unless `descending`, with the total (at once where it can: Prepared.rows). */
    ofIssue(issueId: number, opts: { startAt: number; maxResults: number; descending: boolean }, tx: Tx = kysely): Maybe<CommentRows> {
      const first = opts.startAt === 0 && !opts.descending ? firstComments(opts.maxResults) : undefined;
      const page =
        opts.maxResults === 0
          ? []
          : first
            ? first.rows(tx, issueId)
            : (opts.descending ? q.descending : q.ascending).rows(tx, issueId, opts.maxResults, opts.startAt);
      return after(page, (rows) =>
        // A first page that is not full holds every comment: its length is the total, no count needed.
        opts.startAt === 0 && rows.length < opts.maxResults
          ? { total: rows.length, rows }
          : after(q.count.row(tx, issueId), (count) => ({ total: Number(count?.n ?? 0), rows })),
      );
    },
  };
}

export type Comments = ReturnType<typeof commentsRepository>;
