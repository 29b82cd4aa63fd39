/**
 * The code host's values, as its store reads and writes them and its domain and HTTP layers see
 * them. Like the tracker's src/model.ts this file imports nothing and sits below the three layers:
 * the store imports it from here, the domain and http name it domain/model.ts. Times are ISO-8601
 * UTC text; booleans are 0/1 as stored.
 */
export interface ChUser {
  id: number;
  login: string;
  name: string | null;
  created_at: string;
}

export interface ChRepo {
  id: number;
  owner: string;
  name: string;
  default_branch: string;
  pull_counter: number;
  created_at: string;
  updated_at: string;
  /** GitHub's `pushed_at`: the last accepted push, null before the first. */
  pushed_at: string | null;
}

export type Permission = 'read' | 'write' | 'admin';
export const PERMISSIONS: readonly Permission[] = ['read', 'write', 'admin'];

export interface ChPull {
  id: number;
  repo_id: number;
  number: number;
  user_id: number;
  title: string;
  body: string | null;
  state: 'open' | 'closed';
  draft: number;
  head_ref: string;
  issue_key: string | null;
  base_ref: string;
  head_sha: string;
  base_sha: string;
  merged: number;
  merged_at: string | null;
  merged_by_id: number | null;
  merge_commit_sha: string | null;
  merge_claim: string | null;
  merge_claim_at: string | null;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
  /** `base\nhead`: the commits `stats` was computed for, or null. */
  stats_key: string | null;
  /** The figures computed for stats_key, JSON text (domain/pull-stats.ts), or null. */
  stats: string | null;
}

export interface ChReview {
  id: number;
  pull_id: number;
  user_id: number;
  state: string;
  body: string;
  commit_id: string;
  submitted_at: string;
}

export interface ChComment {
  id: number;
  repo_id: number;
  number: number;
  user_id: number;
  body: string;
  created_at: string;
  updated_at: string;
}

export interface NewPull {
  repo_id: number;
  user_id: number;
  title: string;
  body: string | null;
  draft: boolean;
  head_ref: string;
  issue_key: string | null;
  base_ref: string;
  head_sha: string;
  base_sha: string;
  /** The figures computed at opening, for `base\nhead` (domain/pull-stats.ts). */
  stats_key?: string;
  stats?: string;
}

export interface PullPatch {
  title?: string;
  body?: string | null;
  base_ref?: string;
  base_sha?: string;
}

export interface PullListQuery {
  state: 'open' | 'closed' | 'all';
  head?: string | undefined;
  base?: string | undefined;
  sort: 'created' | 'updated' | 'popularity' | 'long-running';
  direction: 'asc' | 'desc';
  offset: number;
  limit: number;
}
