/**
 * The code host as the commands see it (ARCHITECTURE §11): one role's identity on one repository.
 * codehost/ implements it over GitHub's REST shape; the context hands it out (`ctx.codehost(role)`).
 */
export interface Codehost {
  readonly repo: Repo;
  /** `owner/name`. */
  readonly slug: string;
  /** The setting this identity's token came from (ARCHITECTURE §10). */
  readonly tokenSetting: string;
  /** One call; a non-2xx answer is an error whose message names the call and what to do. */
  call<T>(method: string, path: string, body?: unknown): Promise<T>;
  user(): Promise<{ login: string }>;
  repository(): Promise<{ full_name?: string; private?: boolean; default_branch?: string }>;
  /** Every pull request from `branch` into `base`, open and closed. */
  pulls(branch: string, base: string): Promise<PullRequest[]>;
  /**
   * Every pull request into `base`, open and closed, by head branch of this repository, in one read;
   * null when one page (100) does not hold them all or an answer does not name its head's owner.
   */
  pullsInto?(base: string): Promise<Map<string, PullRequest[]> | null>;
  createPull(p: { title: string; head: string; base: string; body: string; draft: boolean }): Promise<PullRequest>;
  pull(n: number): Promise<PullRequest>;
  reviews(n: number): Promise<Review[]>;
  /** COMMENT by default; APPROVE / REQUEST_CHANGES when the reviewer is not the author (ARCHITECTURE §11, §21). */
  createReview(n: number, body: string, event?: ReviewEvent): Promise<Review>;
  commentOnIssue(n: number, body: string): Promise<{ id: number; html_url?: string }>;
}

export interface Repo {
  owner: string;
  name: string;
}

export interface PullRequest {
  number: number;
  html_url: string;
  state: 'open' | 'closed';
  /** The single read's `merged`; in GitHub's list form taken from `merged_at` (null until merged); absent when neither is given. */
  merged?: boolean;
  draft?: boolean;
  title: string;
  head: { ref: string; sha?: string };
  base: { ref: string };
  /** The author's login, when the answer names one (GitHub's pull requests do). */
  user?: { login: string };
}

/** A review's event: APPROVE / REQUEST_CHANGES only when the reviewer is not the author (ARCHITECTURE §21). */
export type ReviewEvent = 'APPROVE' | 'REQUEST_CHANGES' | 'COMMENT';

export interface Review {
  id: number;
  user: { login: string } | null;
  body: string;
  state: string;
  submitted_at?: string;
  /** The head commit the review was left on. */
  commit_id?: string;
}
