import { performance } from 'node:perf_hooks';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SECURITY_HEADERS } from './layout.js';

const started = new WeakMap<FastifyRequest, number>();

/** An HTML page as the answer (the board's and the review pages'). */
export const sendHtml = (reply: FastifyReply, status: number, body: string) => reply.code(status).type('text/html; charset=utf-8').send(body);

/**
 * The headers of every web page, on every answer of the scope they are added to (the board's, and
 * the code host's review pages): SECURITY_HEADERS, no caching unless a route says otherwise, and
 * on a page that was found, the time the server took (a refusal does not say it: the time of a 404
 * would tell a hidden repository or issue from a missing one).
 */
export function securePages(scope: FastifyInstance): void {
  scope.addHook('onRequest', (request, _reply, done) => {
    started.set(request, performance.now());
    done();
  });
  scope.addHook('onSend', (request, reply, payload, done) => {
    void reply.headers(SECURITY_HEADERS);
    if (!reply.hasHeader('cache-control')) void reply.header('cache-control', 'no-store');
    const t0 = started.get(request);
    if (t0 !== undefined && reply.statusCode < 400) void reply.header('server-timing', `app;dur=${(performance.now() - t0).toFixed(2)}`);
    done(null, payload);
  });
}
