import { listComments } from '../../domain/comments.js';
import { ghTime } from '../../http/time.js';
import { REVIEWS_MAX } from '../../domain/limits.js';
import { rulesOf } from '../../domain/protection.js';
import { detailOf } from '../../domain/pull-views.js';
import { pullCommits, pullFiles } from '../../domain/pulls.js';
import { listReviews } from '../../domain/reviews.js';
import type { PullDetail, PullView, RepoAccess, ReviewView } from '../../domain/views.js';
import { pullHtml } from '../../http/render.js';
import { listConnection, pagedConnection, type PageArgs } from '../connections.js';
import type { GqlContext } from '../context.js';
import { nodeId } from '../ids.js';
import { ActorNode, associationOf } from './people.js';
import { CommentNode, CommitNode, RefNode, ReviewNode } from './pull-parts.js';

/** A pull request's repository object: set by repository.ts (which imports this module), so the two do not import each other. */
export const repositoryNode: { of: (ctx: GqlContext, access: RepoAccess) => unknown } = { of: () => null };

const MERGE_STATE = { clean: 'CLEAN', dirty: 'DIRTY', draft: 'DRAFT', blocked: 'BLOCKED', unknown: 'UNKNOWN' } as const;

/**
 * GitHub's PullRequest over the domain's pull request (domain/pulls.ts, pull-views.ts): the same
 * figures and mergeability as REST's GET /pulls/{n}, computed once per object and only when asked.
 */
export class PullNode {
  readonly __typename = 'PullRequest';
  private detailP: Promise<PullDetail> | undefined;
  private reviewsP: Promise<ReviewView[]> | undefined;

  constructor(
    private readonly ctx: GqlContext,
    private readonly access: RepoAccess,
    private readonly view: PullView,
  ) {
    // A view that is already a detail (getPull, createPull, updatePull) is not computed again.
    if ('mergeableState' in view) this.detailP = Promise.resolve(view as PullDetail);
  }

  private detail(): Promise<PullDetail> {
    return (this.detailP ??= detailOf(this.ctx.host, this.view));
  }
  private allReviews(): Promise<ReviewView[]> {
    return (this.reviewsP ??= listReviews(this.ctx.host, this.access, this.view.pull.number, 0, REVIEWS_MAX).then((r) => r.reviews));
  }
  private get pull() {
    return this.view.pull;
  }

  get id(): string {
    return nodeId('PR', this.pull.id);
  }
  get databaseId(): number {
    return this.pull.id;
  }
  get number(): number {
    return this.pull.number;
  }
  get title(): string {
    return this.pull.title;
  }
  get body(): string {
    return this.pull.body ?? '';
  }
  get state(): string {
    return this.pull.merged === 1 ? 'MERGED' : this.pull.state === 'open' ? 'OPEN' : 'CLOSED';
  }
  get closed(): boolean {
    return this.pull.state !== 'open';
  }
  get merged(): boolean {
    return this.pull.merged === 1;
  }
  get isDraft(): boolean {
    return this.pull.draft === 1;
  }
  get url(): string {
    return pullHtml(this.ctx.urls, this.view.repo, this.pull.number);
  }
  get permalink(): string {
    return this.url;
  }
  get resourcePath(): string {
    return new URL(this.url).pathname;
  }
  get createdAt(): string {
    return ghTime(this.pull.created_at);
  }
  get updatedAt(): string {
    return ghTime(this.pull.updated_at);
  }
  get closedAt(): string | null {
    return ghTime(this.pull.closed_at);
  }
  get mergedAt(): string | null {
    return ghTime(this.pull.merged_at);
  }
  get baseRefName(): string {
    return this.pull.base_ref;
  }
  get headRefName(): string {
    return this.pull.head_ref;
  }
  get baseRefOid(): string {
    return this.view.baseSha;
  }
  get headRefOid(): string {
    return this.view.headSha;
  }
  get author(): ActorNode {
    return new ActorNode(this.ctx, this.view.author);
  }
  get authorAssociation(): string {
    return associationOf(this.view.author, this.view.repo);
  }
  get mergedBy(): ActorNode | null {
    return this.view.mergedBy ? new ActorNode(this.ctx, this.view.mergedBy) : null;
  }
  get repository(): unknown {
    return repositoryNode.of(this.ctx, this.access);
  }
  get baseRepository(): unknown {
    return this.repository;
  }
  get headRepository(): unknown {
    return this.repository;
  }
  get headRepositoryOwner(): ActorNode {
    return new ActorNode(this.ctx, this.view.owner, this.view.repo.owner);
  }
  get isCrossRepository(): boolean {
    return false;
  }
  get maintainerCanModify(): boolean {
    return false;
  }
  get isInMergeQueue(): boolean {
    return false;
  }
  get isMergeQueueEnabled(): boolean {
    return false;
  }
  get viewerCanEnableAutoMerge(): boolean {
    return false;
  }
  get viewerCanDisableAutoMerge(): boolean {
    return false;
  }
  get locked(): boolean {
    return false;
  }
  get mergeCommit(): CommitNode | null {
    const sha = this.pull.merge_commit_sha;
    return sha ? new CommitNode(this.ctx, this.view.repo.owner, this.view.repo.name, sha) : null;
  }
  async additions(): Promise<number> {
    return (await this.detail()).additions;
  }
  async deletions(): Promise<number> {
    return (await this.detail()).deletions;
  }
  async changedFiles(): Promise<number> {
    return (await this.detail()).changedFiles;
  }
  async mergeable(): Promise<string> {
    const m = (await this.detail()).mergeable;
    return m === null ? 'UNKNOWN' : m ? 'MERGEABLE' : 'CONFLICTING';
  }
  async mergeStateStatus(): Promise<string> {
    return MERGE_STATE[(await this.detail()).mergeableState];
  }
  /** GitHub's reviewDecision: changes requested by anyone's latest review, else approved, else required when protection still blocks. */
  async reviewDecision(): Promise<string | null> {
    const latest = latestOf(await this.allReviews());
    if (latest.some((r) => r.review.state === 'CHANGES_REQUESTED')) return 'CHANGES_REQUESTED';
    if (this.pull.state === 'open' && (await this.detail()).blocked !== null) return 'REVIEW_REQUIRED';
    return latest.some((r) => r.review.state === 'APPROVED') ? 'APPROVED' : null;
  }
  async reviews(args: PageArgs) {
    return pagedConnection(args, async (offset, limit) => {
      const { reviews, total } = await listReviews(this.ctx.host, this.access, this.pull.number, offset, limit);
      return { items: reviews.map((r) => new ReviewNode(this.ctx, this.view, r)), total };
    });
  }
  async latestReviews(args: PageArgs) {
    return listConnection(
      latestOf(await this.allReviews()).map((r) => new ReviewNode(this.ctx, this.view, r)),
      args,
    );
  }
  async comments(args: PageArgs) {
    return pagedConnection(args, async (offset, limit) => {
      const { comments, total } = await listComments(this.ctx.host, this.access, this.pull.number, offset, limit);
      return { items: comments.map((c) => new CommentNode(this.ctx, this.access, this.pull.number, c)), total };
    });
  }
  async commits(args: PageArgs) {
    const { comparison } = await pullCommits(this.ctx.host, this.access, this.pull.number);
    const { owner, name } = this.view.repo;
    const items = comparison.commits.map((c) => ({ __typename: 'PullRequestCommit', commit: new CommitNode(this.ctx, owner, name, c.sha, c) }));
    return { ...listConnection(items, args), totalCount: comparison.totalCommits };
  }
  async files(args: PageArgs) {
    return pagedConnection(args, async (offset, limit) => {
      const { files, total } = await pullFiles(this.ctx.host, this.access, this.pull.number, offset, limit);
      const changeType = {
        added: 'ADDED',
        removed: 'DELETED',
        modified: 'MODIFIED',
        renamed: 'RENAMED',
        copied: 'COPIED',
        changed: 'CHANGED',
        unchanged: 'MODIFIED',
      } as const;
      return {
        items: files.map((f) => ({ path: f.filename, additions: f.additions, deletions: f.deletions, changeType: changeType[f.status] ?? 'MODIFIED' })),
        total,
      };
    });
  }
  async baseRef(): Promise<RefNode> {
    const rules = await rulesOf(this.ctx.host, this.view.repo, this.pull.base_ref);
    const rule = rules
      ? {
          requiresStrictStatusChecks: rules.statusChecks?.strict ?? false,
          requiresApprovingReviews: (rules.reviews?.requiredApprovals ?? 0) > 0,
          requiredApprovingReviewCount: rules.reviews?.requiredApprovals ?? null,
        }
      : null;
    return new RefNode(this.ctx, this.view.repo.owner, this.view.repo.name, this.pull.base_ref, this.view.baseSha, rule);
  }
  get headRef(): RefNode | null {
    return this.pull.state === 'open' ? new RefNode(this.ctx, this.view.repo.owner, this.view.repo.name, this.pull.head_ref, this.view.headSha) : null;
  }
}

/** Each reviewer's latest review that is not only a comment (GitHub's latestReviews and its reviewDecision's input). */
function latestOf(reviews: ReviewView[]): ReviewView[] {
  const byUser = new Map<number, ReviewView>();
  for (const r of reviews) {
    if (r.review.state === 'PENDING') continue;
    const prev = byUser.get(r.user.id);
    if (!prev || r.review.state !== 'COMMENTED' || prev.review.state === 'COMMENTED') byUser.set(r.user.id, r);
  }
  return [...byUser.values()];
}
