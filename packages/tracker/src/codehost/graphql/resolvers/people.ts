import type { ChRepo, ChUser } from '../../domain/model.js';
import { ghTime } from '../../http/time.js';
import { ownerId } from '../../http/render.js';
import type { GqlContext } from '../context.js';
import { nodeId } from '../ids.js';

/** A code-host user (GitHub's User), or a repository owner that is no user (an Organization). */
export class ActorNode {
  readonly __typename: 'User' | 'Organization';
  constructor(
    private readonly ctx: GqlContext,
    private readonly user: ChUser | null,
    readonly login: string = user?.login ?? 'ghost',
  ) {
    this.__typename = user ? 'User' : 'Organization';
  }
  get id(): string {
    return this.user ? nodeId('U', this.user.id) : nodeId('O', ownerId(this.login));
  }
  get databaseId(): number {
    return this.user?.id ?? ownerId(this.login);
  }
  get name(): string | null {
    return this.user?.name ?? null;
  }
  get url(): string {
    return `${this.ctx.urls.web}/${encodeURIComponent(this.login)}`;
  }
  get resourcePath(): string {
    return `/${encodeURIComponent(this.login)}`;
  }
  avatarUrl(): string {
    return `${this.ctx.urls.web}/identicons/${encodeURIComponent(this.login)}.png`;
  }
  get createdAt(): string | null {
    return this.user ? ghTime(this.user.created_at) : null;
  }
  get isViewer(): boolean {
    return this.user?.id === this.ctx.viewer.id;
  }
  get isSiteAdmin(): boolean {
    return false;
  }
  get email(): string {
    return '';
  }
  get company(): null {
    return null;
  }
}

/** GitHub's CommentAuthorAssociation of a user on a repository (as REST's author_association). */
export const associationOf = (user: ChUser, repo: ChRepo): 'OWNER' | 'COLLABORATOR' =>
  user.login.toLowerCase() === repo.owner.toLowerCase() ? 'OWNER' : 'COLLABORATOR';
