import { Type } from '@sinclair/typebox';
import { diffMediaOf, pullDiffText } from '../../domain/diffs.js';
import type { CodeHost } from '../../domain/host.js';
import { tooLargeMessage } from '../../git/diff-text.js';
import { GhError } from '../errors.js';
import { createPull, getPull, listPulls, pullCommits, pullFiles, updatePull } from '../../domain/pulls.js';
import { commit, diffEntry, pullFull, pullSimple } from '../render.js';
import { PageQuery, PullParams, replies, RepoParams } from '../schemas/common.js';
import { Commit, CreatePullBody, DiffEntry, ListPullsQuery, PullFull, PullSimple, UpdatePullBody } from '../schemas/pulls.js';
import type { CodehostApp } from '../validation.js';
import { accessOf, DOCS, numberOf, op, paged, paging, urlsOf } from './common.js';

/** Pull requests: list, create, read, update, and a pull request's commits and files. */
export function pullRoutes(app: CodehostApp, host: CodeHost): void {
  app.get(
    '/repos/:owner/:repo/pulls',
    { config: op(DOCS.listPulls, 'read'), schema: { params: RepoParams, querystring: ListPullsQuery, response: replies({ 200: Type.Array(PullSimple) }) } },
    async (request, reply) => {
      const a = accessOf(request);
      const q = request.query;
      const sort = q.sort ?? 'created';
      const { perPage, page, offset } = paging(q);
      const { pulls, total } = await listPulls(host, a, {
        state: q.state ?? 'open',
        head: q.head,
        base: q.base,
        sort,
        direction: q.direction ?? (sort === 'created' ? 'desc' : 'asc'),
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
    },
  );

  app.post(
    '/repos/:owner/:repo/pulls',
    { config: op(DOCS.createPull, 'write'), schema: { params: RepoParams, body: CreatePullBody, response: replies({ 201: PullFull }) } },
    async (request, reply) => {
      const a = accessOf(request);
      const body = pullFull(urlsOf(request), await createPull(host, a, request.body), a.permission);
      return reply.code(201).header('location', body.url).send(body);
    },
  );

  app.get(
    '/repos/:owner/:repo/pulls/:number',
    { config: op(DOCS.getPull, 'read'), schema: { params: PullParams, response: replies({ 200: PullFull }) } },
    async (request, reply) => {
      const a = accessOf(request);
      // ARCHITECTURE §22/§23: the diff and patch media types (gh pr diff asks for application/vnd.github.v3.diff).
      const media = diffMediaOf(request.headers.accept);
      if (media !== null) {
        const { diff } = await pullDiffText(host, a, numberOf(request.params), media.kind);
        if (!('text' in diff)) {
          throw new GhError(406, `${tooLargeMessage(diff)} Consider using 'List pull requests files' API or locally cloning the repository instead.`, [
            { resource: 'PullRequest', field: 'diff', code: 'too_large' },
          ]);
        }
        // Sent as bytes with its own Content-Type: the route's JSON serializer is not used for it.
        void reply.header('content-type', `${media.mediaType}; charset=utf-8`).header('x-github-media-type', `github.v3; format=${media.kind}`);
        return reply.send(diff.text as unknown as ReturnType<typeof pullFull>);
      }
      return pullFull(urlsOf(request), await getPull(host, a, numberOf(request.params)), a.permission);
    },
  );

  app.patch(
    '/repos/:owner/:repo/pulls/:number',
    { config: op(DOCS.updatePull, 'write'), schema: { params: PullParams, body: UpdatePullBody, response: replies({ 200: PullFull }) } },
    async (request) => {
      const a = accessOf(request);
      return pullFull(urlsOf(request), await updatePull(host, a, numberOf(request.params), request.body), a.permission);
    },
  );

  app.get(
    '/repos/:owner/:repo/pulls/:number/commits',
    { config: op(DOCS.commits, 'read'), schema: { params: PullParams, querystring: PageQuery, response: replies({ 200: Type.Array(Commit) }) } },
    async (request, reply) => {
      const a = accessOf(request);
      const { perPage, page, offset } = paging(request.query);
      const { comparison } = await pullCommits(host, a, numberOf(request.params));
      const u = urlsOf(request);
      const items = comparison.commits.slice(offset, offset + perPage).map((c) => commit(u, a.repo, c));
      return paged(request, reply, page, perPage, comparison.commits.length, items);
    },
  );

  app.get(
    '/repos/:owner/:repo/pulls/:number/files',
    { config: op(DOCS.files, 'read'), schema: { params: PullParams, querystring: PageQuery, response: replies({ 200: Type.Array(DiffEntry) }) } },
    async (request, reply) => {
      const a = accessOf(request);
      const { perPage, page, offset } = paging(request.query);
      const { files, total, headSha: head } = await pullFiles(host, a, numberOf(request.params), offset, perPage);
      const u = urlsOf(request);
      return paged(
        request,
        reply,
        page,
        perPage,
        total,
        files.map((f) => diffEntry(u, a.repo, head, f)),
      );
    },
  );
}
