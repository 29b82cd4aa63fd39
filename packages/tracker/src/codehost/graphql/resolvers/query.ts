import { GraphQLError } from 'graphql';
import { repoFor } from '../../domain/access.js';
import { pullById, repoById } from '../../domain/nodes.js';
import { viewOf } from '../../domain/pull-views.js';
import { listPulls } from '../../domain/pulls.js';
import { storeOf } from '../../domain/store-access.js';
import { listConnection, type PageArgs } from '../connections.js';
import type { GqlContext } from '../context.js';
import { fromDomain, notFoundNode, notFoundRepo } from '../errors.js';
import { parseNodeId } from '../ids.js';
import { NODE_IDS_MAX } from '../limits.js';
import { ActorNode } from './people.js';
import { PullNode } from './pull-request.js';
import { RepoNode } from './repository.js';

/** The root fields: viewer, repository, node, nodes, search. */

export async function repository(ctx: GqlContext, owner: string, name: string): Promise<RepoNode> {
  try {
    return new RepoNode(ctx, await repoFor(ctx.host, ctx.viewer, owner, name, 'read'));
  } catch (e) {
    throw fromDomain(e, () => notFoundRepo(owner, name), ctx.viewer.login);
  }
}

/** The object a node ID names, through the same access rule as by name; NOT_FOUND for anything else. */
export async function nodeOf(ctx: GqlContext, id: string): Promise<RepoNode | PullNode | ActorNode> {
  const parsed = parseNodeId(id);
  try {
    if (parsed?.kind === 'R') return new RepoNode(ctx, await repoById(ctx.host, ctx.viewer, parsed.id));
    if (parsed?.kind === 'PR') {
      const { access, pull } = await pullById(ctx.host, ctx.viewer, parsed.id);
      return new PullNode(ctx, access, await viewOf(ctx.host, access, pull));
    }
    if (parsed?.kind === 'U') {
      const [user] = await storeOf(ctx.host).users.byIds([parsed.id]);
      if (user) return new ActorNode(ctx, user);
    }
  } catch (e) {
    throw fromDomain(e, () => notFoundNode(id), ctx.viewer.login);
  }
  throw notFoundNode(id);
}

export const SEARCH_SCAN_MAX = 1000;

/**
 * GitHub's search(type: ISSUE) for the qualifiers gh builds (`repo:o/r is:pr state:open
 * author:@me`, `review-requested:@me`, `assignee:@me`): pull requests of one repository the
 * viewer may read. No review requests or assignees are kept, so those qualifiers find none.
 */
async function search(ctx: GqlContext, args: PageArgs & { query: string; type: string }) {
  const empty = { issueCount: 0, ...listConnection([], args) };
  if (args.type !== 'ISSUE') return empty;
  const terms = args.query.split(/\s+/).filter(Boolean);
  let repo: [string, string] | null = null;
  let state: 'open' | 'closed' | 'all' = 'all';
  let author: string | null = null;
  let merged: boolean | null = null;
  for (const term of terms) {
    const [key, ...rest] = term.split(':');
    const value = rest.join(':');
    if (rest.length === 0) return empty; // free text: the code host keeps no search index
    if (key === 'repo' && /^[^/]+\/[^/]+$/.test(value)) repo = value.split('/') as [string, string];
    else if (key === 'state' && (value === 'open' || value === 'closed')) state = value;
    else if (key === 'is' && (value === 'pr' || value === 'pull-request')) continue;
    else if (key === 'is' && (value === 'open' || value === 'closed')) state = value;
    else if (key === 'is' && value === 'merged') merged = true;
    else if (key === 'type' && value === 'pr') continue;
    else if (key === 'author') author = value === '@me' ? ctx.viewer.login : value;
    else if (key === 'sort' || key === 'archived' || key === 'draft') continue;
    else return empty; // review-requested, assignee, label, …: nothing the code host keeps matches
  }
  if (!repo) return empty;
  let node: RepoNode;
  try {
    node = await repository(ctx, repo[0], repo[1]);
  } catch {
    return empty; // GitHub's search finds nothing in a repository one may not read
  }
  const { pulls } = await listPulls(ctx.host, node.access, { state, sort: 'updated', direction: 'desc', offset: 0, limit: SEARCH_SCAN_MAX });
  const found = pulls.filter(
    (v) => (author === null || v.author.login.toLowerCase() === author.toLowerCase()) && (merged === null || (v.pull.merged === 1) === merged),
  );
  return {
    issueCount: found.length,
    ...listConnection(
      found.map((v) => new PullNode(ctx, node.access, v)),
      args,
    ),
  };
}

export const queryRoot = {
  viewer: (_a: unknown, ctx: GqlContext) => new ActorNode(ctx, ctx.viewer),
  repository: (args: { owner: string; name: string }, ctx: GqlContext) => repository(ctx, args.owner, args.name),
  node: (args: { id: string }, ctx: GqlContext) => nodeOf(ctx, args.id),
  nodes: async (args: { ids: string[] }, ctx: GqlContext) => {
    if (args.ids.length > NODE_IDS_MAX)
      throw new GraphQLError(`You may not ask for more than ${NODE_IDS_MAX} ids at a time; you asked for ${args.ids.length}.`);
    // GitHub answers null for each id it cannot resolve, with an error for it.
    return args.ids.map((id) => nodeOf(ctx, id));
  },
  search: (args: PageArgs & { query: string; type: string }, ctx: GqlContext) => search(ctx, args),
};
