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
  /** The environment for a git push as this identity (its own token, or git's own credential). */
  pushEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
  /** One call; a non-2xx answer is an error whose message names the call and what to do. */
  call<T>(method: string, path: string, body?: unknown): Promise<T>;
  user(): Promise<{ login: string }>;
  repository(): Promise<{ full_name?: string; private?: boolean; default_branch?: string }>;
  /** Every pull request from `branch` into `base`, open and closed. */
  pulls(branch: string, base: string): Promise<PullRequest[]>;
  createPull(p: { title: string; head: string; base: string; body: string; draft: boolean }): Promise<PullRequest>;
  pull(n: number): Promise<PullRequest>;
  reviews(n: number): Promise<Review[]>;
  /** Always a comment review: the same account may own both sides (ARCHITECTURE §11). */
  createReview(n: number, body: string): Promise<Review>;
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
  /** Only in the single read (`GET …/pulls/{n}`); GitHub's list form has none. */
  merged?: boolean;
  draft?: boolean;
  title: string;
  head: { ref: string };
  base: { ref: string };
}

export interface Review {
  id: number;
  user: { login: string } | null;
  body: string;
  state: string;
  submitted_at?: string;
}
