import type { FastifyInstance } from 'fastify';
import type { CodeHost } from '../domain/host.js';
import { GitSlots } from '../git/slots.js';
import { commentRoutes } from './rest/comments.js';
import { hookRoutes } from './rest/hooks.js';
import { mergeRoutes } from './rest/merges.js';
import { metaRoutes } from './rest/meta.js';
import { protectionRoutes } from './rest/protection.js';
import { pullRoutes } from './rest/pulls.js';
import { repoRoutes } from './rest/repos.js';
import { reviewRoutes } from './rest/reviews.js';
import { installRestScope } from './rest/scope.js';
import { codehostValidation } from './validation.js';

export { tokenOf } from './rest/common.js';

/**
 * The code host's REST interface (ARCHITECTURE §14, §20), mounted under `/api/v3` by the
 * composition (src/server.ts), GitHub Enterprise Server's layout. Its own scope (./rest/scope.ts):
 * its own body parsing, validation (./validation.ts), errors and not-found answer in GitHub's
 * shape, never the tracker's; then each resource's routes (./rest/*.ts) with their schemas
 * (./schemas/*.ts), each calling one domain function.
 */
export function codehostRoutes(host: CodeHost, slots: GitSlots = new GitSlots()) {
  return async (scope: FastifyInstance) => {
    installRestScope(scope, host, slots);
    const app = codehostValidation(scope);
    metaRoutes(app);
    repoRoutes(app);
    pullRoutes(app, host);
    mergeRoutes(app, host);
    reviewRoutes(app, host);
    commentRoutes(app, host);
    protectionRoutes(app, host);
    hookRoutes(app, host);
  };
}
