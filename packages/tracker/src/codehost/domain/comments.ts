import { announce } from './events.js';
import { custom, invalidFields } from './errors.js';
import type { CodeHost } from './host.js';
import { COMMENTS_MAX } from './limits.js';
import { pullOf, viewOf } from './pull-views.js';
import { storeOf } from './store-access.js';
import type { CommentView, RepoAccess } from './views.js';

/** A pull request's conversation: GitHub's issue comments, on the pull request's number (the code host has no issues of its own). */

export async function listComments(
  host: CodeHost,
  access: RepoAccess,
  number: number,
  offset: number,
  limit: number,
  since?: string,
): Promise<{ comments: CommentView[]; total: number }> {
  const store = storeOf(host);
  await pullOf(host, access, number);
  const { rows, total } = await store.comments.page(access.repo.id, number, offset, limit, since);
  const users = new Map((await store.users.byIds(rows.map((r) => r.user_id))).map((u) => [u.id, u]));
  return { comments: rows.map((comment) => ({ comment, user: users.get(comment.user_id)! })), total };
}

export async function createComment(host: CodeHost, access: RepoAccess, number: number, body: string): Promise<CommentView> {
  const store = storeOf(host);
  const pull = await pullOf(host, access, number);
  if ((await store.comments.count(access.repo.id, number)) >= COMMENTS_MAX) {
    throw invalidFields([custom(`This pull request already has ${COMMENTS_MAX} comments, the most one may carry.`, 'IssueComment')]);
  }
  const now = host.now();
  const comment = await store.comments.insert({ repo_id: access.repo.id, number, user_id: access.user.id, body, created_at: now, updated_at: now });
  const made = { comment, user: access.user };
  await announce(host, { kind: 'issue_comment', action: 'created', access, view: await viewOf(host, access, pull), comment: made });
  return made;
}
