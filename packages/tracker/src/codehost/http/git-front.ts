import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';

export interface GitFront {
  /** Whether a path (no query) is git's: a repository's smart-HTTP (or dumb) address. */
  matches(path: string): boolean;
  /** Answers the request; false when it turned out not to be git's after all. */
  handle(req: IncomingMessage, res: ServerResponse): Promise<boolean>;
  /** Told about a failure of the handler itself (the answer is then a plain 500 or a cut connection). */
  onError(error: unknown): void;
}

/**
 * Puts git over HTTP (ARCHITECTURE §14) in front of the server's request listeners, on the same
 * port: a request for a repository's git address goes to git's handler (../git/http-backend.ts)
 * with its body unread, before Fastify would parse it (a push is a stream of packs, capped
 * there); every other request goes on as it came.
 */
export function mountGitFront(server: Server, git: GitFront): void {
  const routed = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  const next: RequestListener = (request, response) => {
    for (const listener of routed) listener(request, response);
  };
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const url = request.url ?? '/';
    const q = url.indexOf('?');
    if (!git.matches(q < 0 ? url : url.slice(0, q))) return next(request, response);
    git.handle(request, response).then(
      (handled) => {
        if (!handled) next(request, response);
      },
      (e: unknown) => {
        git.onError(e);
        if (response.headersSent) response.destroy();
        else
          response
            .writeHead(500, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' })
            .end('The git request failed on the server; nothing was changed. Retry it.\n');
      },
    );
  });
}
