import type { FastifyError, FastifyInstance } from 'fastify';
import { userOfToken } from '../domain/access.js';
import { CodehostError } from '../domain/errors.js';
import type { ChUser } from '../domain/model.js';
import { gitOf, type CodeHost } from '../domain/host.js';
import { runAsGitCaller, type GitSlots } from '../git/slots.js';
import { tokenOf, urlsOf } from '../http/rest/common.js';
import { runGraphql } from './execute.js';
import { GRAPHQL_BODY_MAX } from './limits.js';
import { requestId } from '../http/request-id.js';

/** GitHub's documentation page of its GraphQL interface, as its errors name it. */
export const GRAPHQL_DOCS = 'https://docs.github.com/graphql';

class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The code host's GraphQL interface (ARCHITECTURE §23), mounted at `/api/graphql` (GitHub
 * Enterprise Server's layout): POST only, the REST interface's credentials (`Authorization:
 * bearer|token`, a bad one is 401 Bad credentials), a JSON body of at most GRAPHQL_BODY_MAX bytes.
 * Every git process a request starts takes one of the caller's git slots, as REST's do.
 */
export function graphqlRoutes(host: CodeHost, slots: GitSlots) {
  return async (app: FastifyInstance) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: GRAPHQL_BODY_MAX }, (_req, body, done) => {
      try {
        done(null, JSON.parse(body as string));
      } catch {
        done(new Refusal(400, 'Problems parsing JSON'), undefined);
      }
    });
    app.addHook('onRequest', async (request, reply) => {
      void reply.headers({ 'x-github-media-type': 'github.v4; format=json', 'x-github-request-id': requestId() });
      gitOf(host);
      const token = tokenOf(request.headers.authorization);
      const user = token === null ? null : await userOfToken(host, token);
      if (!user) throw new Refusal(401, 'Bad credentials');
      (request as unknown as { gqlUser: ChUser }).gqlUser = user;
    });
    app.post('/', async (request) => {
      const viewer = (request as unknown as { gqlUser: ChUser }).gqlUser;
      const ctx = { host, viewer, urls: urlsOf(request) };
      return runAsGitCaller(slots, viewer.login, () => runGraphql(request.body, ctx, (e) => request.log.error({ err: e }, 'GraphQL resolver failed')));
    });
    app.setNotFoundHandler((_request, reply) => {
      void reply.code(404).send({ message: 'Not Found', documentation_url: GRAPHQL_DOCS });
    });
    app.setErrorHandler((error: FastifyError | Refusal, request, reply) => {
      if (error instanceof Refusal) {
        if (error.status === 401) void reply.header('www-authenticate', 'Bearer realm="jst-tracker code host"');
        return reply.code(error.status).send({ message: error.message, documentation_url: GRAPHQL_DOCS });
      }
      const status = error.statusCode ?? 500;
      if (error instanceof CodehostError) return reply.code(503).send({ message: error.message, documentation_url: GRAPHQL_DOCS });
      if (status >= 500) {
        request.log.error({ err: error }, 'GraphQL request failed');
        return reply.code(500).send({ message: 'Server Error: the request was not applied; retry it.', documentation_url: GRAPHQL_DOCS });
      }
      const message = error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? `Request body too large: the limit is ${GRAPHQL_BODY_MAX} bytes.` : 'Problems parsing JSON';
      return reply.code(status).send({ message, documentation_url: GRAPHQL_DOCS });
    });
  };
}
