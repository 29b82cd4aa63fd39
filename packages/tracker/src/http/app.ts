import type { Server } from 'node:http';
import Fastify, { type FastifyHttpOptions, type FastifyInstance, type FastifyRequest } from 'fastify';
import { ApiError } from '../domain/errors.js';
import { DEFAULT_BODY_LIMIT } from '../domain/limits.js';
import type { AddressForm, Tracker } from '../domain/tracker.js';
import { hasUnreadBody, lingerOnRefusedBody } from '../kit/refused-body.js';
import type { PullsForIssue } from './board/issue-view.js';
import { registerBoard } from './board/routes.js';
import { authenticateHook, siteOf } from './context.js';
import { clientErrorHandler, frameworkErrors, installErrorHandling } from './errors.js';
import { hasDuplicateHost } from './host.js';
import { installJsonBody } from './json-body.js';
import { installNotFound } from './not-found.js';
import { installReadFront } from './read-front.js';
import { catalogRoutes } from './routes/catalog.js';
import { issueRoutes } from './routes/issues.js';
import { projectRoutes } from './routes/projects.js';
import { searchRoutes } from './routes/search.js';
import { userRoutes } from './routes/users.js';
import { SERVED_VERSIONS, unservedVersionRoutes } from './routes/versions.js';
import { TenantInfo } from './schemas/catalog.js';
import { replies } from './schemas/common.js';
import { compileValidator, parseQuery, schemaViolation } from './validation.js';

export { MAX_JSON_DEPTH } from './json-body.js';
export type { RouteEntry } from './not-found.js';

export interface AppOptions {
  /** pino log level; 'silent' in tests. Request logs never include headers (no credential). */
  logLevel?: string;
  /** Trust X-Forwarded-* from a load balancer in front (docs/deploy.md). */
  trustProxy?: boolean;
  /** Where log lines go (default stderr, ARCHITECTURE §3: stdout carries only the ready line); tests pass a collector. */
  logStream?: { write(line: string): void };
  /** Bytes of `GET /issue` replies kept for repeated reads (SQLite only; 0 turns the cache off). */
  readCacheBytes?: number;
  /** Largest request body in bytes; a larger one is 413 before it is read whole (default 1 MiB). */
  bodyLimit?: number;
  /**
   * The pull requests of an issue key, for the board's development panel (ARCHITECTURE §14): given
   * by the composition when the code host is on (src/server.ts); without it the panel is absent.
   */
  pullsForIssue?: PullsForIssue;
  /** Serve HTTPS with this certificate and key (PEM), every route unchanged (`serve --tls`, ARCHITECTURE §23). */
  https?: { cert: string; key: string };
}

/**
 * Builds the HTTP server: the three address forms over one set of routes (ARCHITECTURE §4). It
 * composes, nothing more: the error answers (./errors.ts), not-found and 405 (./not-found.ts),
 * the JSON body parser (./json-body.ts), the read front (./read-front.ts), each resource's routes
 * (./routes/, their schemas in ./schemas/) and the board (./board/).
 */
export function buildApp(tracker: Tracker, options: AppOptions = {}): FastifyInstance {
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const trustProxy = options.trustProxy ?? false;
  // With `https` Fastify makes a node:https server (its type parameter differs, nothing a route sees does).
  const app = Fastify({
    ...(options.https ? { https: { cert: options.https.cert, key: options.https.key } } : {}),
    logger: { level: options.logLevel ?? 'warn', serializers: { req: logRequest }, stream: options.logStream ?? process.stderr },
    bodyLimit,
    trustProxy,
    return503OnClosing: true,
    routerOptions: { caseSensitive: true, ignoreTrailingSlash: true, maxParamLength: 200, querystringParser: parseQuery },
    // Every route declares its inputs (http/schemas/); a violation is the vendor's 400 (http/validation.ts).
    schemaErrorFormatter: schemaViolation,
    clientErrorHandler,
    frameworkErrors,
  } as FastifyHttpOptions<Server>) as FastifyInstance;
  installErrorHandling(app, bodyLimit);
  app.setValidatorCompiler(compileValidator);
  // Replies are the renderers' objects as JSON.stringify writes them: measured against serialisers
  // compiled from the response schemas (fast-json-stringify), it is faster on the issue view, the
  // hot route, and the compiled ones cost start-up time on every route (commit 51276a8 has the figures).
  app.setSerializerCompiler(() => serializeJson);

  // Draining (SIGTERM): a request that was in flight when close() began is answered with
  // `Connection: close`, so its keep-alive connection does not hold the process open until the
  // keep-alive timeout (Fastify does this only for requests that arrive after close()).
  let draining = false;
  app.addHook('preClose', async () => {
    draining = true;
  });
  // Hooks on every request are written in Fastify's callback style: an async hook costs a promise
  // and a microtask per request (`git show fcb3418:bench/RESULTS.md`, "Anatomy of a read").
  app.addHook('onSend', (request, reply, payload, done) => {
    if (draining) void reply.header('connection', 'close');
    // An answer before the body was read to its end (a 413, or a refusal before parsing): the
    // connection closes after it, once the rest of the body is read (up to a bound), so the
    // client reads the answer rather than a reset (net/refused-body.ts). The code host's REST
    // interface, in this app's scope, answers so too.
    if (!request.raw.complete && hasUnreadBody(request.raw)) {
      void reply.header('connection', 'close');
      lingerOnRefusedBody(request.raw, reply.raw);
    }
    done(null, payload);
  });
  const reads = installReadFront(app, tracker, { readCacheBytes: options.readCacheBytes, trustProxy, draining: () => draining });
  installJsonBody(app);

  // A NUL (%00) in a path or query parameter can match nothing, and PostgreSQL cannot hold one.
  app.addHook('onRequest', (request, _reply, done) => {
    done(
      request.url.includes('%00')
        ? new ApiError(400, ['The request URL contains a NUL character (%00).'])
        : hasDuplicateHost(request.raw.rawHeaders)
          ? new ApiError(400, ['The request carries more than one Host header: send exactly one.'])
          : undefined,
    );
  });
  installNotFound(app);

  // spec §4 endpoint 1: no authentication.
  app.get('/_edge/tenant_info', { schema: { response: replies({ 200: TenantInfo }) } }, async (request) => {
    const site = await siteOf(tracker, request, 'site');
    return { cloudId: site.cloud_id };
  });

  const api = (form: AddressForm) => async (scope: FastifyInstance) => {
    scope.addHook('onRequest', authenticateHook(tracker, form));
    await scope.register(userRoutes(tracker));
    await scope.register(projectRoutes(tracker));
    await scope.register(issueRoutes(tracker, reads));
    await scope.register(searchRoutes(tracker));
    // Issue 15: the lookups clients make on start-up (GET /project, /status, /field, createmeta…).
    await scope.register(catalogRoutes(tracker));
  };
  // Issue 15: /rest/api/latest answers as /rest/api/3; /rest/api/2 is a 404 that says so (routes/versions.ts).
  for (const version of SERVED_VERSIONS) {
    void app.register(api('site'), { prefix: `/rest/api/${version}` });
    void app.register(api('gateway'), { prefix: `/ex/jira/:cloudId/rest/api/${version}` });
  }
  void app.register(unservedVersionRoutes);

  // The board (ARCHITECTURE §12): web pages on the site form, in their own scope (http/board/).
  registerBoard(app, tracker, options.pullsForIssue);
  return app;
}

const serializeJson = (data: unknown): string => JSON.stringify(data);

/**
 * The request as logged: Fastify's default fields, but the URL without its query string, which
 * may carry a secret a client put there by mistake (ARCHITECTURE §4: no token in a log).
 */
const logRequest = (req: FastifyRequest) => ({
  method: req.method,
  url: req.url.split('?')[0],
  host: req.host,
  remoteAddress: req.ip,
  remotePort: req.socket?.remotePort,
});
