import { repoFor } from '../../domain/access.js';
import { createComment } from '../../domain/comments.js';
import { BODY_MAX, TITLE_MAX } from '../../domain/limits.js';
import { merge } from '../../domain/merges.js';
import { pullById, repoById } from '../../domain/nodes.js';
import { createPull, getPull, updatePull, type UpdatePull } from '../../domain/pulls.js';
import { createReview } from '../../domain/reviews.js';
import type { RepoAccess } from '../../domain/views.js';
import type { GqlContext } from '../context.js';
import { fromDomain, GhGraphqlError, notFoundNode } from '../errors.js';
import { parseNodeId } from '../ids.js';
import { CommentNode, ReviewNode } from './pull-parts.js';
import { PullNode } from './pull-request.js';

/**
 * The mutations gh sends, each one domain call with the REST route's permission (write) and the
 * REST edge's bounds on text (domain/limits.ts), so a rule is never kept twice.
 */

type Input = Record<string, unknown> & { clientMutationId?: string | null };

/** The REST edge's bounds on text, in GitHub's GraphQL words. */
function text(input: Input, key: string, max: number, required = false): string | undefined {
  const v = input[key];
  if (v === undefined || v === null) {
    if (required) throw unprocessable(`${key} can't be blank`);
    return undefined;
  }
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  if (s.includes('\0')) throw unprocessable(`${key} contains a NUL character (\\u0000), which no field accepts.`);
  if ([...s].length > max) throw unprocessable(`${key} is too long (maximum is ${max} characters)`);
  if (required && s.trim() === '') throw unprocessable(`${key} can't be blank`);
  return s;
}
const unprocessable = (message: string) => new GhGraphqlError('UNPROCESSABLE', message);

/** The repository a node ID names, with write access (FORBIDDEN without it, NOT_FOUND when unreadable). */
async function writableRepo(ctx: GqlContext, id: string, mutation: string): Promise<RepoAccess> {
  const parsed = parseNodeId(id);
  try {
    if (parsed?.kind !== 'R') throw notFoundNode(id);
    const read = await repoById(ctx.host, ctx.viewer, parsed.id);
    return await repoFor(ctx.host, ctx.viewer, read.repo.owner, read.repo.name, 'write');
  } catch (e) {
    throw fromDomain(e, () => notFoundNode(id), ctx.viewer.login, mutation);
  }
}

/** The pull request a node ID names, with write access on its repository. */
async function writablePull(ctx: GqlContext, id: string, mutation: string): Promise<{ access: RepoAccess; number: number }> {
  const parsed = parseNodeId(id);
  try {
    if (parsed?.kind !== 'PR') throw notFoundNode(id);
    const { access, pull } = await pullById(ctx.host, ctx.viewer, parsed.id);
    return { access: await repoFor(ctx.host, ctx.viewer, access.repo.owner, access.repo.name, 'write'), number: pull.number };
  } catch (e) {
    throw fromDomain(e, () => notFoundNode(id), ctx.viewer.login, mutation);
  }
}

async function run<T>(ctx: GqlContext, mutation: string, id: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    throw fromDomain(e, () => notFoundNode(id), ctx.viewer.login, mutation);
  }
}

const pullNode = async (ctx: GqlContext, access: RepoAccess, number: number) => new PullNode(ctx, access, await getPull(ctx.host, access, number));

export const mutationRoot = {
  async createPullRequest({ input }: { input: Input }, ctx: GqlContext) {
    const access = await writableRepo(ctx, String(input['repositoryId']), 'CreatePullRequest');
    const title = text(input, 'title', TITLE_MAX, true)!;
    const body = text(input, 'body', BODY_MAX);
    const detail = await run(ctx, 'CreatePullRequest', String(input['repositoryId']), () =>
      createPull(ctx.host, access, { title, body, head: String(input['headRefName']), base: String(input['baseRefName']), draft: input['draft'] === true }),
    );
    return { clientMutationId: input.clientMutationId ?? null, pullRequest: new PullNode(ctx, access, detail) };
  },

  async updatePullRequest({ input }: { input: Input }, ctx: GqlContext) {
    const id = String(input['pullRequestId']);
    const { access, number } = await writablePull(ctx, id, 'UpdatePullRequest');
    const patch: UpdatePull = {};
    if (input['title'] !== undefined && input['title'] !== null) patch.title = text(input, 'title', TITLE_MAX, true)!;
    if (input['body'] !== undefined) patch.body = text(input, 'body', BODY_MAX) ?? null;
    if (typeof input['baseRefName'] === 'string') patch.base = input['baseRefName'];
    if (input['state'] === 'OPEN' || input['state'] === 'CLOSED') patch.state = input['state'] === 'OPEN' ? 'open' : 'closed';
    const detail = await run(ctx, 'UpdatePullRequest', id, () => updatePull(ctx.host, access, number, patch));
    return { clientMutationId: input.clientMutationId ?? null, pullRequest: new PullNode(ctx, access, detail) };
  },

  async closePullRequest({ input }: { input: Input }, ctx: GqlContext) {
    const id = String(input['pullRequestId']);
    const { access, number } = await writablePull(ctx, id, 'ClosePullRequest');
    const detail = await run(ctx, 'ClosePullRequest', id, () => updatePull(ctx.host, access, number, { state: 'closed' }));
    return { clientMutationId: input.clientMutationId ?? null, pullRequest: new PullNode(ctx, access, detail) };
  },

  async reopenPullRequest({ input }: { input: Input }, ctx: GqlContext) {
    const id = String(input['pullRequestId']);
    const { access, number } = await writablePull(ctx, id, 'ReopenPullRequest');
    const detail = await run(ctx, 'ReopenPullRequest', id, () => updatePull(ctx.host, access, number, { state: 'open' }));
    return { clientMutationId: input.clientMutationId ?? null, pullRequest: new PullNode(ctx, access, detail) };
  },

  async addPullRequestReview({ input }: { input: Input }, ctx: GqlContext) {
    const id = String(input['pullRequestId']);
    const { access, number } = await writablePull(ctx, id, 'AddPullRequestReview');
    const body = text(input, 'body', BODY_MAX);
    const event = input['event'] as 'APPROVE' | 'REQUEST_CHANGES' | 'COMMENT' | 'DISMISS' | null | undefined;
    if (event === 'DISMISS') throw unprocessable('A review cannot be dismissed on this code host.');
    const commit = typeof input['commitOID'] === 'string' ? input['commitOID'] : undefined;
    const { view, review } = await run(ctx, 'AddPullRequestReview', id, () =>
      createReview(ctx.host, access, number, { event: event ?? null, body, commit_id: commit }),
    );
    return { clientMutationId: input.clientMutationId ?? null, pullRequestReview: new ReviewNode(ctx, view, review) };
  },

  async mergePullRequest({ input }: { input: Input }, ctx: GqlContext) {
    const id = String(input['pullRequestId']);
    const { access, number } = await writablePull(ctx, id, 'MergePullRequest');
    const method = (typeof input['mergeMethod'] === 'string' ? input['mergeMethod'] : 'MERGE').toLowerCase() as 'merge' | 'squash' | 'rebase';
    const title = text(input, 'commitHeadline', BODY_MAX);
    const message = text(input, 'commitBody', BODY_MAX);
    await run(ctx, 'MergePullRequest', id, () =>
      merge(ctx.host, access, number, {
        merge_method: method,
        commit_title: title ?? null,
        commit_message: message ?? null,
        sha: typeof input['expectedHeadOid'] === 'string' ? input['expectedHeadOid'] : null,
      }),
    );
    return { clientMutationId: input.clientMutationId ?? null, pullRequest: await pullNode(ctx, access, number) };
  },

  async addComment({ input }: { input: Input }, ctx: GqlContext) {
    const id = String(input['subjectId']);
    const { access, number } = await writablePull(ctx, id, 'AddComment');
    const body = text(input, 'body', BODY_MAX, true)!;
    const comment = await run(ctx, 'AddComment', id, () => createComment(ctx.host, access, number, body));
    const node = new CommentNode(ctx, access, number, comment);
    return { clientMutationId: input.clientMutationId ?? null, commentEdge: { cursor: '', node }, subject: await pullNode(ctx, access, number) };
  },
};
