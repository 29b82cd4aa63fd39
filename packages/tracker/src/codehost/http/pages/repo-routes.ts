import type { FastifyInstance } from 'fastify';
import { sendHtml } from '../../../kit/pages.js';
import { repoFor } from '../../domain/access.js';

import type { CodeHost } from '../../domain/host.js';
import { loadPullList, loadRepoPage } from '../../domain/repo-page.js';
import { viewerOf, PageRefusal, type RepoParams } from './common.js';
import { pullsPath, repoPath } from './frame.js';
import { pullListPage, repoPage } from './repo-view.js';

/**
 * First path segments that are the tracker's or the REST interface's, never a code-host owner: a
 * request there is the server's own 404 (JSON for an API client), not a code-host sign-in prompt.
 */
const NOT_OWNERS = new Set(['api', 'rest', 'browse', 'secure', 'plugins', 'favicon.ico']);
const notAnOwner = (owner: string) => owner.startsWith('_') || NOT_OWNERS.has(owner.toLowerCase());

/** The highest page number of the list (25 a page): past it the list is read over REST. */
const PAGE_MAX = 1000;

/**
 * `GET /<o>/<r>` and `GET /<o>/<r>/pulls?state=open|closed|all&page=N` (ARCHITECTURE §22): signed
 * in as every page is, 404 (masked) for a repository the viewer may not read.
 */
export function repoPageRoutes(app: FastifyInstance, host: CodeHost): void {
  app.get<{ Params: RepoParams }>('/:owner/:repo', async (request, reply) => {
    if (notAnOwner(request.params.owner)) return reply.callNotFound();
    const { user } = await viewerOf(host, request);
    const a = await repoFor(host, user, request.params.owner, request.params.repo, 'read');
    const view = await loadRepoPage(host, a);
    const cloneUrl = `${request.protocol}://${request.host}${repoPath(a.repo)}.git`;
    return sendHtml(reply, 200, repoPage(view, user, cloneUrl));
  });

  app.get<{ Params: RepoParams; Querystring: Record<string, string | string[] | undefined> }>('/:owner/:repo/pulls', async (request, reply) => {
    if (notAnOwner(request.params.owner)) return reply.callNotFound();
    const { user } = await viewerOf(host, request);
    const a = await repoFor(host, user, request.params.owner, request.params.repo, 'read');
    const q = request.query;
    const stateText = typeof q.state === 'string' ? q.state : 'open';
    const pageText = typeof q.page === 'string' ? q.page : '1';
    if (stateText !== 'open' && stateText !== 'closed' && stateText !== 'all') {
      throw new PageRefusal(400, 'Cannot show this list', ['state must be open, closed or all.'], pullsPath(a.repo));
    }
    if (!/^[1-9]\d{0,3}$/.test(pageText) || Number(pageText) > PAGE_MAX) {
      throw new PageRefusal(400, 'Cannot show this list', [`page must be a whole number from 1 to ${PAGE_MAX}.`], pullsPath(a.repo));
    }
    return sendHtml(reply, 200, pullListPage(await loadPullList(host, a, stateText, Number(pageText)), user));
  });
}
