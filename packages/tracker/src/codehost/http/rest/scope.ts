import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../../domain/errors.js';
import { repoFor, userOfToken } from '../../domain/access.js';
import { CodehostError } from '../../domain/errors.js';
import { gitOf, type CodeHost } from '../../domain/host.js';
import { GitSlotsFull, runAsGitCaller, type GitSlots } from '../../git/slots.js';
import { REST_BODY_MAX } from '../../domain/limits.js';
import { rateLimits } from '../../domain/rate-limit.js';
import { badCredentials, GhError, ghErrorOf, ghErrorOfSchema, problemsParsingJson, REST_DOCS } from '../errors.js';
import { SchemaRefusal } from '../validation.js';
import { tokenOf } from './common.js';
import { requestId } from '../request-id.js';

/** The scopes every token's answers state (ARCHITECTURE §23). */
export const OAUTH_SCOPES = 'repo, read:org';

/** U+0000 cannot be stored in PostgreSQL text: refused on every store alike, never a 500. */
const refuseNul = (_key: string, value: unknown): unknown => {
  if (typeof value === 'string' && value.includes('\0')) throw problemsParsingJson(': the body contains a NUL character (\\u0000), which no field accepts.');
  return value;
};

const json = (text: string): unknown => {
  if (/^\s*$/.test(text)) return undefined;
  try {
    return text.includes('\\u0000') ? JSON.parse(text, refuseNul) : JSON.parse(text);
  } catch (e) {
    if (e instanceof GhError) throw e;
    // GitHub's words; the parser's own message would quote the body.
    throw problemsParsingJson();
  }
};

/**
 * The scope of the code host's REST interface, before its routes: its own body parsing, GitHub's
 * response headers, authentication, the repository a route needs, and errors and not-found in
 * GitHub's shape, never the tracker's. The order of the refusals is GitHub's: off (503), then the
 * body's syntax (400), the credential (401), the repository (404, 403), then what the route's
 * schema refuses (404 for a path, 400/422 for the body and query), then the domain's refusals.
 */
export function installRestScope(app: FastifyInstance, host: CodeHost, slots: GitSlots): void {
  // Every git process a handler starts takes a slot of the caller's (docs/limits.md "Git processes").
  app.addHook('onRoute', (route) => {
    const handler = route.handler;
    route.handler = function (this: FastifyInstance, request, reply) {
      return runAsGitCaller(slots, request.codehostUser?.login ?? 'anonymous', () => handler.call(this, request, reply));
    };
  });
  app.removeAllContentTypeParsers();
  // GitHub reads every request body as JSON, whatever its Content-Type says.
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: REST_BODY_MAX }, (_req, body, done) => {
    try {
      done(null, json(body as string));
    } catch (e) {
      done(e as Error, undefined);
    }
  });
  app.decorateRequest('codehostUser', null);
  app.decorateRequest('codehostAccess', null);
  app.decorateRequest('codehostRate', null);

  app.addHook('onRequest', (request, reply, done) => {
    const rate = rateLimits(Date.now());
    request.codehostRate = rate;
    void reply.headers({
      'x-github-media-type': 'github.v3; format=json',
      'x-github-api-version-selected': '2022-11-28',
      'x-github-request-id': requestId(),
      'x-ratelimit-limit': String(rate.core.limit),
      'x-ratelimit-remaining': String(rate.core.remaining),
      'x-ratelimit-used': String(rate.core.used),
      'x-ratelimit-resource': 'core',
      'x-ratelimit-reset': String(rate.core.reset),
    });
    done();
  });
  // Without a repository folder (--database-url without --repos) every operation says so.
  if (!host.on)
    app.addHook('onRequest', (_request, _reply, done) => {
      try {
        gitOf(host);
        done();
      } catch (e) {
        done(e as Error);
      }
    });
  // ARCHITECTURE §14: no or a bad credential is 401 Bad credentials, on every operation; then the
  // repository of the path, masked as 404 when the caller may not read it.
  // The credential is checked before the body is read (onRequest, as the tracker's scopes do): a
  // caller without one is answered at once and holds no buffer for a body it trickles in.
  app.addHook('onRequest', async (request, reply) => {
    const token = tokenOf(request.headers.authorization);
    const user = token === null ? null : await userOfToken(host, token);
    if (!user) throw badCredentials();
    request.codehostUser = user;
    // A token here can do what its user may (§21 decides, not scopes); it says so in a classic
    // token's words, which gh checks at `gh auth login` (it needs `repo` and `read:org`).
    void reply.header('x-oauth-scopes', OAUTH_SCOPES);
  });
  app.addHook('preValidation', async (request) => {
    const user = request.codehostUser!;
    const need = request.routeOptions.config.need;
    if (need) {
      const { owner, repo } = request.params as { owner: string; repo: string };
      request.codehostAccess = await repoFor(host, user, owner, repo, need);
    }
    // An absent body (or JSON null) is an empty object, as GitHub reads it.
    if (request.body === undefined || request.body === null) request.body = {};
  });

  /** GitHub's error for what the domain, the schemas, the hooks or the tracker's own hooks refused; undefined for a fault of Fastify's. */
  const ghErrorFor = (
    error: FastifyError | GhError | GitSlotsFull | CodehostError | ApiError | SchemaRefusal,
    request: FastifyRequest,
  ): GhError | undefined => {
    if (error instanceof GhError) return error;
    if (error instanceof GitSlotsFull) return new GhError(error.reason === 'busy' ? 503 : 429, error.message);
    if (error instanceof CodehostError) return ghErrorOf(error);
    if (error instanceof ApiError) return new GhError(error.status, error.message);
    if (error instanceof SchemaRefusal) {
      const part = error.part === 'querystring' ? 'querystring' : error.part === 'params' ? 'params' : 'body';
      const schema = request.routeOptions.schema?.[part] as Parameters<typeof ghErrorOfSchema>[2];
      return ghErrorOfSchema(part, error.failures, schema);
    }
    return undefined;
  };

  app.setErrorHandler((error: FastifyError | GhError | GitSlotsFull | CodehostError | ApiError | SchemaRefusal, request, reply) => {
    const docs = request.routeOptions.config.docs ?? REST_DOCS;
    const gh = ghErrorFor(error, request);
    if (gh) {
      if (error instanceof GitSlotsFull) void reply.header('retry-after', '5');
      if (gh.status === 401) void reply.header('www-authenticate', 'Bearer realm="jst-tracker code host"');
      return reply.code(gh.status).send(gh.body(docs));
    }
    const fault = error as FastifyError;
    const status = fault.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'code host request failed');
      return reply.code(500).send(new GhError(500, 'Server Error: the request was not applied; retry it.').body(docs));
    }
    const message =
      fault.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
        ? `Request body too large: the limit is ${REST_BODY_MAX} bytes.`
        : fault.code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH'
          ? 'The Content-Length header does not match the body.'
          : 'Problems parsing JSON';
    return reply.code(status).send(new GhError(status, message).body(docs));
  });
  app.setNotFoundHandler((_request, reply) => {
    void reply.code(404).send(new GhError(404, 'Not Found').body(REST_DOCS));
  });
}
