import { Type } from '@sinclair/typebox';
import { createComment, listComments } from '../../domain/comments.js';
import type { CodeHost } from '../../domain/host.js';
import { issueComment } from '../render.js';
import { PullParams, replies } from '../schemas/common.js';
import { CreateCommentBody, IssueComment, ListCommentsQuery } from '../schemas/comments.js';
import type { CodehostApp } from '../validation.js';
import { accessOf, DOCS, numberOf, op, paged, paging, urlsOf } from './common.js';

/** A pull request's conversation (GitHub's issue comments): list and create. */
export function commentRoutes(app: CodehostApp, host: CodeHost): void {
  app.get(
    '/repos/:owner/:repo/issues/:number/comments',
    { config: op(DOCS.comments, 'read'), schema: { params: PullParams, querystring: ListCommentsQuery, response: replies({ 200: Type.Array(IssueComment) }) } },
    async (request, reply) => {
      const a = accessOf(request);
      const { perPage, page, offset } = paging(request.query);
      const n = numberOf(request.params);
      const since = request.query.since === undefined ? undefined : new Date(request.query.since).toISOString();
      const { comments, total } = await listComments(host, a, n, offset, perPage, since);
      const u = urlsOf(request);
      return paged(
        request,
        reply,
        page,
        perPage,
        total,
        comments.map((c) => issueComment(u, a, n, c)),
      );
    },
  );

  app.post(
    '/repos/:owner/:repo/issues/:number/comments',
    { config: op(DOCS.createComment, 'write'), schema: { params: PullParams, body: CreateCommentBody, response: replies({ 201: IssueComment }) } },
    async (request, reply) => {
      const a = accessOf(request);
      const n = numberOf(request.params);
      const body = issueComment(urlsOf(request), a, n, await createComment(host, a, n, request.body.body));
      return reply.code(201).header('location', body.url).send(body);
    },
  );
}
