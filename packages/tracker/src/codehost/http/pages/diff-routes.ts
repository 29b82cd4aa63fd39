import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendHtml } from '../../../kit/pages.js';
import { repoFor } from '../../domain/access.js';
import { comparePage, commitPage, pullCommitPage, pullDiffPage, pullRangePage } from '../../domain/diff-pages.js';
import { pullDiffText } from '../../domain/diffs.js';
import { notFound } from '../../domain/errors.js';
import type { CodeHost } from '../../domain/host.js';
import type { ChUser } from '../../domain/model.js';
import type { RepoAccess } from '../../domain/views.js';
import { tooLargeMessage } from '../../git/diff-text.js';
import * as view from './diff-view.js';

/**
 * The diff pages' routes (ARCHITECTURE §22 "Pages"), in the review pages' scope (./routes.ts: its
 * sign-in, its headers, its error pages: a stranger's 404 is a missing repository's). The `.diff`
 * and `.patch` of a pull request are `text/plain`, whole or refused (406) when over their budget.
 */

export interface DiffPageContext {
  /** The signed-in viewer (401 with the browser's prompt otherwise). */
  viewer(request: FastifyRequest): Promise<ChUser>;
  /** The layout the bodies are framed in. */
  frame?: view.Frame;
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
  const frame = ctx.frame ?? view.defaultFrame;
  const open = async (request: FastifyRequest, params: RepoParams): Promise<{ user: ChUser; a: RepoAccess; name: string }> => {
    const user = await ctx.viewer(request);
    const a = await repoFor(host, user, params.owner, params.repo, 'read');
    return { user, a, name: user.name ?? user.login };
  };

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
    const { a, name } = await open(request, request.params);
    const p = await pullDiffPage(host, a, numberOf(request.params.number));
    return sendHtml(reply, 200, view.pullFilesPage(frame, name, p.view, p.comparison));
  });

  app.get<{ Params: PullParams & { range: string } }>('/:owner/:repo/pull/:number/files/:range', async (request, reply) => {
    const { a, name } = await open(request, request.params);
    const m = /^([0-9a-f]{4,40})\.\.([0-9a-f]{4,40})$/.exec(request.params.range);
    if (m === null) throw notFound();
    const p = await pullRangePage(host, a, numberOf(request.params.number), m[1]!, m[2]!);
    return sendHtml(reply, 200, view.pullRangePage(frame, name, p.view, p.from, p.to, p.comparison));
  });

  app.get<{ Params: PullParams }>('/:owner/:repo/pull/:number/commits', async (request, reply) => {
    const { a, name } = await open(request, request.params);
    const p = await pullDiffPage(host, a, numberOf(request.params.number));
    return sendHtml(reply, 200, view.pullCommitsPage(frame, name, p.view, p.comparison));
  });

  app.get<{ Params: PullParams & { sha: string } }>('/:owner/:repo/pull/:number/commits/:sha', async (request, reply) => {
    const { a, name } = await open(request, request.params);
    const p = await pullCommitPage(host, a, numberOf(request.params.number), request.params.sha);
    return sendHtml(reply, 200, view.pullCommitPage(frame, name, p.view, p.commit, p.comparison));
  });

  app.get<{ Params: RepoParams & { sha: string } }>('/:owner/:repo/commit/:sha', async (request, reply) => {
    const { a, name } = await open(request, request.params);
    const p = await commitPage(host, a, request.params.sha);
    return sendHtml(reply, 200, view.commitPage(frame, name, a.repo, p.commit, p.comparison));
  });

  app.get<{ Params: RepoParams & { '*': string } }>('/:owner/:repo/compare/*', async (request, reply) => {
    const { a, name } = await open(request, request.params);
    const p = await comparePage(host, a, request.params['*']);
    return sendHtml(reply, 200, view.comparePage(frame, name, a.repo, p.base, p.head, p.comparison));
  });
}
