import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { AddressForm, Tracker } from '../domain/tracker.js';
import type { Site, User } from '../domain/model.js';
import { makeCaller } from './context.js';
import { hasDuplicateHost } from './host.js';
import { ISSUE_READ, type IssueReadCache } from './issue-read-cache.js';
import { readIssueView, type IssueViewParams } from './issue-view.js';
import { IssueParams, IssueViewQuery } from './schemas/issues.js';
import { guardFor, parseQuery } from './validation.js';

/** Query strings kept with what they parse to (QUERIES_KEPT at most): clients send the same few again and again. */
const QUERIES_KEPT = 64;

/** The reply headers Fastify sends with a JSON body (Node adds Date, Connection and Keep-Alive). */
const CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * `GET /issue/{key}` answered before Fastify routes it, when it is the executor's and reviewer's
 * everyday read: a known site, a remembered sign-in, a query the route's schema accepts, and an
 * issue the caller may see. That is nearly every read, and Fastify's routing, hooks and reply
 * machinery cost more CPU than the read itself (bench/ab-read.mjs; the figures are in
 * bench/RESULTS.md). The reply is the route's own: the same schema validators (validation.ts),
 * the same call for the view (issue-view.ts: `readIssueView`), the same headers. That call answers
 * at once where the store reads at once (SQLite with no transaction open on the connection): the
 * reply is then sent within the request's own turn of the event loop, as a bare node:http server
 * does; otherwise (PostgreSQL, a transaction in progress) it is a promise, and the reply follows it.
 *
 * Everything else goes on to Fastify untouched, which answers it as it always did: another route
 * or method, a body on the GET, a site or credential not known yet (the full sign-in check), a
 * query the schema refuses (its 400), `%00` in the URL, a duplicate Host, a trusted proxy (Fastify
 * works out the links' protocol and host from X-Forwarded-*), and any error while reading, such
 * as the 404 of an issue that is missing or hidden: then the read is done again by the route, so
 * every refusal has exactly the route's shape. Nothing is written before the read succeeded.
 *
 * The read cache (issue-read-cache.ts) is asked first and offered what is rendered; over PostgreSQL
 * a kept reply is served at once while the change feed's lease holds (`fresh`), else waits for the
 * feed to be caught up (`synced`), and is rendered instead when it cannot be.
 * Off when requests are logged (every read must show in the log), like the cache.
 */
export class IssueReadFront {
  private readonly validQuery = guardFor(IssueViewQuery, 'querystring');
  private readonly validParams = guardFor(IssueParams, 'params');
  /** Query strings seen lately: the parameters the route's schema made of them, or null when it refused them. */
  private readonly queries = new Map<string, Readonly<IssueViewParams> | null>();
  /** Reads rendered and answered here (not from the cache), for tests and the benchmark's report. */
  answered = 0;

  constructor(
    private readonly tracker: Tracker,
    private readonly cache: IssueReadCache | null,
    private readonly trustProxy: boolean,
    private readonly draining: () => boolean,
  ) {}

  /** Answers the request, or hands it to `next` (Fastify's request listeners) as it came. */
  serve(req: IncomingMessage, res: ServerResponse, next: RequestListener): void {
    if (req.method !== 'GET' || this.draining()) return next(req, res);
    const url = req.url ?? '';
    const match = ISSUE_READ.exec(url);
    if (!match) return next(req, res);
    const { headers } = req;
    // A body on a GET is parsed (and may be refused) by Fastify: not ours to answer.
    if (headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined) return next(req, res);
    // Refused by the app's onRequest hook (a NUL, a duplicate Host: http/host.ts), never answered from here.
    if (url.includes('%00') || hasDuplicateHost(req.rawHeaders)) return next(req, res);
    const cloudId = match[1];
    const form: AddressForm = cloudId === undefined ? 'site' : 'gateway';
    const { tracker, cache } = this;
    const site = cloudId === undefined ? tracker.knownSiteForHost(headers.host) : tracker.knownSiteForCloudId(cloudId);
    if (!site) return next(req, res);
    const user = tracker.rememberedSignIn(site, headers.authorization, form, 'read:jira-work');
    if (!user) return next(req, res);
    const issue = match[3]!;
    const query = match[4];
    if (!cache) return this.render(req, res, next, site, user, form, cloudId, issue, query, undefined);
    const key = cache.keyOf(req, cloudId, match[2]!, user.id, issue, query);
    if (!cache.mustSync) {
      const kept = cache.lookup(key);
      return kept ? this.send(res, kept) : this.render(req, res, next, site, user, form, cloudId, issue, query, key);
    }
    if (!cache.has(key)) return this.render(req, res, next, site, user, form, cloudId, issue, query, key);
    // PostgreSQL: a kept reply is trusted only once every commit answered before this request
    // arrived is known here: at once while the change feed's lease holds (ChangeFeed.fresh),
    // else after a round trip (ChangeFeed.synced); otherwise the issue is read afresh.
    if (cache.fresh()) {
      const kept = cache.lookup(key);
      return kept ? this.send(res, kept) : this.render(req, res, next, site, user, form, cloudId, issue, query, key);
    }
    cache.synced().then(
      (synced) => {
        const kept = synced ? cache.lookup(key) : undefined;
        if (kept) this.send(res, kept);
        else this.render(req, res, next, site, user, form, cloudId, issue, query, key);
      },
      () => this.render(req, res, next, site, user, form, cloudId, issue, query, key),
    );
  }

  /** Renders the view (from the store) and answers it, kept by the cache when it was admitted; hands refusals to `next`. */
  private render(
    req: IncomingMessage,
    res: ServerResponse,
    next: RequestListener,
    site: Site,
    user: User,
    form: AddressForm,
    cloudId: string | undefined,
    issue: string,
    query: string | undefined,
    key: string | undefined,
  ): void {
    const { tracker, cache } = this;
    const { headers } = req;
    // Behind a trusted proxy the links' protocol and host come from X-Forwarded-*, as Fastify reads them: its route answers.
    if (this.trustProxy) return next(req, res);
    const params = this.paramsOf(query ?? '');
    if (!params || !this.validParams({ issueIdOrKey: issue })) return next(req, res);
    // The data version the reply is rendered from, when the cache will keep it (a key read lately).
    const version = cache && key !== undefined ? cache.admit(key) : undefined;
    const caller = makeCaller(site, user, form, (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http', headers.host ?? '');
    let body: string | Promise<string>;
    try {
      body = readIssueView(tracker, caller, issue, params);
    } catch {
      // A refusal (the 404 of a missing or hidden issue) is the route's to answer, in its shape.
      return next(req, res);
    }
    // Read at once (SQLite with no transaction open): answered within this turn, as a bare server would.
    if (typeof body === 'string') return this.answer(res, body, key, version);
    body.then(
      (text) => this.answer(res, text, key, version),
      () => next(req, res),
    );
  }

  /** Sends a view rendered here, kept by the cache first when it was admitted (`version`). */
  private answer(res: ServerResponse, body: string, key: string | undefined, version: number | undefined): void {
    try {
      if (this.cache && key !== undefined && version !== undefined) this.cache.keep(key, body, version);
      this.answered++;
      this.send(res, body);
    } catch (e) {
      // Nothing here throws on a live response; if it ever does, the connection ends rather than hangs.
      res.destroy(e as Error);
    }
  }

  /**
   * The query string as the route's schema reads it (parseQuery, then its validator, which may
   * coerce values in place); null when the schema refuses it. Kept per query string, frozen, since
   * the same text always gives the same parameters.
   */
  private paramsOf(query: string): Readonly<IssueViewParams> | null {
    let params = this.queries.get(query);
    if (params === undefined) {
      const parsed = parseQuery(query);
      params = this.validQuery(parsed) ? deepFreeze(parsed) : null;
      if (this.queries.size >= QUERIES_KEPT) this.queries.clear();
      this.queries.set(query, params);
    }
    return params;
  }

  private send(res: ServerResponse, body: Buffer | string): void {
    const length = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
    // Draining (SIGTERM): as the app's onSend hook does, so a keep-alive connection does not hold the process open.
    res.writeHead(
      200,
      this.draining()
        ? ['content-type', CONTENT_TYPE, 'content-length', String(length), 'connection', 'close']
        : ['content-type', CONTENT_TYPE, 'content-length', String(length)],
    );
    res.end(body);
  }
}

/** Freezes a parsed query and the lists in it, so that no reader can change what the next request gets. */
function deepFreeze<T extends object>(value: T): Readonly<T> {
  for (const v of Object.values(value)) if (typeof v === 'object' && v !== null) Object.freeze(v);
  return Object.freeze(value);
}
