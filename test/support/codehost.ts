import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The code host stand-in (ARCHITECTURE §9, §11: the one part that cannot be reached here). It
 * answers, in GitHub's REST shape, the repository read the status check makes and every call of
 * phases 2 and 3 — pulls list / create / get (with `state` and `merged`), reviews list / create,
 * issue comments, `GET /user` — and records each request. A wrong token gets 401; a repository the
 * token cannot see 404, one it may see but not read 403.
 */
export interface CodehostOptions {
  token: string;
  /** `owner/name` of the repositories the token may read. */
  repos: string[];
  /** `owner/name` the token may see but not read (403). */
  forbidden?: string[];
  private?: boolean;
  defaultBranch?: string;
  /** The login `GET /user` answers (default `jst-bot`). */
  login?: string;
}

export interface CodehostRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  userAgent: string | undefined;
  /** The parsed JSON body of a POST. */
  body?: unknown;
}

export interface StandInPull {
  number: number;
  repo: string;
  title: string;
  head: string;
  base: string;
  body: string;
  draft: boolean;
  state: 'open' | 'closed';
  merged: boolean;
  reviews: { id: number; login: string; event: string; body: string }[];
  comments: { id: number; body: string }[];
}

export interface TestCodehost {
  /** `http://127.0.0.1:PORT`, for CODEHOST_API_URL. */
  url: string;
  requests: CodehostRequest[];
  pulls: StandInPull[];
  /** Marks a pull request merged (and closed), as merging it on the code host would. */
  merge(n: number): void;
  /** The next `count` requests get this answer (e.g. 429 with Retry-After) instead of their own. */
  failNext(status: number, headers?: Record<string, string>, count?: number): void;
  /** `METHOD path` (query and host left out) of every request after `from`: the calls a step made. */
  calls(from?: number): string[];
  close(): Promise<void>;
}

export async function startCodehost(o: CodehostOptions): Promise<TestCodehost> {
  const requests: CodehostRequest[] = [];
  const pulls: StandInPull[] = [];
  let nextId = 1;
  let failures: { status: number; headers: Record<string, string>; count: number } | null = null;
  let url = '';

  const view = (p: StandInPull, full: boolean) => ({
    number: p.number, title: p.title, body: p.body, draft: p.draft, state: p.state,
    html_url: `${url}/${p.repo}/pull/${p.number}`,
    head: { ref: p.head, label: `${p.repo.split('/')[0]}:${p.head}` }, base: { ref: p.base },
    merged_at: p.merged ? '2026-01-01T00:00:00Z' : null,
    // GitHub's list form has no `merged`; only the single read carries it.
    ...(full ? { merged: p.merged } : {}),
  });

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try { body = text ? JSON.parse(text) : undefined; } catch { body = text; }
      requests.push({ method: req.method ?? '', path: req.url ?? '', authorization: req.headers.authorization, userAgent: req.headers['user-agent'], ...(body === undefined ? {} : { body }) });
      const reply = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...headers });
        res.end(JSON.stringify(payload));
      };
      if (failures && failures.count > 0) {
        failures.count--;
        return reply(failures.status, { message: 'stand-in failure' }, failures.headers);
      }
      const u = new URL(req.url ?? '/', 'http://stand-in');
      if (req.headers.authorization !== `Bearer ${o.token}`) return reply(401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' });
      if (req.method === 'GET' && u.pathname === '/user') return reply(200, { login: o.login ?? 'jst-bot', id: 1 });
      const m = /^\/repos\/([^/]+)\/([^/]+)(\/.*)?$/.exec(u.pathname);
      if (!m) return reply(404, { message: 'Not Found' });
      const slug = `${decodeURIComponent(m[1] ?? '')}/${decodeURIComponent(m[2] ?? '')}`;
      if (o.forbidden?.includes(slug)) return reply(403, { message: 'Resource not accessible by personal access token' });
      if (!o.repos.includes(slug)) return reply(404, { message: 'Not Found' });
      const rest = (m[3] ?? '').replace(/\/$/, '');
      const b = (body ?? {}) as Record<string, unknown>;
      if (req.method === 'GET' && rest === '') return reply(200, { full_name: slug, private: o.private ?? true, default_branch: o.defaultBranch ?? 'main' });
      if (rest === '/pulls' && req.method === 'GET') {
        const head = u.searchParams.get('head');
        const base = u.searchParams.get('base');
        const state = u.searchParams.get('state') ?? 'open';
        const found = pulls.filter((p) => p.repo === slug && (head === null || head === `${slug.split('/')[0]}:${p.head}`) && (base === null || base === p.base) && (state === 'all' || state === p.state));
        return reply(200, found.map((p) => view(p, false)));
      }
      if (rest === '/pulls' && req.method === 'POST') {
        if (typeof b.head !== 'string' || typeof b.base !== 'string' || typeof b.title !== 'string') return reply(422, { message: 'Validation Failed', errors: [{ message: 'head, base and title are required' }] });
        if (pulls.some((p) => p.repo === slug && p.head === b.head && p.base === b.base && p.state === 'open')) {
          return reply(422, { message: 'Validation Failed', errors: [{ message: `A pull request already exists for ${slug.split('/')[0]}:${String(b.head)}.` }] });
        }
        const p: StandInPull = { number: nextId++, repo: slug, title: b.title, head: b.head, base: b.base, body: typeof b.body === 'string' ? b.body : '', draft: b.draft === true, state: 'open', merged: false, reviews: [], comments: [] };
        pulls.push(p);
        return reply(201, view(p, true));
      }
      const one = /^\/(pulls|issues)\/(\d+)(\/reviews|\/comments)?$/.exec(rest);
      const p = one ? pulls.find((x) => x.repo === slug && x.number === Number(one[2])) : undefined;
      if (!one || !p) return reply(404, { message: 'Not Found' });
      if (one[1] === 'pulls' && !one[3] && req.method === 'GET') return reply(200, view(p, true));
      if (one[1] === 'pulls' && one[3] === '/reviews' && req.method === 'GET') {
        return reply(200, p.reviews.map((r) => ({ id: r.id, user: { login: r.login }, body: r.body, state: r.event === 'COMMENT' ? 'COMMENTED' : r.event })));
      }
      if (one[1] === 'pulls' && one[3] === '/reviews' && req.method === 'POST') {
        if (typeof b.event !== 'string' || typeof b.body !== 'string') return reply(422, { message: 'Validation Failed' });
        const r = { id: nextId++, login: o.login ?? 'jst-bot', event: b.event, body: b.body };
        p.reviews.push(r);
        return reply(200, { id: r.id, user: { login: r.login }, body: r.body, state: 'COMMENTED' });
      }
      if (one[1] === 'issues' && one[3] === '/comments' && req.method === 'POST') {
        if (typeof b.body !== 'string') return reply(422, { message: 'Validation Failed' });
        const c = { id: nextId++, body: b.body };
        p.comments.push(c);
        return reply(201, { id: c.id, body: c.body, html_url: `${url}/${slug}/pull/${p.number}#issuecomment-${c.id}` });
      }
      return reply(404, { message: 'Not Found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  url = `http://127.0.0.1:${port}`;
  return {
    url,
    requests,
    pulls,
    merge(n) {
      const p = pulls.find((x) => x.number === n);
      if (!p) throw new Error(`no pull request #${n}`);
      p.state = 'closed';
      p.merged = true;
    },
    failNext(status, headers = {}, count = 1) { failures = { status, headers, count }; },
    calls: (from = 0) => requests.slice(from).map((r) => `${r.method} ${r.path.split('?')[0]}`),
    close: () => new Promise<void>((resolve, reject) => {
      server.closeAllConnections();
      server.close((error) => (error ? reject(error) : resolve()));
    }),
  };
}
