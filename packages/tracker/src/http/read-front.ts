import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Tracker } from '../domain/tracker.js';
import { DEFAULT_READ_CACHE_BYTES, IssueReadCache } from './issue-read-cache.js';
import { IssueReadFront } from './issue-read-front.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The cache of issue reads (http/issue-read-cache.ts); null when off. */
    issueReadCache: IssueReadCache | null;
    /** Issue reads answered before Fastify routes them (http/issue-read-front.ts); null when requests are logged. */
    issueReadFront: IssueReadFront | null;
  }
}

export interface ReadFrontOptions {
  /** Bytes of `GET /issue` replies kept for repeated reads (0 turns the cache off). */
  readCacheBytes?: number | undefined;
  trustProxy: boolean;
  /** Whether the server is closing (its answers then say `Connection: close`). */
  draining: () => boolean;
}

/**
 * Issue reads are answered before Fastify sees them (http/issue-read-front.ts), repeated ones
 * from the cache (http/issue-read-cache.ts): in front of Fastify's own request listener, so every
 * server setting it made stays as it is. Off when requests are logged (info and below): an answer
 * from the front would not be. Gives the cache (null when off), which the issue routes fill too.
 */
export function installReadFront(app: FastifyInstance, tracker: Tracker, options: ReadFrontOptions): IssueReadCache | null {
  const logsRequests = ['trace', 'debug', 'info'].includes(app.log.level);
  const cacheBytes = logsRequests ? 0 : (options.readCacheBytes ?? DEFAULT_READ_CACHE_BYTES);
  const reads = cacheBytes > 0 ? readCache(tracker, cacheBytes, options.trustProxy) : null;
  const front = logsRequests ? null : new IssueReadFront(tracker, reads, options.trustProxy, options.draining);
  app.decorate('issueReadCache', reads);
  app.decorate('issueReadFront', front);
  if (front) {
    const routed = app.server.listeners('request') as RequestListener[];
    app.server.removeAllListeners('request');
    const route: RequestListener = (request, response) => {
      for (const listener of routed) listener(request, response);
    };
    app.server.on('request', (request: IncomingMessage, response: ServerResponse) => front.serve(request, response, route));
  }
  return reads;
}

/**
 * The cache over the store's data version: SQLite's PRAGMA data_version, or PostgreSQL's change
 * feed (LISTEN/NOTIFY, store/postgres/changes.ts), whose connection it opens.
 */
function readCache(tracker: Tracker, bytes: number, trustProxy: boolean): IssueReadCache | null {
  if (tracker.dataVersion) return new IssueReadCache(tracker.dataVersion, bytes, trustProxy);
  const feed = tracker.changes;
  if (!feed) return null;
  return new IssueReadCache(
    () => feed.version(),
    bytes,
    trustProxy,
    () => feed.synced(),
    () => feed.fresh(),
  );
}
