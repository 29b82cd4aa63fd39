import type { FastifyInstance } from 'fastify';
import { searchProjects, visibleProject } from '../../domain/directory.js';
import { ISSUE_TYPES } from '../../domain/issue-input.js';
import type { Tracker } from '../../domain/tracker.js';
import { callerOf } from '../context.js';
import { commaList, countOf } from '../params.js';
import { replies } from '../schemas/common.js';
import { IssueTypeWithStatus, ProjectPage, ProjectParams, ProjectSearchQuery } from '../schemas/projects.js';
import type { TypeBoxProvider } from '../validation.js';
import { Type } from '@sinclair/typebox';
import { renderStatus } from '../render.js';
import { projectParts, renderProjects } from '../render-catalog.js';
import { rowIdOf } from '../../domain/ids.js';

export const projectRoutes = (tracker: Tracker) => async (scope: FastifyInstance) => {
  const app = scope.withTypeProvider<TypeBoxProvider>();

  // spec §4 endpoint 3: only projects the caller may browse; paginated as the vendor does
  app.get(
    '/project/search',
    { config: { scope: 'read:jira-work' }, schema: { querystring: ProjectSearchQuery, response: replies({ 200: ProjectPage }) } },
    async (request) => {
      const caller = callerOf(request);
      const q = request.query;
      const startAt = countOf(q.startAt, 0);
      const maxResults = countOf(q.maxResults, 50, 100);
      const orderBy = q.orderBy;
      const query = q.query;
      const keys = commaList(q.keys);
      // Issue 15: `id` narrows to projects by id (an id that names none matches nothing); `expand` as GET /project.
      const ids = commaList(q.id)?.map((id) => rowIdOf(id) ?? -1);
      const parts = projectParts(q.expand);
      // Orders this tracker has no data for (issue counts, categories…) fall back to the key.
      const page = await searchProjects(tracker, caller, {
        query,
        keys,
        ids,
        startAt,
        maxResults,
        orderBy: orderBy?.endsWith('name') ? 'name' : 'key',
        descending: orderBy?.startsWith('-') ?? false,
      });
      const rows = page.rows;
      const isLast = startAt + rows.length >= page.total;
      const url = new URL(`${caller.baseUrl}/rest/api/3/project/search`);
      for (const [k, v] of Object.entries({ query, keys: keys?.join(','), orderBy })) if (v !== undefined) url.searchParams.set(k, v);
      url.searchParams.set('maxResults', String(maxResults));
      url.searchParams.set('startAt', String(startAt));
      const self = url.toString();
      url.searchParams.set('startAt', String(startAt + maxResults));
      return {
        self,
        ...(isLast ? {} : { nextPage: url.toString() }),
        maxResults,
        startAt,
        total: page.total,
        isLast,
        values: await renderProjects(tracker, caller, rows, parts),
      };
    },
  );

  // spec §4 endpoint 4: a bare array, one element per issue type, each with the workflow's statuses
  app.get(
    '/project/:projectIdOrKey/statuses',
    { config: { scope: 'read:jira-work' }, schema: { params: ProjectParams, response: replies({ 200: Type.Array(IssueTypeWithStatus) }) } },
    async (request) => {
      const caller = callerOf(request);
      const { project } = await visibleProject(tracker, caller, request.params.projectIdOrKey);
      const workflow = tracker.workflowOf(project);
      const statuses = await Promise.all(workflow.statuses.map((s) => tracker.statusByName(caller.site.id, s.name)));
      return ISSUE_TYPES.map((t) => ({
        self: `${caller.baseUrl}/rest/api/3/issuetype/${t.id}`,
        id: t.id,
        name: t.name,
        subtask: t.subtask,
        statuses: statuses.map((s) => renderStatus(caller, s)),
      }));
    },
  );
};
