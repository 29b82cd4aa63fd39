import { gitOf } from '../../domain/host.js';
import { ghTime } from '../../http/time.js';
import { listPulls } from '../../domain/pulls.js';
import { getPull } from '../../domain/pulls.js';
import type { PullView, RepoAccess } from '../../domain/views.js';
import { pagedConnection, type PageArgs } from '../connections.js';
import type { GqlContext } from '../context.js';
import { fromDomain, notFoundPull } from '../errors.js';
import { nodeId } from '../ids.js';
import { ActorNode } from './people.js';
import { RefNode } from './pull-parts.js';
import { PullNode, repositoryNode } from './pull-request.js';

type PullState = 'OPEN' | 'CLOSED' | 'MERGED';

/** GitHub's Repository over the caller's access to one (domain/access.ts repoFor: masked when it may not be read). */
export class RepoNode {
  readonly __typename = 'Repository';
  constructor(
    private readonly ctx: GqlContext,
    readonly access: RepoAccess,
  ) {}
  private get repo() {
    return this.access.repo;
  }
  get id(): string {
    return nodeId('R', this.repo.id);
  }
  get databaseId(): number {
    return this.repo.id;
  }
  get name(): string {
    return this.repo.name;
  }
  get nameWithOwner(): string {
    return `${this.repo.owner}/${this.repo.name}`;
  }
  get owner(): ActorNode {
    return new ActorNode(this.ctx, this.access.owner, this.repo.owner);
  }
  get url(): string {
    return `${this.ctx.urls.web}/${encodeURIComponent(this.repo.owner)}/${encodeURIComponent(this.repo.name)}`;
  }
  get sshUrl(): string {
    return `git@${new URL(this.ctx.urls.web).hostname}:${this.repo.owner}/${this.repo.name}.git`;
  }
  get createdAt(): string {
    return ghTime(this.repo.created_at);
  }
  get updatedAt(): string {
    return ghTime(this.repo.updated_at);
  }
  get pushedAt(): string | null {
    return ghTime(this.repo.pushed_at);
  }
  get isPrivate(): boolean {
    return true;
  }
  get visibility(): string {
    return 'PRIVATE';
  }
  get isInOrganization(): boolean {
    return this.access.owner === null;
  }
  get viewerPermission(): string {
    return this.access.permission.toUpperCase();
  }
  get viewerCanAdminister(): boolean {
    return this.access.permission === 'admin';
  }
  get viewerDefaultMergeMethod(): string {
    return 'MERGE';
  }
  get viewerHasStarred(): boolean {
    return false;
  }
  get viewerSubscription(): string {
    return 'UNSUBSCRIBED';
  }
  get mergeCommitAllowed(): boolean {
    return true;
  }
  get squashMergeAllowed(): boolean {
    return true;
  }
  get rebaseMergeAllowed(): boolean {
    return true;
  }
  async defaultBranchRef(): Promise<RefNode | null> {
    const sha = await gitOf(this.ctx.host).branchSha(this.repo.owner, this.repo.name, this.repo.default_branch);
    return sha === null ? null : new RefNode(this.ctx, this.repo.owner, this.repo.name, this.repo.default_branch, sha);
  }
  async isEmpty(): Promise<boolean> {
    return (await this.defaultBranchRef()) === null;
  }

  async pullRequest(args: { number: number }): Promise<PullNode> {
    try {
      return new PullNode(this.ctx, this.access, await getPull(this.ctx.host, this.access, args.number));
    } catch (e) {
      throw fromDomain(e, () => notFoundPull(args.number), this.ctx.viewer.login);
    }
  }

  /** GitHub's pullRequests(states, headRefName, baseRefName, orderBy): newest first unless asked otherwise. */
  async pullRequests(
    args: PageArgs & {
      states?: PullState[] | null;
      headRefName?: string | null;
      baseRefName?: string | null;
      orderBy?: { field: string; direction: string } | null;
    },
  ) {
    const states = new Set(args.states ?? ['OPEN', 'CLOSED', 'MERGED']);
    const state = states.has('OPEN') ? (states.has('CLOSED') || states.has('MERGED') ? 'all' : 'open') : 'closed';
    const sort = args.orderBy?.field === 'UPDATED_AT' ? 'updated' : 'created';
    const direction = args.orderBy ? (args.orderBy.direction === 'DESC' ? 'desc' : 'asc') : 'asc';
    const q = {
      state,
      sort,
      direction,
      ...(args.headRefName ? { head: `${this.repo.owner}:${args.headRefName}` } : {}),
      ...(args.baseRefName ? { base: args.baseRefName } : {}),
    } as const;
    // CLOSED and MERGED are one state in the store: asked for one of them alone, the other is left out here.
    const only = states.has('CLOSED') !== states.has('MERGED') ? (states.has('MERGED') ? 1 : 0) : null;
    const keep = (v: PullView) => v.pull.state === 'open' || only === null || v.pull.merged === only;
    return pagedConnection(args, async (offset, limit) => {
      if (only === null) {
        const { pulls, total } = await listPulls(this.ctx.host, this.access, { ...q, offset, limit });
        return { items: pulls.map((v) => new PullNode(this.ctx, this.access, v)), total };
      }
      const { pulls } = await listPulls(this.ctx.host, this.access, { ...q, offset: 0, limit: PULLS_FILTERED_MAX });
      const kept = pulls.filter(keep);
      return { items: kept.slice(offset, offset + limit).map((v) => new PullNode(this.ctx, this.access, v)), total: kept.length };
    });
  }
}

/** pullRequests(states: [MERGED]) or [CLOSED] alone look at this many closed pull requests at most. */
export const PULLS_FILTERED_MAX = 1000;

repositoryNode.of = (ctx, access) => new RepoNode(ctx, access);
