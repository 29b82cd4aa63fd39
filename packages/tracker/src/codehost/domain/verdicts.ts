import { verdictOf } from '@jst/protocol';
import type { CodeHost } from './host.js';
import type { ChReview, ChUser } from './model.js';
import { storeOf } from './store-access.js';
import type { PullView } from './views.js';

/**
 * A review's verdict as the person's pages show it (ARCHITECTURE §22): GitHub's APPROVED and
 * CHANGES_REQUESTED, and a COMMENT review whose body's first line is jst's marker (`APPROVED — `,
 * `CHANGES REQUESTED — `, @jst/protocol) counts as that verdict, since an agent that may not
 * approve (one's own pull request, a token without write) still states one.
 */

export type VerdictState = 'approved' | 'changes_requested' | 'commented' | 'dismissed' | 'pending';

export function verdictOfReview(review: Pick<ChReview, 'state' | 'body'>): VerdictState {
  switch (review.state) {
    case 'APPROVED':
      return 'approved';
    case 'CHANGES_REQUESTED':
      return 'changes_requested';
    case 'DISMISSED':
      return 'dismissed';
    case 'PENDING':
      return 'pending';
    default: {
      const v = verdictOf(review.body);
      return v === null ? 'commented' : v.kind === 'approved' ? 'approved' : 'changes_requested';
    }
  }
}

/** A reviewer's latest deciding verdict (approved or changes requested) and the review that said it. */
export interface LatestVerdict {
  user: ChUser;
  verdict: 'approved' | 'changes_requested';
  review: ChReview;
}

/**
 * Each reviewer's latest deciding verdict on a pull request (not its author's; a dismissed review
 * takes its reviewer's verdict back), the viewer's latest review, and every review counted.
 */
export interface Verdicts {
  latest: LatestVerdict[];
  /** The commit the viewer's latest review was made on, or null when the viewer has not reviewed. */
  viewerReviewedSha: string | null;
}

export async function verdictsOf(host: CodeHost, view: PullView, viewer: ChUser): Promise<Verdicts> {
  const store = storeOf(host);
  const reviews = await store.reviews.all(view.pull.id);
  const byUser = new Map<number, ChReview | null>();
  let viewerReviewedSha: string | null = null;
  for (const r of reviews) {
    if (r.user_id === viewer.id && r.state !== 'PENDING') viewerReviewedSha = r.commit_id;
    if (r.user_id === view.pull.user_id) continue;
    const v = verdictOfReview(r);
    if (v === 'approved' || v === 'changes_requested') byUser.set(r.user_id, r);
    else if (v === 'dismissed') byUser.set(r.user_id, null);
  }
  const deciding = [...byUser.values()].filter((r): r is ChReview => r !== null);
  const users = new Map((await store.users.byIds(deciding.map((r) => r.user_id))).map((u) => [u.id, u]));
  const latest = deciding.flatMap((review) => {
    const user = users.get(review.user_id);
    const verdict = verdictOfReview(review);
    return user && verdict !== 'commented' && verdict !== 'dismissed' && verdict !== 'pending' ? [{ user, verdict, review }] : [];
  });
  return { latest, viewerReviewedSha };
}

/** A pull request listing's review badge: changes requested by anyone's latest verdict, else approved, else none. */
export function listBadgeOf(v: Verdicts): 'approved' | 'changes_requested' | null {
  if (v.latest.some((l) => l.verdict === 'changes_requested')) return 'changes_requested';
  return v.latest.some((l) => l.verdict === 'approved') ? 'approved' : null;
}
