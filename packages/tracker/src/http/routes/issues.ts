import type { FastifyInstance } from 'fastify';
import { findIssue } from '../../domain/access.js';
import { addComment, getComment, listComments, updateComment } from '../../domain/comments.js';
import { ApiError } from '../../domain/errors.js';
import { COMMENT_PAGE_MAX } from '../../domain/limits.js';
import { assignIssue, createIssue, deleteIssue, doTransition, editIssue } from '../../domain/issues.js';
import type { Tracker } from '../../domain/tracker.js';
import { standingOf } from '../../domain/conditions.js';
import { satisfies, transitionsFrom } from '../../domain/workflow.js';
import { callerOf } from '../context.js';
import type { IssueReadCache } from '../issue-read-cache.js';
import { readIssueView, sendJsonText } from '../issue-view.js';
import { countOf } from '../params.js';
import { renderComment, renderCreated, renderTransition } from '../render.js';
import { isTrue, NoContent, replies } from '../schemas/common.js';
import { Comment, CommentBody, CommentPage, CommentParams, CommentQuery, CommentsQuery } from '../schemas/comments.js';
import {
  AssigneeBody,
  Created,
  CreateIssueQuery,
  DeleteIssueQuery,
  EditIssueQuery,
  Issue,
  IssueBody,
  IssueParams,
  IssueViewQuery,
  TransitionBody,
  Transitions,
  TransitionsQuery,
} from '../schemas/issues.js';
import { typed, type TypedApp } from '../validation.js';

const READ = { scope: 'read:jira-work' as const };
const WRITE = { scope: 'write:jira-work' as const };

export const issueRoutes = (tracker: Tracker, reads: IssueReadCache | null) => async (scope: FastifyInstance) => {
  const app = typed(scope);
  issueItself(app, tracker, reads);
  commentsAndWorkflow(app, tracker);
};

/** An issue itself: create, read, edit, delete. */
function issueItself(app: TypedApp, tracker: Tracker, reads: IssueReadCache | null): void {
  // spec §4 endpoint 6
  app.post(
    '/issue',
    { config: WRITE, schema: { querystring: CreateIssueQuery, body: IssueBody, response: replies({ 201: Created }) } },
    async (request, reply) => {
      const caller = callerOf(request);
      const issue = await createIssue(tracker, caller, request.body);
      return reply.code(201).send(renderCreated(caller, issue));
    },
  );

  // spec §4 endpoint 5; a reply rendered from unchanged data is kept for the next same read. Most
  // reads never get here: the front answers them before Fastify routes them (http/issue-read-front.ts).
  app.get(
    '/issue/:issueIdOrKey',
    { config: READ, schema: { params: IssueParams, querystring: IssueViewQuery, response: replies({ 200: Issue }) } },
    async (request, reply) => {
      const caller = callerOf(request);
      const version = reads?.current();
      // The view is JSON text already (issue-view.ts), sent as it is rather than through the route's serialiser.
      const body = await readIssueView(tracker, caller, request.params.issueIdOrKey, request.query);
      if (reads && version !== undefined) reads.offer(request.raw, caller.user.id, body, version);
      return sendJsonText(reply, body);
    },
  );

  // spec §4 endpoint 14: 204, or 200 with the issue when returnIssue=true
  app.put(
    '/issue/:issueIdOrKey',
    { config: WRITE, schema: { params: IssueParams, querystring: EditIssueQuery, body: IssueBody, response: replies({ 200: Issue, 204: NoContent }) } },
    async (request, reply) => {
      const caller = callerOf(request);
      const access = await editIssue(tracker, caller, request.params.issueIdOrKey, request.body);
      if (!isTrue(request.query.returnIssue)) return reply.code(204).send(null);
      return sendJsonText(reply, await readIssueView(tracker, caller, access.issue.key, request.query));
    },
  );

  // spec §4 endpoint 13: deleteSubtasks "true" | "false", in any case (python jira sends "True")
  app.delete(
    '/issue/:issueIdOrKey',
    { config: WRITE, schema: { params: IssueParams, querystring: DeleteIssueQuery, response: replies({ 204: NoContent }) } },
    async (request, reply) => {
      await deleteIssue(tracker, callerOf(request), request.params.issueIdOrKey, isTrue(request.query.deleteSubtasks));
      return reply.code(204).send(null);
    },
  );
}

/** Its comments, its assignee and its transitions, and the retired search. */
function commentsAndWorkflow(app: TypedApp, tracker: Tracker): void {
  // spec §4 endpoint 7
  app.post(
    '/issue/:issueIdOrKey/comment',
    { config: WRITE, schema: { params: IssueParams, body: CommentBody, response: replies({ 201: Comment }) } },
    async (request, reply) => {
      const caller = callerOf(request);
      const { access, comment } = await addComment(tracker, caller, request.params.issueIdOrKey, request.body);
      return reply.code(201).send(renderComment(caller, access.issue, comment, caller.user));
    },
  );

  // spec §4 rule 19: Jira's getComment, one comment of an issue the caller may see
  app.get(
    '/issue/:issueIdOrKey/comment/:id',
    { config: READ, schema: { params: CommentParams, querystring: CommentQuery, response: replies({ 200: Comment }) } },
    async (request) => {
      const caller = callerOf(request);
      const { access, comment } = await getComment(tracker, caller, request.params.issueIdOrKey, request.params.id);
      const author = (await tracker.users([comment.author_id])).get(comment.author_id);
      return renderComment(caller, access.issue, comment, author);
    },
  );

  // spec §4 rule 19: Jira's updateComment, 200 with the comment; only its author may rewrite it
  app.put(
    '/issue/:issueIdOrKey/comment/:id',
    { config: WRITE, schema: { params: CommentParams, body: CommentBody, response: replies({ 200: Comment }) } },
    async (request) => {
      const caller = callerOf(request);
      const { access, comment } = await updateComment(tracker, caller, request.params.issueIdOrKey, request.params.id, request.body);
      return renderComment(caller, access.issue, comment, caller.user);
    },
  );

  // spec §4 endpoint 8: {startAt, maxResults, total, comments}
  app.get(
    '/issue/:issueIdOrKey/comment',
    { config: READ, schema: { params: IssueParams, querystring: CommentsQuery, response: replies({ 200: CommentPage }) } },
    async (request) => {
      const caller = callerOf(request);
      const { orderBy } = request.query;
      const key = request.params.issueIdOrKey;
      const page = await listComments(tracker, caller, key, {
        startAt: countOf(request.query.startAt, 0),
        maxResults: countOf(request.query.maxResults, COMMENT_PAGE_MAX, COMMENT_PAGE_MAX),
        orderBy,
      });
      const access = await findIssue(tracker, caller, key);
      const authors = await tracker.users(page.rows.map((c) => c.author_id));
      return {
        startAt: page.startAt,
        maxResults: page.maxResults,
        total: page.total,
        comments: page.rows.map((c) => renderComment(caller, access.issue, c, authors.get(c.author_id))),
      };
    },
  );

  // spec §4 endpoint 10
  app.put(
    '/issue/:issueIdOrKey/assignee',
    { config: WRITE, schema: { params: IssueParams, body: AssigneeBody, response: replies({ 204: NoContent }) } },
    async (request, reply) => {
      await assignIssue(tracker, callerOf(request), request.params.issueIdOrKey, request.body);
      return reply.code(204).send(null);
    },
  );

  // spec §4 endpoint 11: ids come from the project's workflow
  app.get(
    '/issue/:issueIdOrKey/transitions',
    { config: READ, schema: { params: IssueParams, querystring: TransitionsQuery, response: replies({ 200: Transitions }) } },
    async (request) => {
      const caller = callerOf(request);
      const access = await findIssue(tracker, caller, request.params.issueIdOrKey);
      const workflow = tracker.workflowOf(access.project);
      const current = await tracker.statusById(caller.site.id, access.issue.status_id);
      const only = request.query.transitionId;
      // spec §3 rule 5: a transition whose condition the caller fails is left out, or shown with
      // isAvailable false when asked for (the vendor's includeUnavailableTransitions).
      const standing = await standingOf(tracker, caller, access.project, access.role);
      const list = transitionsFrom(workflow, current.name)
        .filter((t) => only === undefined || t.id === only)
        .map((t) => ({ t, available: satisfies(t, standing) }))
        .filter((x) => x.available || isTrue(request.query.includeUnavailableTransitions));
      const transitions = await Promise.all(
        list.map(async ({ t, available }) => renderTransition(caller, t, await tracker.statusByName(caller.site.id, t.to), available)),
      );
      return { expand: 'transitions', transitions };
    },
  );

  // spec §4 endpoint 12: 204 with no body
  app.post(
    '/issue/:issueIdOrKey/transitions',
    { config: WRITE, schema: { params: IssueParams, body: TransitionBody, response: replies({ 204: NoContent }) } },
    async (request, reply) => {
      await doTransition(tracker, callerOf(request), request.params.issueIdOrKey, request.body);
      return reply.code(204).send(null);
    },
  );

  // The removed search endpoints answer as the hosted service does since their removal.
  const gone = async () => {
    throw new ApiError(410, ['The requested API has been removed. Please migrate to the /rest/api/3/search/jql API.']);
  };
  app.get('/search', { config: READ, schema: { response: replies({}) } }, gone);
  app.post('/search', { config: READ, schema: { response: replies({}) } }, gone);
}
