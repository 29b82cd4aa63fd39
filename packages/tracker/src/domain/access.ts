import type { IssueRef, IssueRow, IssueWithProject, ProjectRow } from '../store/store.js';
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
}

/**
 * Finds an issue by key or id and checks the caller may browse it. Missing and not permitted
 * look the same (404): the tracker masks a refusal on read (spec §7).
 */
export async function findIssue(tracker: Tracker, caller: Caller, idOrKey: string): Promise<IssueAccess> {
  const ref = issueRef(caller, idOrKey);
  if (!ref) throw issueNotFound();
  // The issue, its project and the caller's role there come from one read.
  return accessOf(caller, await storeOf(tracker).issues.withProject(ref, caller.user.id));
}

/** Where the issue named by a key (on the caller's site) or a row id is; undefined when it is neither. */
export function issueRef(caller: Caller, idOrKey: string): IssueRef | undefined {
  const key = parseIssueKey(idOrKey);
  if (key) return { siteId: caller.site.id, projectKey: key.projectKey, number: key.number };
  const rowId = rowIdOf(idOrKey);
  return rowId === null ? undefined : { id: rowId };
}

/** spec §7: the caller may browse an issue of its own site in a project where it has a role; any other is as if missing. */
export function visibleTo(caller: Caller, found: { project: ProjectRow; role: string | undefined }): boolean {
  return found.project.site_id === caller.site.id && !!found.role;
}

/** The issue found, if the caller may browse it: missing and not permitted look the same (404). */
function accessOf(caller: Caller, found: IssueWithProject | undefined): IssueAccess {
  if (!found || !visibleTo(caller, found)) throw issueNotFound();
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
