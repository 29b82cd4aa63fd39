import type { FastifyInstance } from 'fastify';
import { findIssue } from '../../domain/access.js';
import { createFields, editFields, FIELD_DETAILS, issueTypeById, visibleIssueTypes, visibleProjectList, visibleStatus, visibleStatuses } from '../../domain/catalog.js';
import { visibleProject } from '../../domain/directory.js';
import { ApiError, notFound } from '../../domain/errors.js';
import { ISSUE_TYPES } from '../../domain/issue-input.js';
import { can } from '../../domain/permissions.js';
import type { Tracker } from '../../domain/tracker.js';
import { callerOf } from '../context.js';
import { intParam, param, type Query } from '../params.js';
import { renderIssueType, renderStatus, renderUser } from '../render.js';
import {
  projectParts, renderCreateField, renderEditField, renderPriorities, renderProjectFull, renderProjects, renderStatusCategories,
} from '../render-catalog.js';

const READ = { config: { scope: 'read:jira-work' as const } };

/** One page of a list, as createmeta pages it: `{startAt, maxResults, total}` and the page's items. */
function pageOf<T>(q: Query, items: readonly T[]) {
  const startAt = intParam(q, 'startAt', 0, 0, Number.MAX_SAFE_INTEGER);
  const maxResults = intParam(q, 'maxResults', 50, 0, 200);
  return { startAt, maxResults, total: items.length, items: items.slice(startAt, startAt + maxResults) };
}

/**
 * The lookups clients make on start-up and before a write (issue 15): python `jira`'s projects(),
 * project(), statuses(), fields(); jira-client's listProjects, getProject, listStatus; jira.js's
 * projects, issue types, fields and metadata calls.
 */
export const catalogRoutes = (tracker: Tracker) => async (app: FastifyInstance) => {
  // Deprecated list form: every project the caller may browse, no paging.
  app.get('/project', READ, async (request) => {
    const caller = callerOf(request);
    return renderProjects(tracker, caller, await visibleProjectList(tracker, caller), projectParts(request.query as Query));
  });

  // A project the caller cannot browse answers as one that does not exist (404).
  app.get('/project/:projectIdOrKey', READ, async (request) => {
    const caller = callerOf(request);
    const { project } = await visibleProject(tracker, caller, (request.params as { projectIdOrKey: string }).projectIdOrKey);
    const lead = project.lead_user_id === null ? undefined : (await tracker.users([project.lead_user_id])).get(project.lead_user_id);
    return renderProjectFull(caller, project, lead);
  });

  app.get('/status', READ, async (request) => {
    const caller = callerOf(request);
    return (await visibleStatuses(tracker, caller)).map((s) => renderStatus(caller, s));
  });

  app.get('/statuscategory', READ, async (request) => renderStatusCategories(callerOf(request)));

  app.get('/priority', READ, async (request) => renderPriorities(callerOf(request)));

  app.get('/issuetype', READ, async (request) => {
    const caller = callerOf(request);
    return (await visibleIssueTypes(tracker, caller)).map((t) => renderIssueType(caller, t.name));
  });

  // The single items the lists' `self` links name (python jira's status(), priority(), issue_type(), user()).
  app.get('/status/:idOrName', READ, async (request) => {
    const caller = callerOf(request);
    return renderStatus(caller, await visibleStatus(tracker, caller, (request.params as { idOrName: string }).idOrName));
  });

  app.get('/statuscategory/:idOrKey', READ, async (request) => {
    const wanted = (request.params as { idOrKey: string }).idOrKey;
    const found = renderStatusCategories(callerOf(request)).find((c) => String(c.id) === wanted || c.key === wanted);
    if (!found) throw notFound(`The status category with id or key '${wanted.slice(0, 60)}' does not exist.`);
    return found;
  });

  app.get('/priority/:id', READ, async (request) => {
    const { id } = request.params as { id: string };
    const found = renderPriorities(callerOf(request)).find((p) => p.id === id);
    if (!found) throw notFound(`The priority with id '${id.slice(0, 60)}' does not exist.`);
    return found;
  });

  app.get('/issuetype/:id', READ, async (request) => {
    const caller = callerOf(request);
    const { id } = request.params as { id: string };
    const type = (await visibleIssueTypes(tracker, caller)).find((t) => t.id === id);
    if (!type) throw notFound(`The issue type with id '${id.slice(0, 60)}' does not exist or you do not have permission to see it.`);
    return renderIssueType(caller, type.name);
  });

  // A user of the site by account id (the `self` link of every user this tracker renders).
  app.get('/user', { config: { scope: 'read:jira-user' } }, async (request) => {
    const caller = callerOf(request);
    const accountId = param(request.query as Query, 'accountId');
    if (accountId === undefined || accountId === '') throw new ApiError(400, ["The 'accountId' query parameter is required: GET /user?accountId=<id> (the accountId from /myself or /user/search)."]);
    const user = await tracker.store.userByAccountId(caller.site.id, accountId);
    if (!user) throw notFound(`User with accountId '${accountId.slice(0, 64)}' does not exist.`);
    return renderUser(caller, user);
  });

  app.get('/field', READ, async () => FIELD_DETAILS);

  // The issue types a caller may create in the project (none for a viewer), paged.
  app.get('/issue/createmeta/:projectIdOrKey/issuetypes', READ, async (request) => {
    const caller = callerOf(request);
    const { role } = await visibleProject(tracker, caller, (request.params as { projectIdOrKey: string }).projectIdOrKey);
    const types = can(role, 'create') ? ISSUE_TYPES : [];
    const { items, ...page } = pageOf(request.query as Query, types);
    return { ...page, issueTypes: items.map((t) => renderIssueType(caller, t.name)) };
  });

  // The fields a create of that issue type takes, paged.
  app.get('/issue/createmeta/:projectIdOrKey/issuetypes/:issueTypeId', READ, async (request) => {
    const caller = callerOf(request);
    const params = request.params as { projectIdOrKey: string; issueTypeId: string };
    const { role } = await visibleProject(tracker, caller, params.projectIdOrKey);
    const type = issueTypeById(params.issueTypeId);
    if (!type || !can(role, 'create')) throw notFound(`Issue type with id '${params.issueTypeId.slice(0, 40)}' does not exist or you do not have permission to create issues of it in this project.`);
    const { items, ...page } = pageOf(request.query as Query, createFields(type, role));
    return { ...page, fields: items.map(renderCreateField) };
  });

  // The fields the caller may change on the issue (none for a viewer); 404 for an issue it cannot see.
  app.get('/issue/:issueIdOrKey/editmeta', READ, async (request) => {
    const caller = callerOf(request);
    const access = await findIssue(tracker, caller, (request.params as { issueIdOrKey: string }).issueIdOrKey);
    return { fields: Object.fromEntries(editFields(access).map((f) => [f.key, renderEditField(f)])) };
  });
};
