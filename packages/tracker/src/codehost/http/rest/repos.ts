import type { FastifyInstance } from 'fastify';
import { privateUser, repository } from '../render.js';
import { DOCS, type RepoParams, type RestKit, urlsOf } from './kit.js';

/** The signed-in account (`GET /user`) and a repository (`GET /repos/{owner}/{repo}`). */
export function repoRoutes(app: FastifyInstance, { user, access, cfg }: RestKit): void {
  app.get('/user', cfg(DOCS.user), async (request) => privateUser(urlsOf(request), user(request)));

  app.get<{ Params: RepoParams }>('/repos/:owner/:repo', cfg(DOCS.repo), async (request) => {
    const a = await access(request, 'read');
    return repository(urlsOf(request), a.repo, a.owner, a.permission);
  });
}
