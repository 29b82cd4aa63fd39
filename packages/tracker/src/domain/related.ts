import type { Maybe } from '../maybe.js';
import type { CommentRows, Issue } from './model.js';
import { storeOf } from './store-access.js';
import type { Tracker } from './tracker.js';

/**
 * An issue's comments, a page at a time, for the routes that list them. The HTTP layer reads them
 * here rather than from the store (layers: http → domain → store); the issue view reads its first
 * page with the issue (domain/issue-view.ts).
 */

/** One page of an issue's comments, oldest first unless `descending`, with the total count. */
export function commentsOf(tracker: Tracker, issue: Issue, page: { startAt: number; maxResults: number; descending: boolean }): Maybe<CommentRows> {
  return storeOf(tracker).comments.ofIssue(issue.id, page);
}
