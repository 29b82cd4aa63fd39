import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../domain/errors.js';
import { lostRace } from '../domain/races.js';
import { hasUnreadBody, lingerOnRefusedBody } from '../kit/refused-body.js';
import { boardChallenge } from './board/routes.js';

/**
 * Every refusal in the vendor's ErrorCollection shape (`{"errorMessages": […], "errors": {…}}`),
 * whoever decides it: Node's HTTP parser (`clientErrorHandler`), Fastify's router
 * (`frameworkErrors`), Node's Expect check, and every error a hook or route throws
 * (`installErrorHandling`). The not-found and 405 answers are in ./not-found.ts.
 */

/**
 * A request Node's HTTP parser refuses (broken framing, a bad header, headers too large) is
 * answered before Fastify routes it; say so in the vendor's error shape too.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'The request headers (or the URL) are larger than the server accepts.']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'The request was not received in time.']
        : [400, 'Bad Request', 'The request is not valid HTTP/1.1 (malformed request line, header or body framing).'];
  const body = JSON.stringify({ errorMessages: [message], errors: {} });
  // Not when an answer is already on its way on this connection (Node's own rule): a second
  // response after it would corrupt what the client reads.
  const answering = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
  if (socket.writable && !answering)
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json;charset=UTF-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  socket.destroy(error);
}

/**
 * A malformed URL or an over-long path parameter is refused before routing; answer it in the
 * vendor's error shape too (Fastify's own body is not an ErrorCollection).
 */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const status = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : 400;
  const message = status === 414 ? 'A path parameter is longer than 200 characters.' : 'The request URL is not valid (bad percent-encoding).';
  void reply.code(status).send({ errorMessages: [message], errors: {} });
}

/** The error answers of the app: Node's Expect check, and every error a hook or route throws. */
export function installErrorHandling(app: FastifyInstance, bodyLimit: number): void {
  // An Expect header other than 100-continue: Node answers 417 itself, with an empty body,
  // unless told how; answer it in the vendor's error shape like every other refusal.
  app.server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    const body = JSON.stringify({ errorMessages: ['Expectation Failed: the only Expect value this server supports is 100-continue.'], errors: {} });
    // The body it may still send is read on (up to a bound) so that it reads this answer (net/refused-body.ts).
    if (hasUnreadBody(request)) lingerOnRefusedBody(request, response);
    response.writeHead(417, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), connection: 'close' }).end(body);
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
}

function describeFrameworkError(error: FastifyError, status: number, bodyLimit: number): string {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return `The request body is larger than the limit of ${bodyLimit} bytes (jst-tracker serve --body-limit).`;
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return `Unsupported Content-Type: send JSON bodies with "Content-Type: application/json".`;
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return 'The Content-Length header does not match the body.';
    default:
      return status === 415 ? 'Unsupported Content-Type.' : error.message;
  }
}
