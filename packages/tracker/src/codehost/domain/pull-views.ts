import { notFound } from './errors.js';
import type { CodeHost } from './host.js';
import type { ChPull } from './model.js';
import { mergeBlock } from './protection.js';
import { statsOf } from './pull-stats.js';
import { branchShas } from './refs.js';
import { storeOf } from './store-access.js';
import type { PullDetail, PullView, RepoAccess } from './views.js';

/** What every answer about a pull request is made of (pulls.ts, merges.ts, reviews.ts, the review page). */

/** The pull request of a number in the repository; not found for a number no pull request has. */
export async function pullOf(host: CodeHost, access: RepoAccess, number: number): Promise<ChPull> {
  const pull = Number.isSafeInteger(number) && number > 0 ? await storeOf(host).pulls.byNumber(access.repo.id, number) : undefined;
  if (!pull) throw notFound();
  return pull;
}

/**
 * A pull request with its users, and its branches' commits (now while open, from the database:
 * refs.ts; `shas` holds them for a listing, read at once).
 */
export async function viewOf(host: CodeHost, access: Pick<RepoAccess, 'repo' | 'owner'>, pull: ChPull, shas?: Map<string, string | null>): Promise<PullView> {
  const ids = [pull.user_id, ...(pull.merged_by_id ? [pull.merged_by_id] : [])];
  const users = new Map((await storeOf(host).users.byIds(ids)).map((u) => [u.id, u]));
  let { head_sha: headSha, base_sha: baseSha } = pull;
  if (pull.state === 'open') {
    const now = shas ?? (await branchShas(host, access.repo, [pull.head_ref, pull.base_ref]));
    // A branch deleted under an open pull request: its last known commit stands.
    headSha = now.get(pull.head_ref) ?? headSha;
    baseSha = now.get(pull.base_ref) ?? baseSha;
  }
  return {
    repo: access.repo,
    owner: access.owner,
    pull,
    author: users.get(pull.user_id)!,
    mergedBy: pull.merged_by_id ? (users.get(pull.merged_by_id) ?? null) : null,
    headSha,
    baseSha,
  };
}

/** A view with its diff's figures, its mergeability and its comment count (GET /pulls/{n}). */
export async function detailOf(host: CodeHost, view: PullView): Promise<PullDetail> {
  const { repo, pull } = view;
  // Kept per (base, head) commits: git runs only when one of them moved (pull-stats.ts).
  const stats = await statsOf(host, view);
  let mergeable: boolean | null = null;
  let mergeableState: PullDetail['mergeableState'] = 'unknown';
  let blocked: string | null = null;
  if (pull.state === 'open') {
    mergeable = stats.mergeable;
    // ARCHITECTURE §21: a protected base still missing its approvals is GitHub's "blocked".
    blocked = mergeable && !pull.draft ? await mergeBlock(host, view) : null;
    mergeableState = !mergeable ? 'dirty' : pull.draft ? 'draft' : blocked !== null ? 'blocked' : 'clean';
  }
  return {
    ...view,
    commits: stats.commits,
    additions: stats.additions,
    deletions: stats.deletions,
    changedFiles: stats.changedFiles,
    mergeable,
    mergeableState,
    blocked,
    comments: await storeOf(host).comments.count(repo.id, pull.number),
  };
}
