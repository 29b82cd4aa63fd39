import type { CodehostApp } from '../validation.js';
import { privateUser, repository } from '../render.js';
import { replies, RepoParams } from '../schemas/common.js';
import { RateLimitOverview } from '../schemas/rate-limit.js';
import { FullRepository, PrivateUser } from '../schemas/repos.js';
import { accessOf, DOCS, op, urlsOf, userOf } from './common.js';

/** The signed-in account (`GET /user`), its rate limits (`GET /rate_limit`) and a repository (`GET /repos/{owner}/{repo}`). */
export function repoRoutes(app: CodehostApp): void {
  app.get('/user', { config: op(DOCS.user), schema: { response: replies({ 200: PrivateUser }) } }, async (request) =>
    privateUser(urlsOf(request), userOf(request)),
  );

  // GitHub's rate-limit-overview: the windows this answer's own X-RateLimit-* headers state (domain/rate-limit.ts).
  app.get('/rate_limit', { config: op(DOCS.rateLimit), schema: { response: replies({ 200: RateLimitOverview }) } }, async (request) => {
    const { core, search, graphql } = request.codehostRate!;
    return { resources: { core, search, graphql }, rate: core };
  });

  app.get(
    '/repos/:owner/:repo',
    { config: op(DOCS.repo, 'read'), schema: { params: RepoParams, response: replies({ 200: FullRepository }) } },
    async (request) => {
      const a = accessOf(request);
      return repository(urlsOf(request), a.repo, a.owner, a.permission);
    },
  );
}
