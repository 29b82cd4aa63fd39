import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';

/** The smart-HTTP paths of a repository: `/<owner>/<repo>.git/info/refs`, `…/git-upload-pack`, `…/git-receive-pack`. */
export const GIT_PATH = /^\/[^/?]+\/[^/?]+\.git\/(?:info\/refs|git-upload-pack|git-receive-pack)(?:\?|$)/;

/**
 * Puts git over HTTP (ARCHITECTURE §14) in front of the server's request listeners, on the same
 * port: a request for a repository's smart-HTTP path goes to `git` (../git/http-backend.ts) with
 * its body unread, before Fastify would parse it (a push is a stream of packs, capped there);
 * every other request goes on as it came.
 */
export function mountGitFront(server: Server, git: (req: IncomingMessage, res: ServerResponse) => void): void {
  const routed = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  const next: RequestListener = (request, response) => { for (const listener of routed) listener(request, response); };
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (GIT_PATH.test(request.url ?? '')) git(request, response);
    else next(request, response);
  });
}
