import type { FastifyInstance } from 'fastify';
import type { CodeHost } from '../../domain/codehost.js';
import { GhError } from '../../domain/errors.js';
import { issueComment } from '../render.js';
import { bodyOf, DOCS, one, paged, paging, type PullParams, type Query, type RestKit, urlsOf } from './kit.js';

/** A pull request's conversation (GitHub's issue comments): list and create. */
export function commentRoutes(app: FastifyInstance, host: CodeHost, { access, numberOf, cfg }: RestKit): void {
  app.get<{ Params: PullParams; Querystring: Query }>('/repos/:owner/:repo/issues/:number/comments', cfg(DOCS.comments), async (request, reply) => {
    const a = await access(request, 'read');
    const { perPage, page, offset } = paging(request.query);
    const n = numberOf(request);
    const since = one(request.query, 'since');
    if (since !== undefined && Number.isNaN(Date.parse(since)))
      throw new GhError(422, 'Validation Failed', [{ resource: 'IssueComment', field: 'since', code: 'invalid' }]);
    const { comments, total } = await host.comments(a, n, offset, perPage, since === undefined ? undefined : new Date(since).toISOString());
    const u = urlsOf(request);
    return paged(
      request,
      reply,
      page,
      perPage,
      total,
      comments.map((c) => issueComment(u, a, n, c)),
    );
  });

  app.post<{ Params: PullParams }>('/repos/:owner/:repo/issues/:number/comments', cfg(DOCS.createComment), async (request, reply) => {
    const a = await access(request, 'write');
    const n = numberOf(request);
    const body = issueComment(urlsOf(request), a, n, await host.createComment(a, n, bodyOf(request)));
    return reply.code(201).header('location', body.url).send(body);
  });
}
