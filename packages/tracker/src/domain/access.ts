import type { IssueRef, IssueRow, IssueWithProject, ProjectRow } from '../store/store.js';
import { COMMENT_PAGE_MAX } from './limits.js';
import type { CommentRows } from './model.js';
import { ApiError, forbidden, issueNotFound } from './errors.js';
import { parseIssueKey, rowIdOf } from './ids.js';
import { can, type Action, type ProjectRole } from './permissions.js';
import { storeOf } from './store-access.js';
import type { Caller, Tracker } from './tracker.js';

export interface IssueAccess {
  issue: IssueRow;
  project: ProjectRow;
  role: ProjectRole;
  /** Known when the issue was read with its project (findIssue); undefined: not known, ask. */
  hasSubtasks?: boolean;
  /** Its first COMMENT_PAGE_MAX comments, oldest first, with the total, when they were read with it (findIssue's `withComments`). */
  firstComments?: CommentRows;
}

/**
 * Finds an issue by key or id and checks the caller may browse it. Missing and not permitted
 * look the same (404): the tracker masks a refusal on read (spec §7).
 */
export async function findIssue(tracker: Tracker, caller: Caller, idOrKey: string, withComments = false): Promise<IssueAccess> {
  const ref = issueRef(caller, idOrKey);
  if (!ref) throw issueNotFound();
  // The issue, its project and the caller's role there come from one read; for a view that shows
  // them, its first comments too where that saves a round trip (store.issues.view: PostgreSQL).
  if (withComments) {
    const found = await storeOf(tracker).issues.view(ref, caller.user.id, COMMENT_PAGE_MAX);
    return { ...accessOf(caller, found), firstComments: found?.comments };
  }
  return accessOf(caller, await storeOf(tracker).issues.withProject(ref, caller.user.id));
}

/** findIssue at once, without waiting, where the store can read so (Store.readsNow; ask it first). */
export function findIssueNow(tracker: Tracker, caller: Caller, idOrKey: string): IssueAccess {
  const ref = issueRef(caller, idOrKey);
  return accessOf(caller, ref && storeOf(tracker).issues.withProjectNow(ref, caller.user.id));
}

/** Where the issue named by a key (on the caller's site) or a row id is; undefined when it is neither. */
function issueRef(caller: Caller, idOrKey: string): IssueRef | undefined {
  const key = parseIssueKey(idOrKey);
  if (key) return { siteId: caller.site.id, projectKey: key.projectKey, number: key.number };
  const rowId = rowIdOf(idOrKey);
  return rowId === null ? undefined : { id: rowId };
}

/** The issue found, if the caller may browse it: missing and not permitted look the same (404). */
function accessOf(caller: Caller, found: IssueWithProject | undefined): IssueAccess {
  if (!found || found.project.site_id !== caller.site.id || !found.role) throw issueNotFound();
  return { issue: found.issue, project: found.project, role: found.role as ProjectRole, hasSubtasks: found.hasSubtasks };
}

/** A visible issue the caller may not change: 403 (spec §7, ARCHITECTURE §5). */
export function requirePermission(access: IssueAccess, action: Action, what: string): void {
  if (!can(access.role, action)) {
    throw forbidden(`You do not have permission to ${what} in project ${access.project.key} (your role: ${access.role}).`);
  }
}

/** Jira's answer when an optimistic write lost a race too many times in a row. */
export const conflictError = () => new ApiError(409, ['The issue was changed by another request at the same time. Read it again and retry.']);
