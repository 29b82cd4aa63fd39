import type { CommitInfo } from '../../domain/git-port.js';
import { ghTime } from '../../http/time.js';
import type { CommentView, PullView, RepoAccess, ReviewView } from '../../domain/views.js';
import { pullHtml } from '../../http/render.js';
import { listConnection, type PageArgs } from '../connections.js';
import type { GqlContext } from '../context.js';
import { nodeId } from '../ids.js';
import { ActorNode, associationOf } from './people.js';

/** What a pull request is made of in GraphQL: its reviews, comments, commits and refs. */

export class ReviewNode {
  readonly __typename = 'PullRequestReview';
  constructor(
    private readonly ctx: GqlContext,
    private readonly view: PullView,
    private readonly r: ReviewView,
  ) {}
  get id(): string {
    return nodeId('PRR', this.r.review.id);
  }
  get databaseId(): number {
    return this.r.review.id;
  }
  get author(): ActorNode {
    return new ActorNode(this.ctx, this.r.user);
  }
  get authorAssociation(): string {
    return associationOf(this.r.user, this.view.repo);
  }
  get body(): string {
    return this.r.review.body;
  }
  get state(): string {
    return this.r.review.state;
  }
  get submittedAt(): string | null {
    return this.r.review.state === 'PENDING' ? null : ghTime(this.r.review.submitted_at);
  }
  get createdAt(): string {
    return ghTime(this.r.review.submitted_at);
  }
  get commit(): CommitNode {
    return new CommitNode(this.ctx, this.view.repo.owner, this.view.repo.name, this.r.review.commit_id);
  }
  get url(): string {
    return `${pullHtml(this.ctx.urls, this.view.repo, this.view.pull.number)}#pullrequestreview-${this.r.review.id}`;
  }
  get includesCreatedEdit(): boolean {
    return false;
  }
  get viewerDidAuthor(): boolean {
    return this.r.user.id === this.ctx.viewer.id;
  }
  /** The review's author, for latestReviews and reviewDecision. */
  get userId(): number {
    return this.r.user.id;
  }
}

export class CommentNode {
  readonly __typename = 'IssueComment';
  constructor(
    private readonly ctx: GqlContext,
    private readonly access: RepoAccess,
    private readonly number: number,
    private readonly c: CommentView,
  ) {}
  get id(): string {
    return nodeId('IC', this.c.comment.id);
  }
  get databaseId(): number {
    return this.c.comment.id;
  }
  get author(): ActorNode {
    return new ActorNode(this.ctx, this.c.user);
  }
  get authorAssociation(): string {
    return associationOf(this.c.user, this.access.repo);
  }
  get body(): string {
    return this.c.comment.body;
  }
  get createdAt(): string {
    return ghTime(this.c.comment.created_at);
  }
  get updatedAt(): string {
    return ghTime(this.c.comment.updated_at);
  }
  get url(): string {
    return `${pullHtml(this.ctx.urls, this.access.repo, this.number)}#issuecomment-${this.c.comment.id}`;
  }
  get includesCreatedEdit(): boolean {
    return false;
  }
  get isMinimized(): boolean {
    return false;
  }
  get viewerDidAuthor(): boolean {
    return this.c.user.id === this.ctx.viewer.id;
  }
}

/** A commit by its oid, with what git said of it when the listing had it. */
export class CommitNode {
  readonly __typename = 'Commit';
  constructor(
    private readonly ctx: GqlContext,
    private readonly owner: string,
    private readonly repo: string,
    readonly oid: string,
    private readonly info?: CommitInfo,
  ) {}
  get id(): string {
    return nodeId('C', parseInt(this.oid.slice(0, 8), 16));
  }
  get abbreviatedOid(): string {
    return this.oid.slice(0, 7);
  }
  get url(): string {
    return `${this.ctx.urls.web}/${encodeURIComponent(this.owner)}/${encodeURIComponent(this.repo)}/commit/${this.oid}`;
  }
  get messageHeadline(): string {
    return (this.info?.message ?? '').split('\n')[0] ?? '';
  }
  get messageBody(): string {
    const m = this.info?.message ?? '';
    const nl = m.indexOf('\n');
    return nl < 0 ? '' : m.slice(nl + 1).replace(/^\n+/, '');
  }
  get message(): string {
    return this.info?.message ?? '';
  }
  get committedDate(): string | null {
    return this.info?.committer.date ?? null;
  }
  get authoredDate(): string | null {
    return this.info?.author.date ?? null;
  }
  authors(args: PageArgs) {
    const a = this.info?.author;
    return listConnection(a ? [{ __typename: 'GitActor', name: a.name, email: a.email, date: a.date, user: null }] : [], args);
  }
  /** No statuses or checks are kept: GitHub's answer for a commit without any is null. */
  get statusCheckRollup(): null {
    return null;
  }
}

/** A branch (GitHub's Ref) and its protection, as far as gh asks. */
export class RefNode {
  readonly __typename = 'Ref';
  constructor(
    private readonly ctx: GqlContext,
    private readonly owner: string,
    private readonly repo: string,
    readonly name: string,
    private readonly sha: string | null,
    readonly branchProtectionRule: {
      requiresStrictStatusChecks: boolean;
      requiredApprovingReviewCount: number | null;
      requiresApprovingReviews: boolean;
    } | null = null,
  ) {}
  get prefix(): string {
    return 'refs/heads/';
  }
  get target(): CommitNode | null {
    return this.sha === null ? null : new CommitNode(this.ctx, this.owner, this.repo, this.sha);
  }
}
