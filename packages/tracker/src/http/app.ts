import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifySchema } from 'fastify';
import { ApiError } from '../domain/errors.js';
import { DEFAULT_BODY_LIMIT } from '../domain/limits.js';
import { lostRace } from '../domain/races.js';
import type { AddressForm, Tracker } from '../domain/tracker.js';
import type { PullsForIssue } from './board/issue-view.js';
import { boardChallenge, registerBoard } from './board/routes.js';
import { authenticateHook, siteOf } from './context.js';
import { hasDuplicateHost } from './host.js';
import { DEFAULT_READ_CACHE_BYTES, IssueReadCache } from './issue-read-cache.js';
import { IssueReadFront } from './issue-read-front.js';
import { catalogRoutes } from './routes/catalog.js';
import { SERVED_VERSIONS, unservedVersionRoutes } from './routes/versions.js';
import { issueRoutes } from './routes/issues.js';
import { projectRoutes } from './routes/projects.js';
import { searchRoutes } from './routes/search.js';
import { userRoutes } from './routes/users.js';
import { replies, TenantInfo } from './schemas.js';
import { compileValidator, parseQuery, schemaViolation } from './validation.js';

/** Deepest nesting of a JSON body; ADF at its own limit (100 levels) needs about 210. */
export const MAX_JSON_DEPTH = 512;

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
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The cache of issue reads (http/issue-read-cache.ts); null when off or on PostgreSQL. */
    issueReadCache: IssueReadCache | null;
    /** Issue reads answered before Fastify routes them (http/issue-read-front.ts); null when requests are logged. */
    issueReadFront: IssueReadFront | null;
    /** Every route with the schemas it declares (http/schemas.ts), for introspection and the tests. */
    routeTable: readonly RouteEntry[];
  }
}

/** A route as registered: method, full URL pattern, and its schemas. */
export interface RouteEntry { method: string; url: string; schema: FastifySchema | undefined }

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

/** Builds the HTTP server: the three address forms over one set of routes (ARCHITECTURE §4). */
export function buildApp(tracker: Tracker, options: AppOptions = {}): FastifyInstance {
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const app = Fastify({
    logger: {
      level: options.logLevel ?? 'warn',
      serializers: { req: logRequest },
      stream: options.logStream ?? process.stderr,
    },
    bodyLimit,
    trustProxy: options.trustProxy ?? false,
    return503OnClosing: true,
    routerOptions: { caseSensitive: true, ignoreTrailingSlash: true, maxParamLength: 200, querystringParser: parseQuery },
    // Every route declares its inputs (http/schemas.ts); a violation is the vendor's 400 (http/validation.ts).
    schemaErrorFormatter: schemaViolation,
    // A request Node's HTTP parser refuses (broken framing, a bad header, headers too large) is
    // answered before Fastify routes it; say so in the vendor's error shape too.
    clientErrorHandler: (error: NodeJS.ErrnoException, socket) => {
      if (error.code === 'ECONNRESET' || socket.destroyed) return;
      const [status, reason, message] = error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large', 'The request headers (or the URL) are larger than the server accepts.']
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'Request Timeout', 'The request was not received in time.']
          : [400, 'Bad Request', 'The request is not valid HTTP/1.1 (malformed request line, header or body framing).'];
      const body = JSON.stringify({ errorMessages: [message], errors: {} });
      // Not when an answer is already on its way on this connection (Node's own rule): a second
      // response after it would corrupt what the client reads.
      const answering = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
      if (socket.writable && !answering) socket.write(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json;charset=UTF-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
      socket.destroy(error);
    },
    // A malformed URL or an over-long path parameter is refused before routing; answer it in the
    // vendor's error shape too (Fastify's own body is not an ErrorCollection).
    frameworkErrors: (error, _request, reply) => {
      const status = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : 400;
      const message = status === 414 ? 'A path parameter is longer than 200 characters.' : 'The request URL is not valid (bad percent-encoding).';
      void (reply as FastifyReply).code(status).send({ errorMessages: [message], errors: {} });
    },
  });

  // An Expect header other than 100-continue: Node answers 417 itself, with an empty body,
  // unless told how; answer it in the vendor's error shape like every other refusal.
  app.server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    const body = JSON.stringify({ errorMessages: ['Expectation Failed: the only Expect value this server supports is 100-continue.'], errors: {} });
    response.writeHead(417, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), connection: 'close' }).end(body);
    request.resume();
  });

  app.setValidatorCompiler(compileValidator);
  // Replies are the renderers' objects as JSON.stringify writes them: measured against serialisers
  // compiled from the response schemas (fast-json-stringify), it is faster on the issue view, the
  // hot route, and the compiled ones cost start-up time on every route (commit 51276a8 has the figures).
  app.setSerializerCompiler(() => serializeJson);

  let draining = false;
  // Issue reads are answered before Fastify sees them (http/issue-read-front.ts), repeated ones
  // from the cache (http/issue-read-cache.ts): in front of Fastify's own request listener, so
  // every server setting it made stays as it is. Off when requests are logged (info and below):
  // an answer from the front would not be.
  const logsRequests = ['trace', 'debug', 'info'].includes(app.log.level);
  const cacheBytes = logsRequests ? 0 : options.readCacheBytes ?? DEFAULT_READ_CACHE_BYTES;
  const reads = tracker.store.dataVersion && cacheBytes > 0
    ? new IssueReadCache(tracker.store.dataVersion, cacheBytes, options.trustProxy ?? false)
    : null;
  const front = logsRequests ? null : new IssueReadFront(tracker, reads, options.trustProxy ?? false, () => draining);
  app.decorate('issueReadCache', reads);
  app.decorate('issueReadFront', front);
  if (front) {
    const routed = app.server.listeners('request') as RequestListener[];
    app.server.removeAllListeners('request');
    const route: RequestListener = (request, response) => { for (const listener of routed) listener(request, response); };
    app.server.on('request', (request: IncomingMessage, response: ServerResponse) => front.serve(request, response, route));
  }

  // Our own JSON parser: an empty body reads as "no body" (curl clients send the header on
  // DELETE too), and every failure becomes a 400 in the vendor's shape.
  // text/plain is not accepted either (415, as for any non-JSON body). The RegExp is tested against
  // the normalised header, e.g. `application/json; charset="utf-8"`: only UTF-8 is accepted.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(/^application\/([\w.+-]+\+)?json(; charset="utf-?8")?$/i, { parseAs: 'string' }, (_req, body, done) => {
    const text = body as string;
    // Blank (no copy of the body, unlike trim(): the anchored test stops at the first other character).
    if (BLANK.test(text)) return done(null, undefined);
    try {
      // JSON.parse nests without limit, but JSON.stringify (storing a document, sending a reply)
      // recurses and overflows the stack a few thousand levels down: refuse such bodies up front.
      if (text.length > 2 * MAX_JSON_DEPTH && nestsDeeperThan(text, MAX_JSON_DEPTH)) {
        throw new ApiError(400, [`The request body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels.`]);
      }
      // U+0000 cannot be stored in PostgreSQL text; it is refused on every store alike.
      done(null, text.includes('\\u0000') ? JSON.parse(text, refuseNul) : JSON.parse(text));
    } catch (e) {
      if (e instanceof ApiError) return done(e, undefined);
      // Never echo the parser's message: it quotes the body, which may hold a secret (ARCHITECTURE §4).
      const at = /at position (\d+)/.exec((e as Error).message)?.[1];
      done(new ApiError(400, [`The request body is not valid JSON${at === undefined ? '' : ` (error at position ${at})`}. Send a JSON object with Content-Type: application/json.`]), undefined);
    }
  });

  // Draining (SIGTERM): a request that was in flight when close() began is answered with
  // `Connection: close`, so its keep-alive connection does not hold the process open until the
  // keep-alive timeout (Fastify does this only for requests that arrive after close()).
  app.addHook('preClose', async () => { draining = true; });
  // Hooks on every request are written in Fastify's callback style: an async hook costs a promise
  // and a microtask per request (`git show fcb3418:bench/RESULTS.md`, "Anatomy of a read").
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (draining) void reply.header('connection', 'close');
    done(null, payload);
  });

  // A NUL (%00) in a path or query parameter can match nothing, and PostgreSQL cannot hold one.
  app.addHook('onRequest', (request, _reply, done) => {
    done(request.url.includes('%00') ? new ApiError(400, ['The request URL contains a NUL character (%00).'])
      : hasDuplicateHost(request.raw.rawHeaders) ? new ApiError(400, ['The request carries more than one Host header: send exactly one.'])
        : undefined);
  });

  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) {
      void reply.code(error.status).headers(error.headers);
      const challenge = error.status === 401 ? boardChallenge(request) : undefined;
      if (challenge && !reply.hasHeader('www-authenticate')) void reply.header('www-authenticate', challenge);
      void reply.send(error.body());
      return;
    }
    // A write that lost a race with another request (domain/races.ts): a conflict, not a fault.
    const refusal = lostRace(error);
    if (refusal) {
      void reply.code(refusal.status).send(refusal.body());
      return;
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      void reply.code(500).send({ errorMessages: ['Internal server error. The request was not applied; retry it.'], errors: {} });
      return;
    }
    void reply.code(status).send({ errorMessages: [describeFrameworkError(error, status, bodyLimit)], errors: {} });
  });

  // Which methods each route pattern answers, so a known path asked with another method gets 405
  // and an Allow header (as the hosted service does) rather than a 404 that says it does not exist.
  const patterns: { method: string; path: RegExp }[] = [];
  const routeTable: RouteEntry[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routeTable.push({ method, url: route.url, schema: route.schema });
    const path = new RegExp(`^${route.url.split('/').map((seg) => (seg.startsWith(':') ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/')}/?$`);
    for (const method of [route.method].flat()) patterns.push({ method, path });
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const allowed = [...new Set(patterns.filter((p) => p.path.test(path)).map((p) => p.method))].sort();
    if (allowed.length > 0 && !allowed.includes(request.method)) {
      void reply.code(405).header('allow', allowed.join(', ')).send({
        errorMessages: [`Method ${request.method.slice(0, 20)} is not allowed on ${path.slice(0, 200)}. Allowed: ${allowed.join(', ')}.`],
        errors: {},
      });
      return;
    }
    void reply.code(404).send({
      errorMessages: [`No such resource: ${request.method} ${request.url.split('?')[0]!.slice(0, 200)}. The REST interface lives under /rest/api/3 (or /ex/jira/<cloudId>/rest/api/3).`],
      errors: {},
    });
  });

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
const BLANK = /^\s*$/;

/** Whether JSON text nests arrays/objects deeper than `limit` (brackets inside strings do not count). */
function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) { // a string: skip to its closing quote
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

function refuseNul(key: string, value: unknown): unknown {
  if ((typeof value === 'string' && value.includes('\0')) || key.includes('\0')) {
    throw new ApiError(400, ['The request body contains a NUL character (\\u0000), which no field accepts.']);
  }
  return value;
}

function describeFrameworkError(error: FastifyError, status: number, bodyLimit: number): string {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE': return `The request body is larger than the limit of ${bodyLimit} bytes (jst-tracker serve --body-limit).`;
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE': return `Unsupported Content-Type: send JSON bodies with "Content-Type: application/json".`;
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH': return 'The Content-Length header does not match the body.';
    default: return status === 415 ? 'Unsupported Content-Type.' : error.message;
  }
}
