import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * How much of a refused request body the server still reads (and throws away) after refusing it,
 * and for how long (docs/limits.md "Refused request bodies").
 */
export interface LingerBounds {
  maxBytes: number;
  maxMs: number;
  /**
   * Past `maxBytes`, how long the server stops reading but keeps the connection before it closes it.
   * Closing with the client's bytes still arriving sends a reset, and a client that is busy writing
   * may meet it (EPIPE on its next write) before it has read the answer already in its kernel's
   * buffer, which its stack then throws away: a fresh-clone CI run saw it about once in 1,000.
   * Not read, the client's writes stop, and it reads the answer and the FIN while it waits.
   */
  cutGraceMs: number;
}

/** 16 MiB (16 times the default body limit) and 10 seconds; a second of grace before a cut. */
export const REFUSED_BODY_LINGER: LingerBounds = { maxBytes: 16 * 1024 * 1024, maxMs: 10_000, cutGraceMs: 1_000 };

const lingering = new WeakSet<IncomingMessage>();

/**
 * Lets the client of a refused request read its refusal (a 413, or any answer given before the
 * body was read): called before the answer is sent, it reads and throws away the rest of the body
 * up to `bounds`, and keeps the connection open until then.
 *
 * Without it, Node ends an answer that says `Connection: close` by closing the socket as soon as
 * the answer is written; a client still sending its body then gets a reset (EPIPE, ECONNRESET)
 * instead of the answer, whose bytes its kernel may throw away (RFC 9112 §9.6, "lingering
 * close"). So the socket is half-closed (the answer and a FIN go out) and read on until the body
 * ends, the client closes, or `bounds` run out; then it is closed. A body longer than the bound is
 * cut off without being read to its end: reading stops, and after `cutGraceMs` the connection is
 * closed. Answers that keep the connection open are read on too
 * (Node would otherwise read the rest without a bound).
 */
export function lingerOnRefusedBody(req: IncomingMessage, res: ServerResponse, bounds: LingerBounds = REFUSED_BODY_LINGER): void {
  if (req.complete || req.destroyed || lingering.has(req)) return;
  lingering.add(req);
  const socket = req.socket;
  let read = 0;
  let closing = false;
  let timer: NodeJS.Timeout | undefined;
  const cut = () => {
    clearTimeout(timer);
    socket.destroy();
  };
  /** Closes the connection `ms` from now (instead of when it was to close). */
  const cutIn = (ms: number) => {
    clearTimeout(timer);
    timer = setTimeout(cut, ms);
    timer.unref();
  };
  cutIn(bounds.maxMs);
  const onData = (chunk: Buffer) => {
    read += chunk.length;
    if (read > bounds.maxBytes) {
      // Read no more (the kernel's window closes and the client's writes stop), then close.
      req.removeListener('data', onData);
      req.pause();
      cutIn(bounds.cutGraceMs);
    }
  };
  req.on('data', onData);
  req.once('end', () => {
    clearTimeout(timer);
    // The whole body is in: a closing connection can now close without a reset.
    if (closing) socket.destroy();
  });
  req.once('close', () => clearTimeout(timer));
  res.once('finish', () => {
    // Node's `Connection: close` ending (socket.destroySoon) has just half-closed the socket and waits
    // to destroy it once the FIN is out: keep it open for reading instead.
    const before = socket.listenerCount('finish');
    // The very function Node registered (by identity, unbound): removeListener compares references.
    // eslint-disable-next-line @typescript-eslint/unbound-method
    socket.removeListener('finish', socket.destroy);
    closing = socket.listenerCount('finish') < before || !socket.writable;
    if (closing && req.complete) socket.destroy();
  });
  req.resume();
}

/** Whether a request has a body (a length other than 0, or chunks) that has not been read to its end. */
export function hasUnreadBody(req: IncomingMessage): boolean {
  if (req.complete) return false;
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}
