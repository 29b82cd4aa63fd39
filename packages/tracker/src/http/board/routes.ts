import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { boardFrame, loadBoard, loadIssuePage, visibleBoardVersion } from '../../domain/board.js';
import { ApiError } from '../../domain/errors.js';
import type { Caller, Tracker } from '../../domain/tracker.js';
import { siteOf } from '../context.js';
import { Type } from '@sinclair/typebox';
import type { TypeBoxProvider } from '../validation.js';
import { boardPage } from './board-view.js';
import { issuePage, PANEL_SUBTASKS_MAX, type PullsForIssue } from './issue-view.js';
import { ASSETS, messagePage } from '../../kit/layout.js';
import { securePages, sendHtml } from '../../kit/pages.js';

/** The realm of the browser's sign-in prompt. */
const REALM = 'jst-tracker';
const CHALLENGE = `Basic realm="${REALM}", charset="UTF-8"`;
/** Static files of the page, read once; found beside `src/` and `dist/` alike (package root). */
const ASSET_DIR = new URL('../../../board-assets/', import.meta.url);
const ASSET_TYPES: Record<string, string> = { 'board.js': 'text/javascript; charset=utf-8', 'board.css': 'text/css; charset=utf-8' };

/** The board's filter: a project key and a JQL query (both optional; an empty one is absent). */
const BoardQuery = Type.Object({ project: Type.Optional(Type.String({ maxLength: 200 })), jql: Type.Optional(Type.String({ maxLength: 100_000 })) });

/**
 * The viewer of a page: the same HTTP Basic sign-in as the REST interface on the site form (so a
 * scoped token gets 401 AUTHENTICATED_FAILED, spec §5.4), for the read scope. No session, no
 * cookie: the browser resends the credential it was given at the prompt.
 */
async function viewerOf(tracker: Tracker, request: FastifyRequest): Promise<Caller> {
  const site = await siteOf(tracker, request, 'site');
  const user = await tracker.authenticate(site, request.headers.authorization, 'site', 'read:jira-work');
  return { site, user, baseUrl: `${request.protocol}://${request.host}` };
}

/** The header the board's script sends with its REST calls (board-assets/board.js). */
export const BOARD_HEADER = 'x-jst-board';

/**
 * The REST interface answers 401 without a Basic challenge (as the vendor's does), so a browser
 * would not resend the credential it holds for the board's pages when the page's script calls the
 * REST interface (its cache is per path). For a call that says it comes from the board, the API's
 * error handler adds the board's challenge to a 401 (this header), and the browser answers it from
 * its cache, without a prompt. Undefined for every other request.
 */
export const boardChallenge = (request: FastifyRequest): string | undefined => (request.headers[BOARD_HEADER] === '1' ? CHALLENGE : undefined);

/** Registers the board: its routes in a scope of their own. */
export function registerBoard(app: FastifyInstance, tracker: Tracker, pullsForIssue?: PullsForIssue): void {
  void app.register(boardRoutes(tracker, pullsForIssue));
}

/**
 * jst-tracker's board (ARCHITECTURE §12), on the site form only: `GET /` (a project's board),
 * `GET /browse/<KEY>` (one issue), `GET /_board/version/<PROJECT>` (what the page polls) and the
 * page's static files. The gateway form stays an API host, as the vendor's gateway is.
 */
const boardRoutes = (tracker: Tracker, pullsForIssue?: PullsForIssue) => async (scope: FastifyInstance) => {
  const app = scope.withTypeProvider<TypeBoxProvider>();
  const assets = new Map(Object.entries(ASSET_TYPES).map(([name, type]) => [name, { type, body: readFileSync(new URL(name, ASSET_DIR)) }]));

  securePages(scope);

  // Every refusal is a page that says what to do and shows no data; a 401 asks the browser to prompt.
  app.setErrorHandler((error: Error, request, reply) => {
    if (error instanceof ApiError && error.status === 401) {
      void reply.header('www-authenticate', CHALLENGE);
      return sendHtml(
        reply,
        401,
        messagePage('Sign in', ['Sign in with your e-mail address as the user name and an API token as the password.', ...error.errorMessages]),
      );
    }
    if (error instanceof ApiError && error.status < 500) {
      return sendHtml(reply, error.status, messagePage(error.status === 404 ? 'Not found' : 'Cannot show this page', error.errorMessages));
    }
    request.log.error({ err: error }, 'board page failed');
    return sendHtml(reply, 500, messagePage('Something went wrong', ['The page could not be built; reload it in a moment.']));
  });

  app.get(`${ASSETS}/:file`, { schema: { params: Type.Object({ file: Type.String({ maxLength: 100 }) }) } }, async (request, reply) => {
    const asset = assets.get(request.params.file);
    if (!asset) throw new ApiError(404, ['No such file.']);
    return reply.header('cache-control', 'no-cache').type(asset.type).send(asset.body);
  });

  // Browsers ask for it on every page; there is none, and saying so is cheaper than a 404 body.
  app.get('/favicon.ico', async (_request, reply) => reply.code(204).header('cache-control', 'max-age=86400').send());

  app.get('/', { schema: { querystring: BoardQuery } }, async (request, reply) => {
    const caller = await viewerOf(tracker, request);
    const want = { projectKey: request.query.project, jql: request.query.jql ?? '' };
    try {
      // A FastifyReply is thenable: returning it unawaited is Fastify's way to say "sent"; the
      // catch below is for loadBoard's refusal, which the inner await already delivers here.
      // eslint-disable-next-line @typescript-eslint/return-await
      return sendHtml(reply, 200, boardPage(await loadBoard(tracker, caller, want), caller.user));
    } catch (e) {
      // A filter the JQL parser refuses: the search endpoint's own words and the filter to fix, and
      // no cards: an unfiltered board under the error would read as the filter's result.
      if (!(e instanceof ApiError) || e.status !== 400 || want.jql === '') throw e;
      const frame = await boardFrame(tracker, caller, { projectKey: want.projectKey });
      return sendHtml(reply, 400, boardPage({ ...frame, jql: want.jql }, caller.user, [...e.errorMessages, ...Object.values(e.errors)]));
    }
  });

  app.get('/browse/:key', { schema: { params: Type.Object({ key: Type.String({ maxLength: 200 }) }) } }, async (request, reply) => {
    const caller = await viewerOf(tracker, request);
    const view = await loadIssuePage(tracker, caller, request.params.key);
    // The development panel: asked only once the viewer may see the issue.
    let pulls = pullsForIssue ? await pullsForIssue(view.issue.key, caller.baseUrl) : undefined;
    // A parent's panel lists its sub-tasks' pull requests too (those the viewer sees), each named by its sub-task.
    if (pullsForIssue && pulls) {
      for (const sub of view.subtasks.slice(0, PANEL_SUBTASKS_MAX)) {
        pulls = [...pulls, ...(await pullsForIssue(sub.issue.key, caller.baseUrl)).map((p) => ({ ...p, subtask: sub.issue.key }))];
      }
    }
    return sendHtml(reply, 200, issuePage(view, caller.user, pulls));
  });

  // What an open page polls: 304 while nothing changed (spec §6 has no event stream to follow).
  app.get(
    '/_board/version/:project',
    {
      schema: {
        params: Type.Object({ project: Type.String({ maxLength: 200 }) }),
        response: { 200: Type.Object({ version: Type.String() }), 304: Type.Null() },
      },
    },
    async (request, reply) => {
      const caller = await viewerOf(tracker, request);
      const etag = `"${await visibleBoardVersion(tracker, caller, request.params.project)}"`;
      void reply.header('etag', etag);
      if (request.headers['if-none-match'] === etag) return reply.code(304).send(null);
      return reply.type('application/json; charset=utf-8').send({ version: etag.slice(1, -1) });
    },
  );
};
