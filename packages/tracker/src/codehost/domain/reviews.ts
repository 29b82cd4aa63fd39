import { announce } from './events.js';
import { refused } from './errors.js';
import type { CodeHost } from './host.js';
import { REVIEWS_MAX } from './limits.js';
import { pullOf, viewOf } from './pull-views.js';
import { storeOf } from './store-access.js';
import type { PullView, RepoAccess, ReviewView } from './views.js';

/** What a review takes (the HTTP edge has checked the types, the event's words and the size). */
export interface CreateReview {
  event?: 'APPROVE' | 'REQUEST_CHANGES' | 'COMMENT' | null | undefined;
  body?: string | null | undefined;
  commit_id?: string | null | undefined;
}

export async function listReviews(
  host: CodeHost,
  access: RepoAccess,
  number: number,
  offset: number,
  limit: number,
): Promise<{ view: PullView; reviews: ReviewView[]; total: number }> {
  const store = storeOf(host);
  const view = await viewOf(host, access, await pullOf(host, access, number));
  const { rows, total } = await store.reviews.page(view.pull.id, offset, limit);
  const users = new Map((await store.users.byIds(rows.map((r) => r.user_id))).map((u) => [u.id, u]));
  return { view, reviews: rows.map((review) => ({ review, user: users.get(review.user_id)! })), total };
}

/** A review: GitHub's refusals in its own sentences (one's own pull request, a missing reason, too many). */
export async function createReview(host: CodeHost, access: RepoAccess, number: number, input: CreateReview): Promise<{ view: PullView; review: ReviewView }> {
  const store = storeOf(host);
  const body = input.body ?? '';
  const view = await viewOf(host, access, await pullOf(host, access, number));
  const event = input.event ?? null;
  const own = view.pull.user_id === access.user.id;
  if (event === 'APPROVE' && own) throw refused(['Can not approve your own pull request']);
  if (event === 'REQUEST_CHANGES' && own) throw refused(['Can not request changes on your own pull request']);
  // GitHub's words for REQUEST_CHANGES; a COMMENT review needs a body too (its documentation).
  if (event === 'REQUEST_CHANGES' && body.trim() === '') throw refused(['You need to leave a comment indicating the requested changes.']);
  if (event === 'COMMENT' && body.trim() === '') throw refused(['You need to leave a comment: a COMMENT review needs a body.']);
  if ((await store.reviews.count(view.pull.id)) >= REVIEWS_MAX)
    throw refused([`This pull request already has ${REVIEWS_MAX} reviews, the most one may carry.`]);
  const state = event === 'APPROVE' ? 'APPROVED' : event === 'REQUEST_CHANGES' ? 'CHANGES_REQUESTED' : event === 'COMMENT' ? 'COMMENTED' : 'PENDING';
  const commitId = typeof input.commit_id === 'string' && input.commit_id !== '' ? input.commit_id : view.headSha;
  const review = await store.reviews.insert({ pull_id: view.pull.id, user_id: access.user.id, state, body, commit_id: commitId, submitted_at: host.now() });
  const made = { view, review: { review, user: access.user } };
  if (state !== 'PENDING') await announce(host, { kind: 'pull_request_review', action: 'submitted', access, ...made });
  return made;
}
