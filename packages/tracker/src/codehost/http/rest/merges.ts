import type { FastifyInstance } from 'fastify';
import type { CodeHost } from '../../domain/codehost.js';
import { notFound } from '../../domain/errors.js';
import { bodyOf, DOCS, type PullParams, type RestKit } from './kit.js';

/** Whether a pull request is merged (204 or 404, as GitHub), and the merge itself. */
export function mergeRoutes(app: FastifyInstance, host: CodeHost, { access, numberOf, cfg }: RestKit): void {
  app.get<{ Params: PullParams }>('/repos/:owner/:repo/pulls/:number/merge', cfg(DOCS.checkMerged), async (request, reply) => {
    const a = await access(request, 'read');
    if (!(await host.isMerged(a, numberOf(request)))) throw notFound(DOCS.checkMerged);
    return reply.code(204).send();
  });

  app.put<{ Params: PullParams }>('/repos/:owner/:repo/pulls/:number/merge', cfg(DOCS.merge), async (request) => {
    const a = await access(request, 'write');
    const { sha } = await host.merge(a, numberOf(request), bodyOf(request));
    return { sha, merged: true, message: 'Pull Request successfully merged' };
  });
}
