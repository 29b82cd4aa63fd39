import type { IssueRow, IssuePatch, ProjectRow, UserRow } from '../store/store.js';
import { findIssue, requirePermission, conflictError, type IssueAccess } from './access.js';
import { ApiError, fieldError, forbidden, issueNotFound } from './errors.js';
import { rowIdOf } from './ids.js';
import { fieldsOf, issueTypeOf, refOf, rejectUnknownFields, richTextOf, summaryOf } from './issue-input.js';
import { assignable, can, type ProjectRole } from './permissions.js';
import { storeOf } from './store-access.js';
import type { Caller, Tracker } from './tracker.js';
import { standingOf } from './conditions.js';
import { resolveTransition } from './workflow.js';

const CREATE_FIELDS = ['project', 'issuetype', 'summary', 'description', 'assignee', 'parent', 'reporter'] as const;
const EDIT_FIELDS = ['summary', 'description', 'assignee', 'reporter'] as const;
/** How often an optimistic write is retried after losing a race before answering 409. */
const CAS_ATTEMPTS = 12;

async function projectFor(tracker: Tracker, caller: Caller, value: unknown): Promise<{ project: ProjectRow; role: ProjectRole }> {
  if (value === undefined) throw fieldError('project', 'Specify a valid project ID or key.');
  const ref = refOf(value, 'project', ['key', 'id']);
  const found = await storeOf(tracker).projects.withRole(
    ref.key !== undefined ? { siteId: caller.site.id, key: ref.key } : { id: rowIdOf(ref.id!) ?? -1 },
    caller.user.id,
  );
  const project = found?.project;
  const role = project && project.site_id === caller.site.id ? (found.role as ProjectRole | undefined) : undefined;
  // A project the caller cannot see is reported as missing, never as forbidden.
  if (!project || !role) throw fieldError('project', `Specify a valid project ID or key: project '${ref.key ?? ref.id}' does not exist or you cannot see it.`);
  return { project, role };
}

/** Resolves `{accountId}` / null into a user who may hold issues in the project (400 otherwise). */
async function assigneeFor(tracker: Tracker, caller: Caller, project: ProjectRow, value: unknown, field = 'assignee'): Promise<UserRow | null> {
  if (value === null) return null;
  const ref = refOf(value, field, ['accountId', 'id']);
  const accountId = ref.accountId ?? ref.id!;
  if (accountId === '-1') return null; // Jira: "-1" = the project's default assignee, which is unassigned here
  const user = await storeOf(tracker).users.byAccountId(caller.site.id, accountId);
  if (!user || !user.active) throw fieldError(field, `User '${accountId}' does not exist.`);
  const role = (await storeOf(tracker).projects.roleOf(project.id, user.id)) as ProjectRole | undefined;
  if (!assignable(role))
    throw fieldError(field, `User '${user.display_name}' cannot be assigned issues. In project ${project.key} only project admins and members can.`);
  return user;
}

async function reporterFor(tracker: Tracker, caller: Caller, project: ProjectRow, role: ProjectRole, value: unknown): Promise<number> {
  if (!can(role, 'modifyReporter')) throw forbidden(`You do not have permission to modify the reporter in project ${project.key}: that needs the admin role.`);
  const ref = refOf(value, 'reporter', ['accountId', 'id']);
  const user = await storeOf(tracker).users.byAccountId(caller.site.id, ref.accountId ?? ref.id!);
  if (!user || !user.active) throw fieldError('reporter', `User '${ref.accountId ?? ref.id}' does not exist.`);
  return user.id;
}

/** POST /issue (spec §4 endpoint 6). Creator and reporter are the caller; the key comes from the project counter. */
/** The body of create and edit (IssueUpdateDetails), its shape checked by the route's schema. */
export interface IssueInput {
  fields?: Record<string, unknown> | undefined;
  update?: unknown;
  transition?: unknown;
}

export async function createIssue(tracker: Tracker, caller: Caller, body: IssueInput): Promise<IssueRow> {
  const fields = fieldsOf(body, true);
  rejectUnknownFields(fields, CREATE_FIELDS);
  const { project, role } = await projectFor(tracker, caller, fields.project);
  if (!can(role, 'create')) throw forbidden(`You do not have permission to create issues in project ${project.key} (your role: ${role}).`);
  const type =
    fields.issuetype === undefined
      ? (() => {
          throw fieldError('issuetype', 'Specify an issue type: Task or Subtask.');
        })()
      : issueTypeOf(fields.issuetype);
  const summary = summaryOf(fields.summary);
  const description = fields.description === undefined || fields.description === null ? null : richTextOf(fields.description, 'description');
  let parent: IssueRow | null = null;
  if (type.subtask) {
    if (fields.parent === undefined || fields.parent === null) throw fieldError('parent', 'A Subtask needs a parent: send "parent": {"key": "<PROJECT>-<n>"}.');
    const ref = refOf(fields.parent, 'parent', ['key', 'id']);
    let found: IssueAccess;
    try {
      found = await findIssue(tracker, caller, ref.key ?? ref.id!);
    } catch {
      throw fieldError('parent', `The parent issue '${ref.key ?? ref.id}' does not exist or you cannot see it.`);
    }
    if (found.project.id !== project.id)
      throw fieldError('parent', `A Subtask's parent must be in the same project (${project.key}); '${found.issue.key}' is in ${found.project.key}.`);
    if (found.issue.parent_id !== null) throw fieldError('parent', `'${found.issue.key}' is itself a Subtask; a Subtask cannot have sub-tasks.`);
    parent = found.issue;
  } else if (fields.parent !== undefined && fields.parent !== null) {
    throw fieldError('parent', `Only a Subtask can have a parent; a ${type.name} is a top-level issue.`);
  }
  const assignee = fields.assignee === undefined ? null : await assigneeFor(tracker, caller, project, fields.assignee);
  const reporterId = fields.reporter === undefined ? caller.user.id : await reporterFor(tracker, caller, project, role, fields.reporter);
  const workflow = tracker.workflowOf(project);
  const status = await tracker.statusByName(caller.site.id, workflow.initial);
  const now = new Date().toISOString();
  return storeOf(tracker).issues.create(
    {
      projectId: project.id,
      issueType: type.name,
      summary,
      description,
      statusId: status.id,
      parentId: parent?.id ?? null,
      assigneeId: assignee?.id ?? null,
      reporterId,
      creatorId: caller.user.id,
      now,
    },
    project.key,
  );
}

/**
 * Applies a change computed from the current row, retrying on a lost race: the change is
 * recomputed from the fresh row each time, so rules are checked against what is written over.
 */
async function writeWithRetry(tracker: Tracker, read: IssueRow, change: (issue: IssueRow) => Promise<IssuePatch | null>): Promise<void> {
  const issueId = read.id;
  for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
    // The first attempt starts from the row the request has just read (the version check still
    // guards it); after a lost race the row is read again.
    const current = attempt === 0 ? read : await storeOf(tracker).issues.byId(issueId);
    if (!current) throw new ApiError(404, ['Issue does not exist or you do not have permission to see it.']);
    const patch = await change(current);
    if (patch === null) return;
    if (await storeOf(tracker).issues.update(issueId, current.version, patch, new Date().toISOString())) return;
    // Lost a race: back off a random, growing moment so the writers spread out instead of colliding again.
    await new Promise((r) => setTimeout(r, Math.random() * 2 ** Math.min(attempt, 6)));
  }
  throw conflictError();
}

/** PUT /issue/{key} (spec §4 endpoint 14): summary, description, assignee, reporter (admin). */
export async function editIssue(tracker: Tracker, caller: Caller, idOrKey: string, body: IssueInput): Promise<IssueAccess> {
  const access = await findIssue(tracker, caller, idOrKey);
  const fields = fieldsOf(body, false);
  if (body.transition !== undefined) throw new ApiError(400, ['Use POST …/transitions to change the status of an issue.']);
  rejectUnknownFields(fields, EDIT_FIELDS);
  requirePermission(access, 'edit', 'edit issues');
  const patch: IssuePatch = {};
  if (fields.summary !== undefined) patch.summary = summaryOf(fields.summary);
  if (fields.description !== undefined) patch.description = fields.description === null ? null : richTextOf(fields.description, 'description');
  if (fields.assignee !== undefined) {
    requirePermission(access, 'assign', 'assign issues');
    patch.assignee_id = (await assigneeFor(tracker, caller, access.project, fields.assignee))?.id ?? null;
  }
  if (fields.reporter !== undefined) {
    if (fields.reporter === null) throw fieldError('reporter', 'An issue must have a reporter.');
    patch.reporter_id = await reporterFor(tracker, caller, access.project, access.role, fields.reporter);
  }
  if (Object.keys(patch).length > 0) await writeWithRetry(tracker, access.issue, async () => patch);
  return access;
}

/** PUT /issue/{key}/assignee (spec §4 endpoint 10). */
export async function assignIssue(tracker: Tracker, caller: Caller, idOrKey: string, body: { accountId?: string | null | undefined }): Promise<void> {
  const access = await findIssue(tracker, caller, idOrKey);
  if (body.accountId === undefined) {
    throw fieldError('accountId', 'Send {"accountId": "<id>"} to assign, or {"accountId": null} to unassign.');
  }
  requirePermission(access, 'assign', 'assign issues');
  const value = body.accountId;
  const user = value === null ? null : await assigneeFor(tracker, caller, access.project, { accountId: value }, 'assignee');
  await writeWithRetry(tracker, access.issue, async (current) => (current.assignee_id === (user?.id ?? null) ? null : { assignee_id: user?.id ?? null }));
}

/** POST /issue/{key}/transitions (spec §4 endpoint 12): validated against the status being written over. */
export async function doTransition(
  tracker: Tracker,
  caller: Caller,
  idOrKey: string,
  body: { transition?: { id?: unknown } | undefined; fields?: Record<string, unknown> | undefined },
): Promise<void> {
  const access = await findIssue(tracker, caller, idOrKey);
  if (body.fields !== undefined && Object.keys(body.fields).length > 0) {
    const name = Object.keys(body.fields)[0]!;
    throw fieldError(name, `Field '${name}' cannot be set. It is not on the appropriate screen, or unknown.`);
  }
  requirePermission(access, 'transition', 'transition issues');
  const id = body.transition?.id;
  let read: { project: ProjectRow; role: string | undefined } | undefined = access;
  await writeWithRetry(tracker, access.issue, async (current) => {
    // spec §3 rule 5: the workflow and its condition are read with (or after) the row the write is
    // conditioned on; a seed that changes them moves that row's version (applySeed), so after a
    // lost race they are read again rather than reused.
    const { project, role } = read ?? (await storeOf(tracker).projects.withRole({ id: current.project_id }, caller.user.id)) ?? access;
    read = undefined;
    const standing = await standingOf(tracker, caller, project, role);
    const status = await tracker.statusById(caller.site.id, current.status_id);
    const transition = resolveTransition(tracker.workflowOf(project), status.name, id, standing);
    const to = await tracker.statusByName(caller.site.id, transition.to);
    return { status_id: to.id };
  });
}

/** DELETE /issue/{key} (spec §4 endpoint 13): a parent goes only with `deleteSubtasks=true`, taking them along. */
export async function deleteIssue(tracker: Tracker, caller: Caller, idOrKey: string, deleteSubtasks: boolean): Promise<void> {
  const access = await findIssue(tracker, caller, idOrKey);
  requirePermission(access, 'delete', 'delete issues');
  await storeOf(tracker).transaction(async (tx) => {
    // Held first, so writes racing this delete land before it or find the issue gone (store.issues.hold).
    if (!(await storeOf(tracker).issues.hold(tx, access.issue.id))) throw issueNotFound();
    const subtasks = await storeOf(tracker).issues.subtasksOf(access.issue.id, tx);
    if (subtasks.length > 0 && !deleteSubtasks) {
      throw new ApiError(400, [
        `The issue ${access.issue.key} has ${subtasks.length} subtask(s). Delete them first, or pass deleteSubtasks=true to delete the issue together with its subtasks.`,
      ]);
    }
    // The sub-tasks too: a comment being added to one then lands before the delete reads them.
    for (const subtask of subtasks) await storeOf(tracker).issues.hold(tx, subtask.id);
    await storeOf(tracker).issues.delete(tx, [...subtasks.map((s) => s.id), access.issue.id]);
  });
}
