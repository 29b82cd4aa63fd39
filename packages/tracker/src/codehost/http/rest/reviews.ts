import type { FastifyInstance } from 'fastify';
import type { CodeHost } from '../../domain/codehost.js';
import { review } from '../render.js';
import { bodyOf, DOCS, paged, paging, type PullParams, type Query, type RestKit, urlsOf } from './kit.js';

/** A pull request's reviews: list and create. */
export function reviewRoutes(app: FastifyInstance, host: CodeHost, { access, numberOf, cfg }: RestKit): void {
  app.get<{ Params: PullParams; Querystring: Query }>('/repos/:owner/:repo/pulls/:number/reviews', cfg(DOCS.reviews), async (request, reply) => {
    const a = await access(request, 'read');
    const { perPage, page, offset } = paging(request.query);
    const { view, reviews, total } = await host.reviews(a, numberOf(request), offset, perPage);
    const u = urlsOf(request);
    return paged(
      request,
      reply,
      page,
      perPage,
      total,
      reviews.map((r) => review(u, view, r)),
    );
  });

  app.post<{ Params: PullParams }>('/repos/:owner/:repo/pulls/:number/reviews', cfg(DOCS.createReview), async (request) => {
    const a = await access(request, 'write');
    const { view, review: r } = await host.createReview(a, numberOf(request), bodyOf(request));
    return review(urlsOf(request), view, r);
  });
}
