import { findIssue, requirePermission, type IssueAccess } from './access.js';
import { ApiError, fieldError, forbidden, issueNotFound, notFound } from './errors.js';
import { rowIdOf } from './ids.js';
import { richTextOf } from './issue-input.js';
import { COMMENTS_PER_ISSUE_MAX } from './limits.js';
import type { Comment } from './model.js';
import { commentsOf } from './related.js';
import { storeOf } from './store-access.js';
import type { Caller, Tracker } from './tracker.js';

/** POST /issue/{key}/comment (spec §4 endpoint 7): the body must be ADF. */
export async function addComment(
  tracker: Tracker,
  caller: Caller,
  idOrKey: string,
  body: { body?: unknown; visibility?: unknown },
): Promise<{ access: IssueAccess; comment: Comment }> {
  const access = await findIssue(tracker, caller, idOrKey);
  if (body.body === undefined || body.body === null) throw fieldError('body', 'Comment body can not be empty! Send {"body": <ADF document>}.');
  const text = richTextOf(body.body, 'body');
  if (body.visibility !== undefined && body.visibility !== null) {
    throw fieldError('visibility', 'Restricting comment visibility is not supported by this tracker; leave "visibility" out.');
  }
  requirePermission(access, 'comment', 'add comments');
  const comment = await storeOf(tracker).comments.add(access.issue.id, caller.user.id, text, new Date().toISOString(), COMMENTS_PER_ISSUE_MAX);
  // Deleted by another request since it was read: what a request a moment later would hear.
  if (comment === 'gone') throw issueNotFound();
  if (comment === 'full') {
    throw new ApiError(400, [
      `The issue ${access.issue.key} already has ${COMMENTS_PER_ISSUE_MAX.toLocaleString('en-US')} comments, the most one issue may carry. Add the comment to another issue (for example a new sub-task).`,
    ]);
  }
  return { access, comment };
}

/** Jira's words for a comment id that names no comment of the issue (the id echoed only when it is one). */
const commentNotFound = (id: string) => notFound(`Can not find a comment for the id: ${/^\d{1,15}$/.test(id) ? id : '(not a comment id)'}.`);

/**
 * GET /issue/{key}/comment/{id} (Jira's getComment, spec §4 rule 19): one comment of an issue the
 * caller may see. An issue it cannot see is 404 as everywhere (spec §7); so is a comment id that is
 * not one of this issue's, whether it names another issue's comment or none.
 */
export async function getComment(tracker: Tracker, caller: Caller, idOrKey: string, commentId: string): Promise<{ access: IssueAccess; comment: Comment }> {
  const access = await findIssue(tracker, caller, idOrKey);
  const rowId = rowIdOf(commentId);
  const comment = rowId === null ? undefined : await storeOf(tracker).comments.one(access.issue.id, rowId);
  if (!comment) throw commentNotFound(commentId);
  return { access, comment };
}

/**
 * PUT /issue/{key}/comment/{id} (Jira's updateComment): a new ADF body for a comment, by its
 * author only (who must still be allowed to comment on the issue). An issue the caller cannot
 * see is 404, as everywhere (spec §7); so is a comment id that is not one of this issue's.
 */
export async function updateComment(
  tracker: Tracker,
  caller: Caller,
  idOrKey: string,
  commentId: string,
  body: { body?: unknown; visibility?: unknown },
): Promise<{ access: IssueAccess; comment: Comment }> {
  const access = await findIssue(tracker, caller, idOrKey);
  const rowId = rowIdOf(commentId);
  const existing = rowId === null ? undefined : await storeOf(tracker).comments.one(access.issue.id, rowId);
  if (!existing || rowId === null) throw commentNotFound(commentId);
  if (body.body === undefined || body.body === null) throw fieldError('body', 'Comment body can not be empty! Send {"body": <ADF document>}.');
  const text = richTextOf(body.body, 'body');
  if (body.visibility !== undefined && body.visibility !== null) {
    throw fieldError('visibility', 'Restricting comment visibility is not supported by this tracker; leave "visibility" out.');
  }
  requirePermission(access, 'comment', 'edit comments');
  if (existing.author_id !== caller.user.id)
    throw forbidden('You can edit only your own comments, and this one was written by another user. Add a new comment instead.');
  const comment = await storeOf(tracker).comments.update(access.issue.id, rowId, caller.user.id, text, new Date().toISOString());
  // Deleted (with its issue) by another request since it was read.
  if (!comment) throw commentNotFound(commentId);
  return { access, comment };
}

export interface CommentPage {
  startAt: number;
  maxResults: number;
  total: number;
  rows: Comment[];
}

/** GET /issue/{key}/comment (spec §4 endpoint 8): Jira's paging, ordered by creation. */
export async function listComments(
  tracker: Tracker,
  caller: Caller,
  idOrKey: string,
  q: { startAt: number; maxResults: number; orderBy?: string | undefined },
): Promise<CommentPage> {
  const access = await findIssue(tracker, caller, idOrKey);
  const order = q.orderBy ?? 'created';
  if (!['created', '+created', '-created'].includes(order)) {
    throw new ApiError(400, [`orderBy '${order}' is not supported: use created, +created or -created.`]);
  }
  const page = await commentsOf(tracker, access.issue, { startAt: q.startAt, maxResults: q.maxResults, descending: order === '-created' });
  return { startAt: q.startAt, maxResults: q.maxResults, total: page.total, rows: page.rows };
}
