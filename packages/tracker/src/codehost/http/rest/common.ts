import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CodeHost, RepoAccess } from '../../domain/codehost.js';
import { GhError, notFound } from '../../domain/errors.js';
import { PER_PAGE_DEFAULT, PER_PAGE_MAX } from '../../domain/limits.js';
import type { ChUser } from '../../domain/model.js';
import type { Urls } from '../render.js';

declare module 'fastify' {
  interface FastifyRequest {
    codehostUser: ChUser | null;
  }
  interface FastifyContextConfig {
    docs?: string;
  }
}

/** What the code host's REST routes share (./*.ts): GitHub's paging, links, documentation pages and body reading. */

/** The documentation page of each operation, as GitHub's errors name it. */
export const DOCS = {
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

export const REST_DOCS = 'https://docs.github.com/rest';

export interface RepoParams {
  owner: string;
  repo: string;
}
export interface PullParams extends RepoParams {
  number: string;
}

export type Query = Record<string, unknown>;
export const one = (q: Query, key: string): string | undefined => {
  const v = q[key];
  return typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : undefined;
};

/** `per_page` (clamped to 100, as GitHub does) and `page` (1 and up). */
export function paging(q: Query): { perPage: number; page: number; offset: number } {
  const pp = Number(one(q, 'per_page'));
  const perPage = Number.isInteger(pp) && pp > 0 ? Math.min(pp, PER_PAGE_MAX) : PER_PAGE_DEFAULT;
  const pg = Number(one(q, 'page'));
  const page = Number.isInteger(pg) && pg > 0 ? Math.min(pg, 1_000_000) : 1;
  return { perPage, page, offset: (page - 1) * perPage };
}

/** The server's own addresses, as the request reached it. */
export function urlsOf(request: FastifyRequest): Urls {
  const web = `${request.protocol}://${request.host}`;
  return { web, api: `${web}/api/v3` };
}

/** GitHub's `Link` header: prev, next, last, first, each the request's own URL with another page. */
function linkHeader(request: FastifyRequest, page: number, perPage: number, total: number): string | undefined {
  const last = Math.max(1, Math.ceil(total / perPage));
  if (last <= 1 && page <= 1) return undefined;
  const url = new URL(request.url, urlsOf(request).web);
  const at = (p: number) => {
    url.searchParams.set('page', String(p));
    url.searchParams.set('per_page', String(perPage));
    return `<${url.toString()}>`;
  };
  const links: string[] = [];
  if (page > 1) links.push(`${at(Math.min(page - 1, last))}; rel="prev"`);
  if (page < last) links.push(`${at(page + 1)}; rel="next"`, `${at(last)}; rel="last"`);
  if (page > 1) links.push(`${at(1)}; rel="first"`);
  return links.join(', ');
}

export function paged<T>(request: FastifyRequest, reply: FastifyReply, page: number, perPage: number, total: number, items: T[]): T[] {
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

/** A request's JSON body as an object (an absent body is `{}`). */
export const bodyOf = (request: FastifyRequest): Record<string, unknown> => {
  const b = request.body;
  if (b === undefined || b === null) return {};
  if (typeof b !== 'object' || Array.isArray(b)) throw new GhError(400, 'Problems parsing JSON');
  return b as Record<string, unknown>;
};

/** The signed-in account, the repository access of a route and its pull request number, for the routes of one host. */
export interface RestKit {
  // Plain functions, not methods: the routes take them apart (`{ access, numberOf }`).
  user: (request: FastifyRequest) => ChUser;
  access: (request: FastifyRequest<{ Params: RepoParams }>, need: 'read' | 'write') => Promise<RepoAccess>;
  numberOf: (request: FastifyRequest<{ Params: PullParams }>) => number;
  /** A route's options naming its documentation page. */
  cfg: (docs: string) => { config: { docs: string } };
}

export function restKit(host: CodeHost): RestKit {
  const user = (request: FastifyRequest) => request.codehostUser!;
  return {
    user,
    access: (request, need) => host.repoFor(user(request), request.params.owner, request.params.repo, need, request.routeOptions.config.docs),
    numberOf: (request) => {
      const n = request.params.number;
      // A number no pull request can have (PostgreSQL's integer ends at 2^31 - 1) does not exist.
      if (!/^[1-9]\d{0,9}$/.test(n) || Number(n) > 2_147_483_647) throw notFound(request.routeOptions.config.docs);
      return Number(n);
    },
    cfg: (docs) => ({ config: { docs } }),
  };
}
