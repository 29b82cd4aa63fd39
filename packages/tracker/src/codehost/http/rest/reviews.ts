import { Type } from '@sinclair/typebox';
import type { CodeHost } from '../../domain/host.js';
import { createReview, listReviews } from '../../domain/reviews.js';
import { review } from '../render.js';
import { PageQuery, PullParams, replies } from '../schemas/common.js';
import { CreateReviewBody, Review } from '../schemas/reviews.js';
import type { CodehostApp } from '../validation.js';
import { accessOf, DOCS, numberOf, op, paged, paging, urlsOf } from './common.js';

/** A pull request's reviews: list and create. */
export function reviewRoutes(app: CodehostApp, host: CodeHost): void {
  app.get(
    '/repos/:owner/:repo/pulls/:number/reviews',
    { config: op(DOCS.reviews, 'read'), schema: { params: PullParams, querystring: PageQuery, response: replies({ 200: Type.Array(Review) }) } },
    async (request, reply) => {
      const { perPage, page, offset } = paging(request.query);
      const { view, reviews, total } = await listReviews(host, accessOf(request), numberOf(request.params), offset, perPage);
      const u = urlsOf(request);
      return paged(
        request,
        reply,
        page,
        perPage,
        total,
        reviews.map((r) => review(u, view, r)),
      );
    },
  );

  app.post(
    '/repos/:owner/:repo/pulls/:number/reviews',
    { config: op(DOCS.createReview, 'write'), schema: { params: PullParams, body: CreateReviewBody, response: replies({ 200: Review }) } },
    async (request) => {
      const { view, review: r } = await createReview(host, accessOf(request), numberOf(request.params), request.body);
      return review(urlsOf(request), view, r);
    },
  );
}
