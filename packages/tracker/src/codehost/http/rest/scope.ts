import { randomBytes } from 'node:crypto';
import type { FastifyError, FastifyInstance } from 'fastify';
import { ApiError } from '../../../domain/errors.js';
import type { CodeHost } from '../../domain/codehost.js';
import { badCredentials, GhError, notFound } from '../../domain/errors.js';
import { REST_BODY_MAX } from '../../domain/limits.js';
import { REST_DOCS, tokenOf } from './kit.js';

/** U+0000 cannot be stored in PostgreSQL text: refused on every store alike, never a 500. */
const refuseNul = (_key: string, value: unknown): unknown => {
  if (typeof value === 'string' && value.includes('\0'))
    throw new GhError(400, 'Problems parsing JSON: the body contains a NUL character (\\u0000), which no field accepts.');
  return value;
};

const json = (text: string): unknown => {
  if (/^\s*$/.test(text)) return undefined;
  try {
    return text.includes('\\u0000') ? JSON.parse(text, refuseNul) : JSON.parse(text);
  } catch (e) {
    if (e instanceof GhError) throw e;
    // GitHub's words; the parser's own message would quote the body.
    throw new GhError(400, 'Problems parsing JSON');
  }
};

/**
 * The scope of the code host's REST interface, before its routes: its own body parsing, GitHub's
 * response headers, authentication, and errors and not-found in GitHub's shape, never the tracker's.
 */
export function installRestScope(app: FastifyInstance, host: CodeHost): void {
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

  app.addHook('onRequest', (request, reply, done) => {
    void reply.headers({
      'x-github-media-type': 'github.v3; format=json',
      'x-github-api-version-selected': '2022-11-28',
      'x-github-request-id': randomBytes(8).toString('hex').toUpperCase(),
      'x-ratelimit-limit': '5000',
      'x-ratelimit-remaining': '4999',
      'x-ratelimit-used': '1',
      'x-ratelimit-resource': 'core',
      'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 3600),
    });
    done();
  });
  // Without a repository folder (--database-url without --repos) every operation says so.
  if (!host.git)
    app.addHook('onRequest', (_request, _reply, done) => {
      try {
        host.requireGit();
        done();
      } catch (e) {
        done(e as Error);
      }
    });
  // ARCHITECTURE §14: no or a bad credential is 401 Bad credentials, on every operation.
  app.addHook('preHandler', (request, _reply, done) => {
    const token = tokenOf(request.headers.authorization);
    if (token === null) return done(badCredentials());
    host.userOfToken(token).then(
      (user) => {
        if (!user) return done(badCredentials());
        request.codehostUser = user;
        done();
      },
      (e: unknown) => done(e as Error),
    );
  });

  app.setErrorHandler((error: FastifyError | GhError | ApiError, request, reply) => {
    const docs = request.routeOptions.config.docs ?? REST_DOCS;
    if (error instanceof GhError) {
      if (error.status === 401) void reply.header('www-authenticate', 'Bearer realm="jst-tracker code host"');
      return reply.code(error.status).send(error.body(docs));
    }
    if (error instanceof ApiError) return reply.code(error.status).send(new GhError(error.status, error.message).body(docs));
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'code host request failed');
      return reply.code(500).send(new GhError(500, 'Server Error: the request was not applied; retry it.').body(docs));
    }
    const message =
      error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
        ? `Request body too large: the limit is ${REST_BODY_MAX} bytes.`
        : error.code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH'
          ? 'The Content-Length header does not match the body.'
          : 'Problems parsing JSON';
    return reply.code(status).send(new GhError(status, message).body(docs));
  });
  app.setNotFoundHandler((_request, reply) => {
    void reply.code(404).send(notFound().body(REST_DOCS));
  });
}
