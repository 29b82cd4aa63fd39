import type { CodeHost } from '../../domain/host.js';
import { isMerged, merge } from '../../domain/merges.js';
import { GhError } from '../errors.js';
import { NoContent, PullParams, replies } from '../schemas/common.js';
import { MergeBody, MergeResult } from '../schemas/merges.js';
import type { CodehostApp } from '../validation.js';
import { accessOf, DOCS, numberOf, op } from './common.js';

/** Whether a pull request is merged (204 or 404, as GitHub), and the merge itself. */
export function mergeRoutes(app: CodehostApp, host: CodeHost): void {
  app.get(
    '/repos/:owner/:repo/pulls/:number/merge',
    { config: op(DOCS.checkMerged, 'read'), schema: { params: PullParams, response: replies({ 204: NoContent }) } },
    async (request, reply) => {
      if (!(await isMerged(host, accessOf(request), numberOf(request.params)))) throw new GhError(404, 'Not Found');
      return reply.code(204).send(null);
    },
  );

  app.put(
    '/repos/:owner/:repo/pulls/:number/merge',
    { config: op(DOCS.merge, 'write'), schema: { params: PullParams, body: MergeBody, response: replies({ 200: MergeResult }) } },
    async (request) => {
      const { sha } = await merge(host, accessOf(request), numberOf(request.params), request.body);
      return { sha, merged: true, message: 'Pull Request successfully merged' };
    },
  );
}
