import { randomBytes } from 'node:crypto';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../domain/errors.js';
import type { CodeHost, RepoAccess } from '../domain/codehost.js';
import { badCredentials, GhError, notFound } from '../domain/errors.js';
import { PER_PAGE_DEFAULT, PER_PAGE_MAX, REST_BODY_MAX } from '../domain/limits.js';
import type { ChUser } from '../domain/model.js';
import { commit, diffEntry, issueComment, privateUser, pullFull, pullSimple, repository, review, type Urls } from './render.js';

declare module 'fastify' {
  interface FastifyRequest { codehostUser: ChUser | null }
  interface FastifyContextConfig { docs?: string }
}

/** The documentation page of each operation, as GitHub's errors name it. */
const DOCS = {
  user: 'https://docs.github.com/rest/users/users#get-the-authenticated-user',
  repo: 'https://docs.github.com/rest/repos/repos#get-a-repository',
  listPulls: 'https://docs.github.com/rest/pulls/pulls#list-pull-requests',
  createPull: 'https://docs.github.com/rest/pulls/pulls#create-a-pull-request',
  getPull: 'https://docs.github.com/rest/pulls/pulls#get-a-pull-request',
  updatePull: 'https://docs.github.com/rest/pulls/pulls#update-a-pull-request',
  commits: 'https://docs.github.com/rest/pulls/pulls#list-commits-on-a-pull-request',
  files: 'https://docs.github.com/rest/pulls/pulls#list-pull-requests-files',
  checkMerged: 'https://docs.github.com/rest/pulls/pulls#check-if-a-pull-request-has-been-merged',
  merge: 'https://docs.github.com/rest/pulls/pulls#merge-a-pull-request',
  reviews: 'https://docs.github.com/rest/pulls/reviews#list-reviews-for-a-pull-request',
  createReview: 'https://docs.github.com/rest/pulls/reviews#create-a-review-for-a-pull-request',
  comments: 'https://docs.github.com/rest/issues/comments#list-issue-comments',
  createComment: 'https://docs.github.com/rest/issues/comments#create-an-issue-comment',
} as const;

const REST_DOCS = 'https://docs.github.com/rest';

interface RepoParams { owner: string; repo: string }
interface PullParams extends RepoParams { number: string }

type Query = Record<string, unknown>;
const one = (q: Query, key: string): string | undefined => {
  const v = q[key];
  return typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : undefined;
};

/** `per_page` (clamped to 100, as GitHub does) and `page` (1 and up). */
function paging(q: Query): { perPage: number; page: number; offset: number } {
  const pp = Number(one(q, 'per_page'));
  const perPage = Number.isInteger(pp) && pp > 0 ? Math.min(pp, PER_PAGE_MAX) : PER_PAGE_DEFAULT;
  const pg = Number(one(q, 'page'));
  const page = Number.isInteger(pg) && pg > 0 ? Math.min(pg, 1_000_000) : 1;
  return { perPage, page, offset: (page - 1) * perPage };
}

/** The server's own addresses, as the request reached it. */
function urlsOf(request: FastifyRequest): Urls {
  const web = `${request.protocol}://${request.host}`;
  return { web, api: `${web}/api/v3` };
}

/** GitHub's `Link` header: prev, next, last, first, each the request's own URL with another page. */
function linkHeader(request: FastifyRequest, page: number, perPage: number, total: number): string | undefined {
  const last = Math.max(1, Math.ceil(total / perPage));
  if (last <= 1 && page <= 1) return undefined;
  const url = new URL(request.url, urlsOf(request).web);
  const at = (p: number) => { url.searchParams.set('page', String(p)); url.searchParams.set('per_page', String(perPage)); return `<${url.toString()}>`; };
  const links: string[] = [];
  if (page > 1) links.push(`${at(Math.min(page - 1, last))}; rel="prev"`);
  if (page < last) links.push(`${at(page + 1)}; rel="next"`, `${at(last)}; rel="last"`);
  if (page > 1) links.push(`${at(1)}; rel="first"`);
  return links.join(', ');
}

function paged<T>(request: FastifyRequest, reply: FastifyReply, page: number, perPage: number, total: number, items: T[]): T[] {
  const link = linkHeader(request, page, perPage, total);
  if (link) void reply.header('link', link);
  return items;
}

/** The token of `Authorization: Bearer|token <t>` (or Basic with the token as password, as GitHub takes too). */
export function tokenOf(header: string | undefined): string | null {
  if (!header) return null;
  const bearer = /^(?:bearer|token)\s+(\S+)\s*$/i.exec(header);
  if (bearer) return bearer[1]!;
  const basic = /^basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header);
  if (!basic) return null;
  const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? null : decoded.slice(colon + 1);
}

/** U+0000 cannot be stored in PostgreSQL text: refused on every store alike, never a 500. */
const refuseNul = (_key: string, value: unknown): unknown => {
  if (typeof value === 'string' && value.includes('\0')) throw new GhError(400, 'Problems parsing JSON: the body contains a NUL character (\\u0000), which no field accepts.');
  return value;
};

const json = (text: string): unknown => {
  if (/^\s*$/.test(text)) return undefined;
  try {
    return text.includes('\\u0000') ? JSON.parse(text, refuseNul) : JSON.parse(text);
  } catch (e) {
    if (e instanceof GhError) throw e;
    // GitHub's words; the parser's own message would quote the body.
    throw new GhError(400, 'Problems parsing JSON');
  }
};

const bodyOf = (request: FastifyRequest): Record<string, unknown> => {
  const b = request.body;
  if (b === undefined || b === null) return {};
  if (typeof b !== 'object' || Array.isArray(b)) throw new GhError(400, 'Problems parsing JSON');
  return b as Record<string, unknown>;
};

/**
 * The code host's REST interface (ARCHITECTURE §14), mounted under `/api/v3` by the composition
 * (src/server.ts), GitHub Enterprise Server's layout. Its own scope: its own body parsing, errors
 * and not-found answer in GitHub's shape, never the tracker's.
 */
export function codehostRoutes(host: CodeHost) {
  return async (app: FastifyInstance) => {
    app.removeAllContentTypeParsers();
    // GitHub reads every request body as JSON, whatever its Content-Type says.
    app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: REST_BODY_MAX }, (_req, body, done) => {
      try { done(null, json(body as string)); } catch (e) { done(e as Error, undefined); }
    });
    app.decorateRequest('codehostUser', null);

    app.addHook('onRequest', (request, reply, done) => {
      void reply.headers({
        'x-github-media-type': 'github.v3; format=json',
        'x-github-api-version-selected': '2022-11-28',
        'x-github-request-id': randomBytes(8).toString('hex').toUpperCase(),
        'x-ratelimit-limit': '5000', 'x-ratelimit-remaining': '4999', 'x-ratelimit-used': '1', 'x-ratelimit-resource': 'core',
        'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 3600),
      });
      done();
    });
    // Without a repository folder (--database-url without --repos) every operation says so.
    if (!host.git) app.addHook('onRequest', (_request, _reply, done) => { try { host.requireGit(); done(); } catch (e) { done(e as Error); } });
    // ARCHITECTURE §14: no or a bad credential is 401 Bad credentials, on every operation.
    app.addHook('preHandler', (request, _reply, done) => {
      const token = tokenOf(request.headers.authorization);
      if (token === null) return done(badCredentials());
      host.userOfToken(token).then((user) => {
        if (!user) return done(badCredentials());
        request.codehostUser = user;
        done();
      }, (e: unknown) => done(e as Error));
    });

    app.setErrorHandler((error: FastifyError | GhError | ApiError, request, reply) => {
      const docs = request.routeOptions.config.docs ?? REST_DOCS;
      if (error instanceof GhError) {
        if (error.status === 401) void reply.header('www-authenticate', 'Bearer realm="jst-tracker code host"');
        return reply.code(error.status).send(error.body(docs));
      }
      if (error instanceof ApiError) return reply.code(error.status).send(new GhError(error.status, error.message).body(docs));
      const status = error.statusCode ?? 500;
      if (status >= 500) {
        request.log.error({ err: error }, 'code host request failed');
        return reply.code(500).send(new GhError(500, 'Server Error: the request was not applied; retry it.').body(docs));
      }
      const message = error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? `Request body too large: the limit is ${REST_BODY_MAX} bytes.`
        : error.code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH' ? 'The Content-Length header does not match the body.' : 'Problems parsing JSON';
      return reply.code(status).send(new GhError(status, message).body(docs));
    });
    app.setNotFoundHandler((request, reply) => {
      void reply.code(404).send(notFound().body(REST_DOCS));
      void request;
    });

    const user = (request: FastifyRequest) => request.codehostUser!;
    const access = (request: FastifyRequest<{ Params: RepoParams }>, need: 'read' | 'write'): Promise<RepoAccess> =>
      host.repoFor(user(request), request.params.owner, request.params.repo, need, request.routeOptions.config.docs);
    const numberOf = (request: FastifyRequest<{ Params: PullParams }>): number => {
      const n = request.params.number;
      // A number no pull request can have (PostgreSQL's integer ends at 2^31 - 1) does not exist.
      if (!/^[1-9]\d{0,9}$/.test(n) || Number(n) > 2_147_483_647) throw notFound(request.routeOptions.config.docs);
      return Number(n);
    };
    const cfg = (docs: string) => ({ config: { docs } });

    app.get('/user', cfg(DOCS.user), async (request) => privateUser(urlsOf(request), user(request)));

    app.get<{ Params: RepoParams }>('/repos/:owner/:repo', cfg(DOCS.repo), async (request) => {
      const a = await access(request, 'read');
      return repository(urlsOf(request), a.repo, a.owner, a.permission);
    });

    app.get<{ Params: RepoParams; Querystring: Query }>('/repos/:owner/:repo/pulls', cfg(DOCS.listPulls), async (request, reply) => {
      const a = await access(request, 'read');
      const q = request.query;
      const state = one(q, 'state') ?? 'open';
      const sort = one(q, 'sort') ?? 'created';
      const direction = one(q, 'direction') ?? (sort === 'created' ? 'desc' : 'asc');
      const errors = [];
      if (!['open', 'closed', 'all'].includes(state)) errors.push({ resource: 'PullRequest', field: 'state', code: 'invalid' });
      if (!['created', 'updated', 'popularity', 'long-running'].includes(sort)) errors.push({ resource: 'PullRequest', field: 'sort', code: 'invalid' });
      if (!['asc', 'desc'].includes(direction)) errors.push({ resource: 'PullRequest', field: 'direction', code: 'invalid' });
      if (errors.length > 0) throw new GhError(422, 'Validation Failed', errors);
      const { perPage, page, offset } = paging(q);
      const { pulls, total } = await host.listPulls(a, {
        state: state as 'open', head: one(q, 'head'), base: one(q, 'base'), sort: sort as 'created', direction: direction as 'asc',
        offset, limit: perPage,
      });
      const u = urlsOf(request);
      return paged(request, reply, page, perPage, total, pulls.map((p) => pullSimple(u, p, a.permission)));
    });

    app.post<{ Params: RepoParams }>('/repos/:owner/:repo/pulls', cfg(DOCS.createPull), async (request, reply) => {
      const a = await access(request, 'write');
      const d = await host.createPull(a, bodyOf(request));
      const body = pullFull(urlsOf(request), d, a.permission);
      return reply.code(201).header('location', body.url).send(body);
    });

    app.get<{ Params: PullParams }>('/repos/:owner/:repo/pulls/:number', cfg(DOCS.getPull), async (request) => {
      const a = await access(request, 'read');
      return pullFull(urlsOf(request), await host.getPull(a, numberOf(request)), a.permission);
    });

    app.patch<{ Params: PullParams }>('/repos/:owner/:repo/pulls/:number', cfg(DOCS.updatePull), async (request) => {
      const a = await access(request, 'write');
      return pullFull(urlsOf(request), await host.updatePull(a, numberOf(request), bodyOf(request)), a.permission);
    });

    app.get<{ Params: PullParams; Querystring: Query }>('/repos/:owner/:repo/pulls/:number/commits', cfg(DOCS.commits), async (request, reply) => {
      const a = await access(request, 'read');
      const { perPage, page, offset } = paging(request.query);
      const { comparison } = await host.pullCommits(a, numberOf(request));
      const u = urlsOf(request);
      const items = comparison.commits.slice(offset, offset + perPage).map((c) => commit(u, a.repo, c));
      return paged(request, reply, page, perPage, comparison.commits.length, items);
    });

    app.get<{ Params: PullParams; Querystring: Query }>('/repos/:owner/:repo/pulls/:number/files', cfg(DOCS.files), async (request, reply) => {
      const a = await access(request, 'read');
      const { perPage, page, offset } = paging(request.query);
      const n = numberOf(request);
      const { files, total, headSha: head } = await host.pullFiles(a, n, offset, perPage);
      const u = urlsOf(request);
      return paged(request, reply, page, perPage, total, files.map((f) => diffEntry(u, a.repo, head, f)));
    });

    app.get<{ Params: PullParams }>('/repos/:owner/:repo/pulls/:number/merge', cfg(DOCS.checkMerged), async (request, reply) => {
      const a = await access(request, 'read');
      if (!(await host.isMerged(a, numberOf(request)))) throw notFound(DOCS.checkMerged);
      return reply.code(204).send();
    });

    app.put<{ Params: PullParams }>('/repos/:owner/:repo/pulls/:number/merge', cfg(DOCS.merge), async (request) => {
      const a = await access(request, 'write');
      const { sha } = await host.merge(a, numberOf(request), bodyOf(request));
      return { sha, merged: true, message: 'Pull Request successfully merged' };
    });

    app.get<{ Params: PullParams; Querystring: Query }>('/repos/:owner/:repo/pulls/:number/reviews', cfg(DOCS.reviews), async (request, reply) => {
      const a = await access(request, 'read');
      const { perPage, page, offset } = paging(request.query);
      const { view, reviews, total } = await host.reviews(a, numberOf(request), offset, perPage);
      const u = urlsOf(request);
      return paged(request, reply, page, perPage, total, reviews.map((r) => review(u, view, r)));
    });

    app.post<{ Params: PullParams }>('/repos/:owner/:repo/pulls/:number/reviews', cfg(DOCS.createReview), async (request) => {
      const a = await access(request, 'write');
      const { view, review: r } = await host.createReview(a, numberOf(request), bodyOf(request));
      return review(urlsOf(request), view, r);
    });

    app.get<{ Params: PullParams; Querystring: Query }>('/repos/:owner/:repo/issues/:number/comments', cfg(DOCS.comments), async (request, reply) => {
      const a = await access(request, 'read');
      const { perPage, page, offset } = paging(request.query);
      const n = numberOf(request);
      const since = one(request.query, 'since');
      if (since !== undefined && Number.isNaN(Date.parse(since))) throw new GhError(422, 'Validation Failed', [{ resource: 'IssueComment', field: 'since', code: 'invalid' }]);
      const { comments, total } = await host.comments(a, n, offset, perPage, since === undefined ? undefined : new Date(since).toISOString());
      const u = urlsOf(request);
      return paged(request, reply, page, perPage, total, comments.map((c) => issueComment(u, a, n, c)));
    });

    app.post<{ Params: PullParams }>('/repos/:owner/:repo/issues/:number/comments', cfg(DOCS.createComment), async (request, reply) => {
      const a = await access(request, 'write');
      const n = numberOf(request);
      const body = issueComment(urlsOf(request), a, n, await host.createComment(a, n, bodyOf(request)));
      return reply.code(201).header('location', body.url).send(body);
    });
  };
}
