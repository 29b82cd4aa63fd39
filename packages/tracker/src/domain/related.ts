import type { CommentRows, Issue } from './model.js';
import type { Tracker } from './tracker.js';

/**
 * What an issue's views read beside the issue itself: its parent, its sub-tasks, its comments.
 * The HTTP layer reads them here rather than from the store (layers: http → domain → store).
 */

export function parentOf(tracker: Tracker, issue: Issue): Promise<Issue | undefined> {
  return issue.parent_id === null ? Promise.resolve(undefined) : tracker.store.issueById(issue.parent_id);
}

/**
 * Sub-tasks in creation order. A Subtask has none (createIssue refuses a parent that has a
 * parent, and an issue's parent never changes), so its sub-tasks are not looked for.
 */
export function subtasksOf(tracker: Tracker, issue: Issue): Promise<Issue[]> {
  return issue.parent_id !== null ? Promise.resolve([]) : tracker.store.subtasksOf(issue.id);
}

/** One page of an issue's comments, oldest first unless `descending`, with the total count. */
export function commentsOf(tracker: Tracker, issue: Issue, page: { startAt: number; maxResults: number; descending: boolean }): Promise<CommentRows> {
  return tracker.store.commentsOf(issue.id, page);
}
