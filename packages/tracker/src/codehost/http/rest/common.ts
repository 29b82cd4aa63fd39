import type { FastifyReply, FastifyRequest } from 'fastify';
import { notFound } from '../../domain/errors.js';
import { PER_PAGE_DEFAULT, PER_PAGE_MAX } from '../../domain/limits.js';
import type { ChUser } from '../../domain/model.js';
import type { RateLimits } from '../../domain/rate-limit.js';
import type { RepoAccess } from '../../domain/views.js';
import type { Urls } from '../render.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in code-host user (rest/scope.ts), on every route of the REST scope. */
    codehostUser: ChUser | null;
    /** The caller's standing on the route's repository, for routes whose config names a `need`. */
    codehostAccess: RepoAccess | null;
    /** The rate windows this answer's X-RateLimit-* headers state. */
    codehostRate: RateLimits | null;
  }
  interface FastifyContextConfig {
    /** The operation's documentation page, as GitHub's errors name it. */
    docs?: string;
    /** What the route needs on `{owner}/{repo}`: the scope resolves it before the schema checks the rest. */
    need?: 'read' | 'write';
  }
}

/** What the code host's REST routes share (./*.ts): GitHub's paging, links, documentation pages and the request's caller. */

/** The documentation page of each operation, as GitHub's errors name it. */
export const DOCS = {
  root: 'https://docs.github.com/rest/meta/meta#github-api-root',
  rateLimit: 'https://docs.github.com/rest/rate-limit/rate-limit#get-rate-limit-status-for-the-authenticated-user',
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
  getProtection: 'https://docs.github.com/rest/branches/branch-protection#get-branch-protection',
  putProtection: 'https://docs.github.com/rest/branches/branch-protection#update-branch-protection',
  deleteProtection: 'https://docs.github.com/rest/branches/branch-protection#delete-branch-protection',
} as const;

/** A route's config: its documentation page and what it needs on the repository of its path. */
export const op = (docs: string, need?: 'read' | 'write') => ({ docs, ...(need ? { need } : {}) });

/** The signed-in user of a request of the REST scope. */
export const userOf = (request: FastifyRequest): ChUser => request.codehostUser!;
/** The repository access of a route whose config names a `need`. */
export const accessOf = (request: FastifyRequest): RepoAccess => request.codehostAccess!;

/** The pull request number of a path the schema has let through (decimal digits): past PostgreSQL's integer no pull request has it. */
export function numberOf(params: { number: string }): number {
  const n = Number(params.number);
  if (n > 2_147_483_647) throw notFound();
  return n;
}

/** `per_page` (clamped to 100, as GitHub does) and `page` (1 and up); anything else is the default. */
export function paging(q: { per_page?: string | undefined; page?: string | undefined }): { perPage: number; page: number; offset: number } {
  const pp = Number(q.per_page);
  const perPage = Number.isInteger(pp) && pp > 0 ? Math.min(pp, PER_PAGE_MAX) : PER_PAGE_DEFAULT;
  const pg = Number(q.page);
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
