import type { ChComment, ChPull, ChRepo, ChReview, ChUser, Permission } from './model.js';

/** What the code host's domain functions (pulls.ts, reviews.ts, comments.ts, …) answer: rows with the users and commits every answer about them shows. */

/** The caller's standing on a repository it may read. */
export interface RepoAccess {
  repo: ChRepo;
  owner: ChUser | null;
  permission: Permission;
  user: ChUser;
}

/** A pull request with what every answer about it shows. */
export interface PullView {
  repo: ChRepo;
  owner: ChUser | null;
  pull: ChPull;
  author: ChUser;
  mergedBy: ChUser | null;
  /** The head's and base's commits: the branches' now while open, as recorded when closed. */
  headSha: string;
  baseSha: string;
}

/** A pull request with its diff's figures and mergeability (GET /pulls/{n}). */
export interface PullDetail extends PullView {
  commits: number;
  additions: number;
  deletions: number;
  changedFiles: number;
  mergeable: boolean | null;
  mergeableState: 'clean' | 'dirty' | 'draft' | 'blocked' | 'unknown';
  /** Why a protected base refuses the merge yet (GitHub's sentence), or null. */
  blocked: string | null;
  comments: number;
}

export interface ReviewView {
  review: ChReview;
  user: ChUser;
}
export interface CommentView {
  comment: ChComment;
  user: ChUser;
}

/** A pull request of an issue key, for the board's development panel (one injected function). */
export interface IssuePull {
  repo: string;
  number: number;
  title: string;
  state: 'open' | 'closed';
  merged: boolean;
  head: string;
  base: string;
  htmlUrl: string;
}
