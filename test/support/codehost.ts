import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The code host stand-in (ARCHITECTURE §9: the one part that cannot be reached here). It answers
 * the repository read the status check makes, `GET /repos/:owner/:name`, the way GitHub does for
 * a fine-grained token: 401 for a wrong token, 404 for a repository the token cannot see.
 */
export interface CodehostOptions {
  token: string;
  /** `owner/name` of the repositories the token may read. */
  repos: string[];
  /** `owner/name` the token may see but not read (403). */
  forbidden?: string[];
  private?: boolean;
  defaultBranch?: string;
}

export interface CodehostRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  userAgent: string | undefined;
}

export interface TestCodehost {
  /** `http://127.0.0.1:PORT`, for CODEHOST_API_URL. */
  url: string;
  requests: CodehostRequest[];
  close(): Promise<void>;
}

export async function startCodehost(o: CodehostOptions): Promise<TestCodehost> {
  const requests: CodehostRequest[] = [];
  const server = http.createServer((req, res) => {
    requests.push({ method: req.method ?? '', path: req.url ?? '', authorization: req.headers.authorization, userAgent: req.headers['user-agent'] });
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(body));
    };
    const match = /^\/repos\/([^/?]+)\/([^/?]+)\/?(?:\?.*)?$/.exec(req.url ?? '');
    if (req.method !== 'GET' || match === null) return reply(404, { message: 'Not Found' });
    if (req.headers.authorization !== `Bearer ${o.token}`) return reply(401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' });
    const slug = `${decodeURIComponent(match[1] ?? '')}/${decodeURIComponent(match[2] ?? '')}`;
    if (o.forbidden?.includes(slug)) return reply(403, { message: 'Resource not accessible by personal access token' });
    if (!o.repos.includes(slug)) return reply(404, { message: 'Not Found' });
    return reply(200, { full_name: slug, private: o.private ?? true, default_branch: o.defaultBranch ?? 'main' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve, reject) => {
      server.closeAllConnections();
      server.close((error) => (error ? reject(error) : resolve()));
    }),
  };
}
