import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/**
 * Request bodies that stop arriving are cut (docs/limits.md "Idle request bodies"): a body that
 * sends no byte for `idleMs` is answered 408 (when no answer has begun) and its connection closed.
 * Without it a client trickling a byte now and then, or sending nothing after its headers, holds
 * a connection, its buffers and (for git) a process for as long as it likes.
 *
 * It watches the socket's byte count, so it never reads the body itself: whoever answers the
 * request reads it as before. A body the server has paused (git is slow to take a push) is not
 * idle on the client's part and is not counted.
 */
export const DEFAULT_BODY_IDLE_MS = 30_000;

interface Watched {
  req: IncomingMessage;
  res: ServerResponse;
  bytes: number;
  since: number;
}

export interface BodyIdleOptions {
  idleMs: number;
  /** The 408's body and type for this request (the vendor's shape of the route it asked for). */
  answer(req: IncomingMessage): { type: string; body: string };
}

/** Watches every request of `server` with a body; call after every other `request` listener is in place. */
export function watchBodyIdle(server: Server, o: BodyIdleOptions): void {
  const watched = new Set<Watched>();
  let sweeper: NodeJS.Timeout | null = null;
  const sweep = () => {
    const now = Date.now();
    for (const w of watched) {
      const { req, res } = w;
      if (req.complete || req.destroyed || req.socket.destroyed) {
        watched.delete(w);
        continue;
      }
      const bytes = req.socket.bytesRead;
      if (bytes !== w.bytes || req.isPaused()) {
        w.bytes = bytes;
        w.since = now;
        continue;
      }
      if (now - w.since < o.idleMs) continue;
      watched.delete(w);
      cut(req, res, o);
    }
    if (watched.size === 0 && sweeper !== null) {
      clearInterval(sweeper);
      sweeper = null;
    }
  };
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.complete || !hasBody(req)) return;
    const w: Watched = { req, res, bytes: req.socket.bytesRead, since: Date.now() };
    watched.add(w);
    req.once('end', () => watched.delete(w));
    req.once('close', () => watched.delete(w));
    if (sweeper === null) {
      sweeper = setInterval(sweep, Math.max(10, Math.min(1000, Math.floor(o.idleMs / 4))));
      sweeper.unref();
    }
  });
}

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function cut(req: IncomingMessage, res: ServerResponse, o: BodyIdleOptions): void {
  const socket = req.socket;
  if (!res.headersSent && socket.writable) {
    const { type, body } = o.answer(req);
    // Written on the socket itself: the route's own answer may be waiting on this very body.
    socket.end(`HTTP/1.1 408 Request Timeout\r\nContent-Type: ${type}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
    setTimeout(() => socket.destroy(), 1000).unref();
  } else {
    socket.destroy();
  }
}

/** The words of the 408, naming the setting. */
export function bodyIdleMessage(idleMs: number): string {
  return `The request body sent nothing for ${idleMs / 1000} seconds, so the request was cut (jst-tracker's --body-idle-timeout). Send the body without pauses.`;
}
