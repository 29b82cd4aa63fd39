import type { Generated, Kysely, Transaction } from 'kysely';

/** The code host's tables (created by the tracker's migration 0004, store/migration-0004-codehost.ts). */
export interface CodehostDatabase {
  ch_meta: { name: string; value: string };
  ch_users: ChUsersTable;
  ch_tokens: { id: Generated<number>; user_id: number; token_hash: string };
  ch_repos: ChReposTable;
  ch_collaborators: { repo_id: number; user_id: number; permission: string };
  ch_pulls: ChPullsTable;
  ch_reviews: ChReviewsTable;
  ch_comments: ChCommentsTable;
  /** Migration 0006 (store/migration-0006-branch-protection.ts). */
  ch_protections: { repo_id: number; branch: string; rules: string; updated_at: string };
  /** Migration 0007 (store/migration-0007-hooks-and-integration.ts). */
  ch_hooks: ChHooksTable;
  ch_deliveries: ChDeliveriesTable;
  ch_moves: ChMovesTable;
  /** Migration 0009 (store/migration-0009-refs.ts): each ref's commit as git last updated it. */
  ch_refs: { repo_id: number; ref: string; sha: string; updated_at: string };
}

export interface ChHooksTable {
  id: Generated<number>;
  repo_id: number;
  active: number;
  /** JSON array of event names. */
  events: string;
  url: string;
  content_type: string;
  secret: string | null;
  insecure_ssl: string;
  created_at: string;
  updated_at: string;
}

export interface ChDeliveriesTable {
  id: Generated<number>;
  hook_id: number;
  repo_id: number;
  guid: string;
  event: string;
  action: string | null;
  payload: string;
  /** queued, delivered or failed. */
  status: string;
  status_code: number | null;
  result: string | null;
  duration_ms: number | null;
  redelivery: number;
  attempts: number;
  claim: string | null;
  claim_at: string | null;
  created_at: string;
  delivered_at: string | null;
}

export interface ChMovesTable {
  id: Generated<number>;
  repo_id: number;
  event: string;
  subject: string;
  sha: string;
  issue_key: string;
  head_ref: string;
  target: string;
  /** pending, moved, failed. */
  outcome: string;
  message: string | null;
  created_at: string;
}

export type ChTx = Kysely<CodehostDatabase> | Transaction<CodehostDatabase>;

export interface ChUsersTable {
  id: Generated<number>;
  login: string;
  login_key: string;
  name: string | null;
  created_at: string;
}

export interface ChReposTable {
  id: Generated<number>;
  owner: string;
  name: string;
  owner_key: string;
  name_key: string;
  default_branch: string;
  pull_counter: Generated<number>;
  created_at: string;
  updated_at: string;
  /** GitHub's `pushed_at`: the last accepted push (migration 0009). */
  pushed_at: string | null;
  /** When ch_refs was last filled from git itself (null: never; migration 0009). */
  refs_synced_at: string | null;
}

export interface ChPullsTable {
  id: Generated<number>;
  repo_id: number;
  number: number;
  user_id: number;
  title: string;
  body: string | null;
  state: string;
  draft: number;
  head_ref: string;
  /** The issue key the head branch carries (`feature/ABC-1-…` → `ABC-1`), or null. */
  issue_key: string | null;
  base_ref: string;
  /** The head's commit when the pull request was opened, then when it was closed or merged. */
  head_sha: string;
  base_sha: string;
  /** `head\nbase` while open, NULL when closed: unique per repository (one open pull request per head and base). */
  open_key: string | null;
  merged: number;
  merged_at: string | null;
  merged_by_id: number | null;
  merge_commit_sha: string | null;
  /** The merge in progress: who runs it and since when (a claim older than a few minutes is stale). */
  merge_claim: string | null;
  merge_claim_at: string | null;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
  /** `base\nhead`: the commits `stats` was computed for (migration 0009). */
  stats_key: string | null;
  /** The pull request's figures for stats_key, JSON text (domain/pull-stats.ts). */
  stats: string | null;
}

export interface ChReviewsTable {
  id: Generated<number>;
  pull_id: number;
  user_id: number;
  state: string;
  body: string;
  commit_id: string;
  submitted_at: string;
}

export interface ChCommentsTable {
  id: Generated<number>;
  repo_id: number;
  number: number;
  user_id: number;
  body: string;
  created_at: string;
  updated_at: string;
}
