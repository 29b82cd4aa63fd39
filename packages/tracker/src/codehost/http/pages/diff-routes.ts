import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendHtml } from '../../../kit/pages.js';
import { repoFor } from '../../domain/access.js';
import { comparePage, commitPage, pullCommitPage, pullDiffPage, pullRangePage } from '../../domain/diff-pages.js';
import { pullDiffText } from '../../domain/diffs.js';
import { notFound } from '../../domain/errors.js';
import { loadPullHeader, loadRepoHeader } from '../../domain/pull-frame.js';
import type { CodeHost } from '../../domain/host.js';
import type { ChUser } from '../../domain/model.js';
import type { RepoAccess } from '../../domain/views.js';
import { tooLargeMessage } from '../../git/diff-text.js';
import * as view from './diff-view.js';
import { pullFrame, repoFrame } from './frame.js';

/**
 * The diff pages' routes (ARCHITECTURE §22 "Pages"), in the review pages' scope (./routes.ts: its
 * sign-in, its headers, its error pages: a stranger's 404 is a missing repository's). The `.diff`
 * and `.patch` of a pull request are `text/plain`, whole or refused (406) when over their budget.
 */

export interface DiffPageContext {
  /** The signed-in viewer (401 with the browser's prompt otherwise). */
  viewer(request: FastifyRequest): Promise<ChUser>;
}

interface RepoParams {
  owner: string;
  repo: string;
}
type PullParams = RepoParams & { number: string };

const numberOf = (text: string): number => {
  if (!/^[1-9]\d{0,9}$/.test(text)) throw notFound();
  return Number(text);
};

export function diffPageRoutes(app: FastifyInstance, host: CodeHost, ctx: DiffPageContext): void {
  const open = async (request: FastifyRequest, params: RepoParams): Promise<{ user: ChUser; a: RepoAccess }> => {
    const user = await ctx.viewer(request);
    return { user, a: await repoFor(host, user, params.owner, params.repo, 'read') };
  };
  const short = (sha: string) => sha.slice(0, 7);

  for (const kind of ['diff', 'patch'] as const) {
    app.get<{ Params: PullParams }>(`/:owner/:repo/pull/:number.${kind}`, async (request, reply) => {
      const { a } = await open(request, request.params);
      const { diff } = await pullDiffText(host, a, numberOf(request.params.number), kind);
      if (!('text' in diff)) {
        return reply
          .code(406)
          .type('text/plain; charset=utf-8')
          .send(`${tooLargeMessage(diff)} Nothing of it is sent: clone the repository and run git diff there, or read the pull request's files page.\n`);
      }
      return reply.code(200).type('text/plain; charset=utf-8').send(diff.text);
    });
  }

  app.get<{ Params: PullParams }>('/:owner/:repo/pull/:number/files', async (request, reply) => {
    const { user, a } = await open(request, request.params);
    const n = numberOf(request.params.number);
    const p = await pullDiffPage(host, a, n);
    const body = view.pullFilesBody(a.repo, n, p.comparison);
    return sendHtml(reply, 200, pullFrame(await loadPullHeader(host, a, n), user, 'files', body, 'Files changed'));
  });

  app.get<{ Params: PullParams & { range: string } }>('/:owner/:repo/pull/:number/files/:range', async (request, reply) => {
    const { user, a } = await open(request, request.params);
    const m = /^([0-9a-f]{4,40})\.\.([0-9a-f]{4,40})$/.exec(request.params.range);
    if (m === null) throw notFound();
    const n = numberOf(request.params.number);
    const p = await pullRangePage(host, a, n, m[1]!, m[2]!);
    const body = view.pullRangeBody(p.from, p.to, p.comparison);
    return sendHtml(reply, 200, pullFrame(await loadPullHeader(host, a, n), user, 'files', body, `${short(p.from)}..${short(p.to)}`));
  });

  app.get<{ Params: PullParams }>('/:owner/:repo/pull/:number/commits', async (request, reply) => {
    const { user, a } = await open(request, request.params);
    const n = numberOf(request.params.number);
    const p = await pullDiffPage(host, a, n);
    return sendHtml(reply, 200, pullFrame(await loadPullHeader(host, a, n), user, 'commits', view.pullCommitsBody(a.repo, n, p.comparison), 'Commits'));
  });

  app.get<{ Params: PullParams & { sha: string } }>('/:owner/:repo/pull/:number/commits/:sha', async (request, reply) => {
    const { user, a } = await open(request, request.params);
    const n = numberOf(request.params.number);
    const p = await pullCommitPage(host, a, n, request.params.sha);
    return sendHtml(reply, 200, pullFrame(await loadPullHeader(host, a, n), user, 'commits', view.commitBody(p.commit, p.comparison), short(p.commit.sha)));
  });

  app.get<{ Params: RepoParams & { sha: string } }>('/:owner/:repo/commit/:sha', async (request, reply) => {
    const { user, a } = await open(request, request.params);
    const p = await commitPage(host, a, request.params.sha);
    const title = `${p.commit.message.split('\n', 1)[0] ?? ''} · ${short(p.commit.sha)}`;
    return sendHtml(reply, 200, repoFrame(await loadRepoHeader(host, a), user, 'code', title, view.commitBody(p.commit, p.comparison)));
  });

  app.get<{ Params: RepoParams & { '*': string } }>('/:owner/:repo/compare/*', async (request, reply) => {
    const { user, a } = await open(request, request.params);
    const p = await comparePage(host, a, request.params['*']);
    const body = view.compareBody(a.repo, p.base, p.head, p.comparison);
    return sendHtml(reply, 200, repoFrame(await loadRepoHeader(host, a), user, 'code', `Comparing ${p.base}...${p.head}`, body));
  });
}
