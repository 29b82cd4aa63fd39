import type { FastifyInstance } from 'fastify';
import type { CodeHost } from '../../domain/codehost.js';
import { GhError } from '../../domain/errors.js';
import { commit, diffEntry, pullFull, pullSimple } from '../render.js';
import { bodyOf, DOCS, one, paged, paging, type PullParams, type Query, type RepoParams, type RestKit, urlsOf } from './kit.js';

/** Pull requests: list, create, read, update, and a pull request's commits and files. */
export function pullRoutes(app: FastifyInstance, host: CodeHost, { access, numberOf, cfg }: RestKit): void {
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
      state: state as 'open',
      head: one(q, 'head'),
      base: one(q, 'base'),
      sort: sort as 'created',
      direction: direction as 'asc',
      offset,
      limit: perPage,
    });
    const u = urlsOf(request);
    return paged(
      request,
      reply,
      page,
      perPage,
      total,
      pulls.map((p) => pullSimple(u, p, a.permission)),
    );
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
    return paged(
      request,
      reply,
      page,
      perPage,
      total,
      files.map((f) => diffEntry(u, a.repo, head, f)),
    );
  });
}
