import type { FastifyInstance } from 'fastify';
import { publicId } from '../../domain/ids.js';
import { viewIssues } from '../../domain/issue-view.js';
import { searchIssues, type SearchRequest, type SearchResult } from '../../domain/jql/search.js';
import type { Caller, Tracker } from '../../domain/tracker.js';
import { callerOf } from '../context.js';
import { fieldsMeta, issueJson, sendJsonText, withMembers, type IssueJson } from '../issue-view.js';
import { commaList } from '../params.js';
import { replies } from '../schemas/common.js';
import { SearchBody, SearchQuery, SearchResults } from '../schemas/search.js';
import type { TypeBoxProvider } from '../validation.js';

const READ = { scope: 'read:jira-work' as const };

export const searchRoutes = (tracker: Tracker) => async (scope: FastifyInstance) => {
  const app = scope.withTypeProvider<TypeBoxProvider>();

  // spec §4 endpoint 15: the same search as query parameters. Accepted and checked, without
  // effect here: properties, fieldsByKeys, failFast, reconcileIssues (every write is visible to
  // the next search already) and every expand but names and schema.
  app.get('/search/jql', { config: READ, schema: { querystring: SearchQuery, response: replies({ 200: SearchResults }) } }, async (request, reply) => {
    const q = request.query;
    return sendJsonText(
      reply,
      await respond(
        tracker,
        callerOf(request),
        {
          jql: q.jql ?? '',
          maxResults: q.maxResults,
          fields: commaList(q.fields),
          nextPageToken: q.nextPageToken,
        },
        commaList(q.expand),
      ),
    );
  });

  // spec §4 endpoint 15: SearchAndReconcileRequestBean → SearchAndReconcileResults
  app.post('/search/jql', { config: READ, schema: { body: SearchBody, response: replies({ 200: SearchResults }) } }, async (request, reply) => {
    const b = request.body ?? {};
    return sendJsonText(
      reply,
      await respond(
        tracker,
        callerOf(request),
        {
          jql: b.jql ?? '',
          maxResults: b.maxResults ?? undefined,
          fields: b.fields ?? undefined,
          nextPageToken: b.nextPageToken === null || b.nextPageToken === '' ? undefined : b.nextPageToken,
        },
        b.expand === null ? undefined : commaList(b.expand),
      ),
    );
  });
};

/** SearchAndReconcileResults as JSON text: the issues are rendered as text (issue-view.ts). */
async function respond(tracker: Tracker, caller: Caller, req: SearchRequest, expand: string[] | undefined): Promise<string> {
  const result = await searchIssues(tracker, caller, req);
  const issues = await render(tracker, caller, result);
  return withMembers(`{"issues":[${issues.map((i) => i.text).join(',')}]}`, {
    ...(result.nextPageToken !== undefined ? { nextPageToken: result.nextPageToken } : {}),
    isLast: result.nextPageToken === undefined,
    // `names` and `schema` cover the fields the page's issues carry.
    ...fieldsMeta(
      issues.flatMap((i) => i.present),
      expand,
    ),
  });
}

/** `{id}` by default (the operation's documented default); with fields, each issue as GET /issue renders it. */
async function render(tracker: Tracker, caller: Caller, result: SearchResult): Promise<IssueJson[]> {
  const { fields } = result;
  if (fields === null) return result.issues.map((a) => ({ text: JSON.stringify({ id: publicId(a.issue.id) }), present: [] }));
  // Everyone the page's issues name is read in one go, not per issue (viewIssues).
  return (await viewIssues(tracker, caller, result.issues, fields)).map((view) => issueJson(caller, view, fields));
}
