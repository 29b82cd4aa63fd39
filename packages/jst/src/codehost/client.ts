import { CodehostError, DEFAULT_LIMITS, sendBounded, type FetchLike, type HttpLimits } from './http.js';

export interface Repo { owner: string; name: string }

export interface PullRequest {
  number: number;
  html_url: string;
  state: 'open' | 'closed';
  merged: boolean;
  draft?: boolean;
  title: string;
  head: { ref: string };
  base: { ref: string };
}

export interface Review { id: number; user: { login: string } | null; body: string; state: string; submitted_at?: string }

export interface CodehostClientOptions {
  apiUrl: string;
  token: string;
  repo: Repo;
  fetch?: FetchLike | undefined;
  limits?: Partial<HttpLimits> | undefined;
}

/**
 * GitHub's REST shape, exactly the calls of ARCHITECTURE §11 (plus the repository read the status
 * check makes). Every call goes through `sendBounded`; `calls` counts them for the benchmark.
 */
export class CodehostClient {
  calls = 0;
  readonly repo: Repo;
  private readonly api: string;
  private readonly doFetch: FetchLike;
  private readonly limits: HttpLimits;

  constructor(private readonly o: CodehostClientOptions) {
    this.repo = o.repo;
    this.api = o.apiUrl.replace(/\/+$/, '');
    this.doFetch = o.fetch ?? ((u, init) => globalThis.fetch(u, init));
    this.limits = { ...DEFAULT_LIMITS, ...o.limits };
  }

  get slug(): string { return `${this.repo.owner}/${this.repo.name}`; }

  private get base(): string { return `/repos/${encodeURIComponent(this.repo.owner)}/${encodeURIComponent(this.repo.name)}`; }

  /** One call; a non-2xx answer becomes a CodehostError whose message names the call and what to do. */
  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    this.calls++;
    const label = `${method} ${path.split('?')[0]}`;
    const headers: Record<string, string> = {
      Authorization: `Bearer ${this.o.token}`,
      Accept: 'application/vnd.github+json',
      // GitHub refuses requests without a User-Agent; the version header pins the response shape.
      'User-Agent': 'jst',
      'X-GitHub-Api-Version': '2022-11-28',
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    };
    const res = await sendBounded(this.doFetch, `${this.api}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }, label, this.limits);
    let json: unknown = null;
    try { json = res.text === '' ? null : JSON.parse(res.text); } catch { /* a non-JSON error page: the status says enough */ }
    if (res.status >= 200 && res.status < 300) return json as T;
    throw failure(label, res.status, res.headers, json, this.slug);
  }

  user(): Promise<{ login: string }> { return this.call('GET', '/user'); }

  repository(): Promise<{ full_name?: string; private?: boolean; default_branch?: string }> { return this.call('GET', this.base); }

  /** Every pull request from `branch` into `base`, open and closed. */
  pulls(branch: string, base: string): Promise<PullRequest[]> {
    const q = new URLSearchParams({ head: `${this.repo.owner}:${branch}`, base, state: 'all' });
    return this.call('GET', `${this.base}/pulls?${q.toString()}`);
  }

  createPull(p: { title: string; head: string; base: string; body: string; draft: boolean }): Promise<PullRequest> {
    return this.call('POST', `${this.base}/pulls`, p);
  }

  pull(n: number): Promise<PullRequest> { return this.call('GET', `${this.base}/pulls/${n}`); }

  reviews(n: number): Promise<Review[]> { return this.call('GET', `${this.base}/pulls/${n}/reviews`); }

  /** Always `event: "COMMENT"`: the same account may own both sides (ARCHITECTURE §11). */
  createReview(n: number, body: string): Promise<Review> { return this.call('POST', `${this.base}/pulls/${n}/reviews`, { event: 'COMMENT', body }); }

  commentOnIssue(n: number, body: string): Promise<{ id: number; html_url?: string }> { return this.call('POST', `${this.base}/issues/${n}/comments`, { body }); }
}

function failure(label: string, status: number, headers: { get(name: string): string | null }, json: unknown, slug: string): CodehostError {
  const said = typeof (json as { message?: unknown } | null)?.message === 'string' ? `: ${(json as { message: string }).message}` : '';
  const detail = Array.isArray((json as { errors?: unknown } | null)?.errors)
    ? ((json as { errors: { message?: string }[] }).errors.map((e) => e.message).filter(Boolean).join('; '))
    : '';
  const what = `${label} answered HTTP ${status}${said}${detail ? ` (${detail})` : ''}`;
  if (status === 401) return new CodehostError('unauthorized', status, what, 'The code host refused CODEHOST_PAT_TOKEN: it is wrong, expired or revoked; put a new token in CODEHOST_PAT_TOKEN in .jst/local.env');
  if (status === 429 || (status === 403 && (headers.get('x-ratelimit-remaining') === '0' || headers.get('retry-after') !== null))) {
    return new CodehostError('rate_limited', status, what, 'The code host is rate limiting this token: wait until it resets, then rerun (nothing further was sent)');
  }
  if (status === 403) return new CodehostError('forbidden', status, what, `CODEHOST_PAT_TOKEN may not do this on ${slug}: grant it Pull requests (read and write) and Contents access`);
  if (status === 404) return new CodehostError('not_found', status, what, `${slug} or the pull request was not found with CODEHOST_PAT_TOKEN: check CODEHOST_REPO / origin and the token's repository access`);
  if (status === 409 || status === 422) return new CodehostError('conflict', status, what, 'The code host refused the change as it stands (an existing pull request, no commits between the branches, or a branch it does not know): check the branches, then rerun');
  return new CodehostError('http_error', status, what);
}

export { CodehostError };
