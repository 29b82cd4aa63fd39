import type { FastifyInstance } from 'fastify';
import type { CodeHost } from '../domain/codehost.js';
import { commentRoutes } from './rest/comments.js';
import { restKit } from './rest/kit.js';
import { mergeRoutes } from './rest/merges.js';
import { pullRoutes } from './rest/pulls.js';
import { repoRoutes } from './rest/repos.js';
import { reviewRoutes } from './rest/reviews.js';
import { installRestScope } from './rest/scope.js';

export { tokenOf } from './rest/kit.js';

/**
 * The code host's REST interface (ARCHITECTURE §14), mounted under `/api/v3` by the composition
 * (src/server.ts), GitHub Enterprise Server's layout. Its own scope (./rest/scope.ts): its own body
 * parsing, errors and not-found answer in GitHub's shape, never the tracker's; then each
 * resource's routes (./rest/*.ts).
 */
export function codehostRoutes(host: CodeHost) {
  return async (app: FastifyInstance) => {
    installRestScope(app, host);
    const kit = restKit(host);
    repoRoutes(app, kit);
    pullRoutes(app, host, kit);
    mergeRoutes(app, host, kit);
    reviewRoutes(app, host, kit);
    commentRoutes(app, host, kit);
  };
}
