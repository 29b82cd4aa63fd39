import type { IssueRow, ProjectRow } from '../store/store.js';
import { ApiError, forbidden, issueNotFound } from './errors.js';
import { parseIssueKey, rowIdOf } from './ids.js';
import { can, type Action, type ProjectRole } from './permissions.js';
import type { Caller, Tracker } from './tracker.js';

export interface IssueAccess {
  issue: IssueRow;
  project: ProjectRow;
  role: ProjectRole;
}

/**
 * Finds an issue by key or id and checks the caller may browse it. Missing and not permitted
 * look the same (404): the tracker masks a refusal on read (spec §7).
 */
export async function findIssue(tracker: Tracker, caller: Caller, idOrKey: string): Promise<IssueAccess> {
  const { store } = tracker;
  let issue: IssueRow | undefined;
  let project: ProjectRow | undefined;
  const key = parseIssueKey(idOrKey);
  if (key) {
    project = await store.projectByKey(caller.site.id, key.projectKey);
    issue = project ? await store.issueByNumber(project.id, key.number) : undefined;
  } else {
    const rowId = rowIdOf(idOrKey);
    issue = rowId === null ? undefined : await store.issueById(rowId);
    project = issue ? await store.projectById(issue.project_id) : undefined;
  }
  if (!issue || !project || project.site_id !== caller.site.id) throw issueNotFound();
  const role = (await store.roleOf(project.id, caller.user.id)) as ProjectRole | undefined;
  if (!role) throw issueNotFound();
  return { issue, project, role };
}

/** A visible issue the caller may not change: 403 (spec §7, ARCHITECTURE §5). */
export function requirePermission(access: IssueAccess, action: Action, what: string): void {
  if (!can(access.role, action)) {
    throw forbidden(`You do not have permission to ${what} in project ${access.project.key} (your role: ${access.role}).`);
  }
}

/** Jira's answer when an optimistic write lost a race too many times in a row. */
export const conflictError = () =>
  new ApiError(409, ['The issue was changed by another request at the same time. Read it again and retry.']);
