import type { FastifyInstance } from 'fastify';
import { findIssue } from '../../domain/access.js';
import {
  createFields,
  editFields,
  FIELD_DETAILS,
  issueTypeById,
  visibleIssueTypes,
  visibleProjectList,
  visibleStatus,
  visibleStatuses,
} from '../../domain/catalog.js';
import { userByAccountId, visibleProject } from '../../domain/directory.js';
import { notFound } from '../../domain/errors.js';
import { ISSUE_TYPES } from '../../domain/issue-input.js';
import { can } from '../../domain/permissions.js';
import type { Tracker } from '../../domain/tracker.js';
import { callerOf } from '../context.js';
import { countOf } from '../params.js';
import { PageQuery, replies } from '../schemas/common.js';
import { AccountQuery, User } from '../schemas/users.js';
import { IssueType, ProjectFull, ProjectListQuery, Project, ProjectParams, Status } from '../schemas/projects.js';
import { IssueParams } from '../schemas/issues.js';
import { CreateMetaFields, CreateMetaIssueTypes, EditMeta, EditMetaQuery, FieldDetails, Priority, StatusCategoryItem } from '../schemas/catalog.js';
import { typed, type TypedApp } from '../validation.js';
import { Type } from '@sinclair/typebox';
import { renderIssueType, renderStatus, renderUser } from '../render.js';
import {
  projectParts,
  renderCreateField,
  renderEditField,
  renderPriorities,
  renderProjectFull,
  renderProjects,
  renderStatusCategories,
} from '../render-catalog.js';

const IdParams = Type.Object({ id: Type.String({ maxLength: 200 }) });
const READ = { scope: 'read:jira-work' as const };

/** One page of a list, as createmeta pages it: `{startAt, maxResults, total}` and the page's items. */
function pageOf<T>(q: { startAt?: number | undefined; maxResults?: number | undefined }, items: readonly T[]) {
  const startAt = countOf(q.startAt, 0);
  const maxResults = countOf(q.maxResults, 50, 200);
  return { startAt, maxResults, total: items.length, items: items.slice(startAt, startAt + maxResults) };
}

/**
 * The lookups clients make on start-up and before a write (issue 15): python `jira`'s projects(),
 * project(), statuses(), fields(); jira-client's listProjects, getProject, listStatus; jira.js's
 * projects, issue types, fields and metadata calls.
 */
export const catalogRoutes = (tracker: Tracker) => async (scope: FastifyInstance) => {
  const app = typed(scope);
  workflowLookups(app, tracker);
  metadataLookups(app, tracker);
};

/** Projects, statuses, status categories, priorities and issue types. */
function workflowLookups(app: TypedApp, tracker: Tracker): void {
  // Deprecated list form: every project the caller may browse, no paging.
  app.get('/project', { config: READ, schema: { querystring: ProjectListQuery, response: replies({ 200: Type.Array(Project) }) } }, async (request) => {
    const caller = callerOf(request);
    return renderProjects(tracker, caller, await visibleProjectList(tracker, caller), projectParts(request.query.expand));
  });

  // A project the caller cannot browse answers as one that does not exist (404).
  app.get(
    '/project/:projectIdOrKey',
    { config: READ, schema: { params: ProjectParams, querystring: ProjectListQuery, response: replies({ 200: ProjectFull }) } },
    async (request) => {
      const caller = callerOf(request);
      const { project } = await visibleProject(tracker, caller, request.params.projectIdOrKey);
      const lead = project.lead_user_id === null ? undefined : (await tracker.users([project.lead_user_id])).get(project.lead_user_id);
      return renderProjectFull(caller, project, lead);
    },
  );

  app.get('/status', { config: READ, schema: { response: replies({ 200: Type.Array(Status) }) } }, async (request) => {
    const caller = callerOf(request);
    return (await visibleStatuses(tracker, caller)).map((s) => renderStatus(caller, s));
  });

  app.get('/statuscategory', { config: READ, schema: { response: replies({ 200: Type.Array(StatusCategoryItem) }) } }, async (request) =>
    renderStatusCategories(callerOf(request)),
  );

  app.get('/priority', { config: READ, schema: { response: replies({ 200: Type.Array(Priority) }) } }, async (request) => renderPriorities(callerOf(request)));

  app.get('/issuetype', { config: READ, schema: { response: replies({ 200: Type.Array(IssueType) }) } }, async (request) => {
    const caller = callerOf(request);
    return (await visibleIssueTypes(tracker, caller)).map((t) => renderIssueType(caller, t.name));
  });

  // The single items the lists' `self` links name (python jira's status(), priority(), issue_type(), user()).
  app.get(
    '/status/:idOrName',
    { config: READ, schema: { params: Type.Object({ idOrName: Type.String({ maxLength: 200 }) }), response: replies({ 200: Status }) } },
    async (request) => {
      const caller = callerOf(request);
      return renderStatus(caller, await visibleStatus(tracker, caller, request.params.idOrName));
    },
  );

  app.get(
    '/statuscategory/:idOrKey',
    { config: READ, schema: { params: Type.Object({ idOrKey: Type.String({ maxLength: 200 }) }), response: replies({ 200: StatusCategoryItem }) } },
    async (request) => {
      const wanted = request.params.idOrKey;
      const found = renderStatusCategories(callerOf(request)).find((c) => String(c.id) === wanted || c.key === wanted);
      if (!found) throw notFound(`The status category with id or key '${wanted.slice(0, 60)}' does not exist.`);
      return found;
    },
  );

  app.get('/priority/:id', { config: READ, schema: { params: IdParams, response: replies({ 200: Priority }) } }, async (request) => {
    const { id } = request.params;
    const found = renderPriorities(callerOf(request)).find((p) => p.id === id);
    if (!found) throw notFound(`The priority with id '${id.slice(0, 60)}' does not exist.`);
    return found;
  });

  app.get('/issuetype/:id', { config: READ, schema: { params: IdParams, response: replies({ 200: IssueType }) } }, async (request) => {
    const caller = callerOf(request);
    const { id } = request.params;
    const type = (await visibleIssueTypes(tracker, caller)).find((t) => t.id === id);
    if (!type) throw notFound(`The issue type with id '${id.slice(0, 60)}' does not exist or you do not have permission to see it.`);
    return renderIssueType(caller, type.name);
  });
}

/** Users by account id, fields, and the create and edit metadata. */
function metadataLookups(app: TypedApp, tracker: Tracker): void {
  // A user of the site by account id (the `self` link of every user this tracker renders).
  app.get('/user', { config: { scope: 'read:jira-user' }, schema: { querystring: AccountQuery, response: replies({ 200: User }) } }, async (request) => {
    const caller = callerOf(request);
    const { accountId } = request.query;
    const user = await userByAccountId(tracker, caller, accountId);
    if (!user) throw notFound(`User with accountId '${accountId.slice(0, 64)}' does not exist.`);
    return renderUser(caller, user);
  });

  app.get('/field', { config: READ, schema: { response: replies({ 200: Type.Array(FieldDetails) }) } }, async () => [...FIELD_DETAILS]);

  // The issue types a caller may create in the project (none for a viewer), paged.
  app.get(
    '/issue/createmeta/:projectIdOrKey/issuetypes',
    { config: READ, schema: { params: ProjectParams, querystring: PageQuery, response: replies({ 200: CreateMetaIssueTypes }) } },
    async (request) => {
      const caller = callerOf(request);
      const { role } = await visibleProject(tracker, caller, request.params.projectIdOrKey);
      const types = can(role, 'create') ? ISSUE_TYPES : [];
      const { items, ...page } = pageOf(request.query, types);
      return { ...page, issueTypes: items.map((t) => renderIssueType(caller, t.name)) };
    },
  );

  // The fields a create of that issue type takes, paged.
  app.get(
    '/issue/createmeta/:projectIdOrKey/issuetypes/:issueTypeId',
    {
      config: READ,
      schema: {
        params: Type.Object({ ...ProjectParams.properties, issueTypeId: Type.String({ maxLength: 200 }) }),
        querystring: PageQuery,
        response: replies({ 200: CreateMetaFields }),
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const { params } = request;
      const { role } = await visibleProject(tracker, caller, params.projectIdOrKey);
      const type = issueTypeById(params.issueTypeId);
      if (!type || !can(role, 'create'))
        throw notFound(
          `Issue type with id '${params.issueTypeId.slice(0, 40)}' does not exist or you do not have permission to create issues of it in this project.`,
        );
      const { items, ...page } = pageOf(request.query, createFields(type, role));
      return { ...page, fields: items.map(renderCreateField) };
    },
  );

  // The fields the caller may change on the issue (none for a viewer); 404 for an issue it cannot see.
  app.get(
    '/issue/:issueIdOrKey/editmeta',
    { config: READ, schema: { params: IssueParams, querystring: EditMetaQuery, response: replies({ 200: EditMeta }) } },
    async (request) => {
      const caller = callerOf(request);
      const access = await findIssue(tracker, caller, request.params.issueIdOrKey);
      return { fields: Object.fromEntries(editFields(access).map((f) => [f.key, renderEditField(f)])) };
    },
  );
}
