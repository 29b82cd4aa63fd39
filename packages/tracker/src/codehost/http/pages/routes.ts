import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { securePages, sendHtml } from '../../../kit/pages.js';
import { repoFor } from '../../domain/access.js';
import { CodehostError, noPush } from '../../domain/errors.js';
import type { CodeHost } from '../../domain/host.js';
import { GitSlots, GitSlotsFull, runAsGitCaller } from '../../git/slots.js';
import { merge } from '../../domain/merges.js';
import type { ChUser } from '../../domain/model.js';
import { FormTokens } from '../../domain/review-page.js';
import type { RepoAccess } from '../../domain/views.js';
import { GhError, ghErrorOf } from '../errors.js';
import { CHALLENGE, formFields, formsOnly, numberOf, PageRefusal, requireSameOrigin, viewerOf, type PullParams } from './common.js';
import { diffPageRoutes } from './diff-routes.js';
import { pullFormRoutes, sendConversation } from './forms.js';
import { repoPageRoutes } from './repo-routes.js';
import { notePage, pullPath } from './review-view.js';

/**
 * The code host's pages (ARCHITECTURE §14 "Pages"): `GET /<owner>/<repo>/pull/<n>` (a pull
 * request's `html_url`) and its merge form's `POST …/merge`, in a scope of their own under the
 * board's headers (http/board/routes.ts securePages), signed in with the code host's own
 * credential. Mounted by the composition (src/server.ts) when the code host has its repositories.
 */
/** Every git process a page starts takes a slot of its viewer's (docs/limits.md "Git processes"), signed in by viewerOf. */
function pagesAsGitCallers(app: FastifyInstance, slots: GitSlots): void {
  app.addHook('onRoute', (route) => {
    const handler = route.handler;
    route.handler = function (this: FastifyInstance, request, reply) {
      return runAsGitCaller(slots, `anonymous ${request.ip}`, () => handler.call(this, request, reply));
    };
  });
}

/** A refusal that is neither GitHub's nor the page's: Fastify's (a body), the server's own before routing, or a fault (500). */
function requestError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  // The server's own refusals before routing (a NUL in the URL: the tracker's ApiError, a `status`) are 4xx, not faults.
  const own = (error as { status?: unknown }).status;
  const status = error.statusCode ?? (typeof own === 'number' && own >= 400 && own < 500 ? own : 500);
  if (status >= 500) {
    request.log.error({ err: error }, 'review page failed');
    return sendHtml(reply, 500, notePage('Something went wrong', ['The page could not be built; reload it in a moment.']));
  }
  const what =
    error.statusCode === undefined
      ? error.message
      : error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
        ? 'The form is larger than any form of this page.'
        : error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
          ? 'Send the form as the page sends it (application/x-www-form-urlencoded).'
          : 'The request could not be read.';
  return sendHtml(reply, status, notePage('Cannot do this', [what]));
}

export function reviewPageRoutes(host: CodeHost, slots: GitSlots = new GitSlots()) {
  return async (app: FastifyInstance) => {
    pagesAsGitCallers(app, slots);
    const forms = await FormTokens.open(host);
    securePages(app);
    formsOnly(app);

    // Every refusal is a page that shows nothing of the repository; a 401 asks the browser to prompt.
    app.setErrorHandler((thrown: FastifyError | GhError | GitSlotsFull | CodehostError | PageRefusal, request, reply) => {
      if (thrown instanceof GitSlotsFull) {
        void reply.header('retry-after', '5');
        return sendHtml(reply, thrown.reason === 'busy' ? 503 : 429, notePage('Too many git requests', [thrown.message]));
      }
      const error = thrown instanceof CodehostError ? ghErrorOf(thrown) : thrown;
      if (error instanceof PageRefusal) {
        return sendHtml(
          reply,
          error.status,
          notePage(
            error.title,
            error.lines,
            error.back ? { href: error.back, label: error.back.includes('/pull/') ? 'Back to the pull request' : 'Back to the list' } : undefined,
          ),
        );
      }
      if (error instanceof GhError) {
        if (error.status === 401) {
          void reply.header('www-authenticate', CHALLENGE);
          return sendHtml(
            reply,
            401,
            notePage('Sign in', ['Sign in with any user name and your code-host token as the password (the token you use with git and the REST interface).']),
          );
        }
        // Masked as the REST interface masks it: a repository the credential may not read does not exist.
        if (error.status === 404)
          return sendHtml(reply, 404, notePage('Not found', ['There is no such page here, or your credential may not read its repository.']));
        if (error.status === 503) return sendHtml(reply, 503, notePage('The code host is off', [error.message]));
        return sendHtml(reply, error.status, notePage('Cannot do this', [error.message]));
      }
      return requestError(error, request, reply);
    });

    const access = async (user: ChUser, params: PullParams): Promise<RepoAccess> => repoFor(host, user, params.owner, params.repo, 'read');

    app.get<{ Params: PullParams }>('/:owner/:repo/pull/:number', async (request, reply) => {
      const viewer = await viewerOf(host, request);
      const a = await access(viewer.user, request.params);
      return sendConversation(host, forms, reply, viewer, a, numberOf(request.params.number));
    });
    pullFormRoutes(app, host, forms);
    repoPageRoutes(app, host);
    // ARCHITECTURE §22: the files, commits, commit, range, compare pages and the .diff/.patch (./diff-routes.ts).
    diffPageRoutes(app, host, { viewer: async (request) => (await viewerOf(host, request)).user });

    // The merge button: the same merge as PUT /repos/{o}/{r}/pulls/{n}/merge, for the head the page showed.
    app.post<{ Params: PullParams }>('/:owner/:repo/pull/:number/merge', async (request, reply) => {
      requireSameOrigin(request, 'merge');
      const { user, tokenHash } = await viewerOf(host, request);
      const a = await access(user, request.params);
      const n = numberOf(request.params.number);
      const back = pullPath(a.repo, n);
      if (a.permission === 'read') throw noPush();
      const form = formFields(request.body);
      const sha = form.sha ?? '';
      if (!/^[0-9a-f]{40}$/.test(sha) || !forms.check(form.token ?? '', tokenHash, a.repo.id, n, sha)) {
        throw new PageRefusal(
          403,
          'Refused',
          ["The merge form is out of date or was not made for you: reload the pull request's page and press Merge again."],
          back,
        );
      }
      const method = form.merge_method ?? 'merge';
      if (method !== 'merge' && method !== 'squash' && method !== 'rebase') {
        throw new PageRefusal(400, 'Cannot do this', ['The merge method must be merge, squash or rebase.'], back);
      }
      try {
        await merge(host, a, n, { merge_method: method, sha });
      } catch (e) {
        if (e instanceof CodehostError && e.kind === 'changed') {
          throw new PageRefusal(
            409,
            'Changed since you looked',
            [`The pull request changed after its page was shown: ${e.message} Nothing was merged; read the page again, then merge.`],
            back,
          );
        }
        if (e instanceof CodehostError && e.kind === 'not_mergeable') throw new PageRefusal(405, 'Not merged', [`${e.message}.`], back);
        throw e;
      }
      return reply.code(303).header('location', back).send();
    });
  };
}
