import type { FastifyInstance } from 'fastify';
import { findIssue } from '../../domain/access.js';
import { addComment, listComments } from '../../domain/comments.js';
import { ApiError } from '../../domain/errors.js';
import { COMMENT_PAGE_MAX } from '../../domain/limits.js';
import { assignIssue, createIssue, deleteIssue, doTransition, editIssue } from '../../domain/issues.js';
import type { Tracker } from '../../domain/tracker.js';
import { availableTransitions } from '../../domain/workflow.js';
import { callerOf } from '../context.js';
import type { IssueReadCache } from '../issue-read-cache.js';
import { JSON_TYPE, viewIssue } from '../issue-view.js';
import { boolParam, intParam, param, type Query } from '../params.js';
import { renderComment, renderCreated, renderTransition } from '../render.js';

type KeyParams = { issueIdOrKey: string };
const READ = { config: { scope: 'read:jira-work' as const } };
const WRITE = { config: { scope: 'write:jira-work' as const } };

export const issueRoutes = (tracker: Tracker, reads: IssueReadCache | null) => async (app: FastifyInstance) => {
  // spec §4 endpoint 6
  app.post('/issue', WRITE, async (request, reply) => {
    const caller = callerOf(request);
    const issue = await createIssue(tracker, caller, request.body);
    return reply.code(201).send(renderCreated(caller, issue));
  });

  // spec §4 endpoint 5; a reply rendered from unchanged data is kept for the next same read.
  app.get('/issue/:issueIdOrKey', READ, async (request, reply) => {
    const caller = callerOf(request);
    const version = reads?.current();
    const access = await findIssue(tracker, caller, (request.params as KeyParams).issueIdOrKey);
    const body = await viewIssue(tracker, caller, access, request.query as Query);
    if (reads && version !== undefined) reads.offer(request.raw, caller.user.id, body, version);
    return reply.type(JSON_TYPE).send(body);
  });

  // spec §4 endpoint 14: 204, or 200 with the issue when returnIssue=true
  app.put('/issue/:issueIdOrKey', WRITE, async (request, reply) => {
    const caller = callerOf(request);
    const q = request.query as Query;
    const returnIssue = boolParam(q, 'returnIssue');
    const access = await editIssue(tracker, caller, (request.params as KeyParams).issueIdOrKey, request.body);
    if (!returnIssue) return reply.code(204).send();
    const fresh = await findIssue(tracker, caller, access.issue.key);
    return reply.type(JSON_TYPE).send(await viewIssue(tracker, caller, fresh, q));
  });

  // spec §4 endpoint 13: deleteSubtasks "true" | "false", in any case (python jira sends "True")
  app.delete('/issue/:issueIdOrKey', WRITE, async (request, reply) => {
    const caller = callerOf(request);
    await deleteIssue(tracker, caller, (request.params as KeyParams).issueIdOrKey, boolParam(request.query as Query, 'deleteSubtasks'));
    return reply.code(204).send();
  });

  // spec §4 endpoint 7
  app.post('/issue/:issueIdOrKey/comment', WRITE, async (request, reply) => {
    const caller = callerOf(request);
    const { access, comment } = await addComment(tracker, caller, (request.params as KeyParams).issueIdOrKey, request.body);
    return reply.code(201).send(renderComment(caller, access.issue, comment, caller.user));
  });

  // spec §4 endpoint 8: {startAt, maxResults, total, comments}
  app.get('/issue/:issueIdOrKey/comment', READ, async (request) => {
    const caller = callerOf(request);
    const q = request.query as Query;
    const key = (request.params as KeyParams).issueIdOrKey;
    const page = await listComments(tracker, caller, key, {
      startAt: intParam(q, 'startAt', 0, 0, Number.MAX_SAFE_INTEGER),
      maxResults: intParam(q, 'maxResults', COMMENT_PAGE_MAX, 0, COMMENT_PAGE_MAX),
      orderBy: param(q, 'orderBy'),
    });
    const access = await findIssue(tracker, caller, key);
    const authors = await tracker.users(page.rows.map((c) => c.author_id));
    return {
      startAt: page.startAt,
      maxResults: page.maxResults,
      total: page.total,
      comments: page.rows.map((c) => renderComment(caller, access.issue, c, authors.get(c.author_id))),
    };
  });

  // spec §4 endpoint 10
  app.put('/issue/:issueIdOrKey/assignee', WRITE, async (request, reply) => {
    await assignIssue(tracker, callerOf(request), (request.params as KeyParams).issueIdOrKey, request.body);
    return reply.code(204).send();
  });

  // spec §4 endpoint 11: ids come from the project's workflow
  app.get('/issue/:issueIdOrKey/transitions', READ, async (request) => {
    const caller = callerOf(request);
    const access = await findIssue(tracker, caller, (request.params as KeyParams).issueIdOrKey);
    const workflow = tracker.workflowOf(access.project);
    const current = await tracker.statusById(caller.site.id, access.issue.status_id);
    const only = param(request.query as Query, 'transitionId');
    const list = availableTransitions(workflow, current.name).filter((t) => only === undefined || t.id === only);
    const transitions = await Promise.all(list.map(async (t) => renderTransition(caller, t, await tracker.statusByName(caller.site.id, t.to))));
    return { expand: 'transitions', transitions };
  });

  // spec §4 endpoint 12: 204 with no body
  app.post('/issue/:issueIdOrKey/transitions', WRITE, async (request, reply) => {
    await doTransition(tracker, callerOf(request), (request.params as KeyParams).issueIdOrKey, request.body);
    return reply.code(204).send();
  });

  // The removed search endpoints answer as the hosted service does since their removal.
  const gone = async () => {
    throw new ApiError(410, ['The requested API has been removed. Please migrate to the /rest/api/3/search/jql API.']);
  };
  app.get('/search', READ, gone);
  app.post('/search', READ, gone);
};
