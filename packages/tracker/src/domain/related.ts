import type { CommentRows, Issue } from './model.js';
import { storeOf } from './store-access.js';
import type { Tracker } from './tracker.js';

/**
 * What an issue's views read beside the issue itself: its parent, its sub-tasks, its comments.
 * The HTTP layer reads them here rather than from the store (layers: http → domain → store).
 */

export function parentOf(tracker: Tracker, issue: Issue): Promise<Issue | undefined> {
  return issue.parent_id === null ? Promise.resolve(undefined) : storeOf(tracker).issues.byId(issue.parent_id);
}

/**
 * Sub-tasks in creation order. Not looked for when the issue was read knowing it has none
 * (IssueAccess.hasSubtasks), nor for a Subtask (createIssue refuses a parent that has a parent,
 * and an issue's parent never changes).
 */
export function subtasksOf(tracker: Tracker, access: { issue: Issue; hasSubtasks?: boolean }): Promise<Issue[]> {
  const { issue } = access;
  return issue.parent_id !== null || access.hasSubtasks === false ? Promise.resolve([]) : storeOf(tracker).issues.subtasksOf(issue.id);
}

/** parentOf at once, where the store can read so (Store.readsNow; ask it first). */
export function parentOfNow(tracker: Tracker, issue: Issue): Issue | undefined {
  return issue.parent_id === null ? undefined : storeOf(tracker).issues.byIdNow(issue.parent_id);
}

/** subtasksOf at once (Store.readsNow). */
export function subtasksOfNow(tracker: Tracker, access: { issue: Issue; hasSubtasks?: boolean }): Issue[] {
  const { issue } = access;
  return issue.parent_id !== null || access.hasSubtasks === false ? [] : storeOf(tracker).issues.subtasksOfNow(issue.id);
}

/** The first `size` comments, oldest first, with the total, at once (Store.readsNow). */
export function firstCommentsNow(tracker: Tracker, issue: Issue, size: number): CommentRows {
  return storeOf(tracker).comments.firstNow(issue.id, size);
}

/** One page of an issue's comments, oldest first unless `descending`, with the total count. */
export function commentsOf(tracker: Tracker, issue: Issue, page: { startAt: number; maxResults: number; descending: boolean }): Promise<CommentRows> {
  return storeOf(tracker).comments.ofIssue(issue.id, page);
}
