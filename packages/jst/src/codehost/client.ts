import type { Codehost, PullRequest, Repo, Review, ReviewEvent } from '../core/codehost.js';
import { quoted, terminalText } from '../core/text.js';
import { CodehostError, DEFAULT_LIMITS, nodeFetch, sendBounded, type FetchLike, type HttpLimits } from './http.js';

export type { PullRequest, Repo, Review, ReviewEvent } from '../core/codehost.js';

export interface CodehostClientOptions {
  apiUrl: string;
  token: string;
  /** The setting the token was read from, for the messages (ARCHITECTURE §10); default CODEHOST_PAT_TOKEN. */
  tokenSetting?: string | undefined;
  repo: Repo;
  fetch?: FetchLike | undefined;
  limits?: Partial<HttpLimits> | undefined;
}

/**
 * GitHub's REST shape, exactly the calls of ARCHITECTURE §11 (plus the repository read the status
 * check makes). Every call goes through `sendBounded`; `calls` counts them for the benchmark.
 */
/** GitHub's largest page. */
const PAGE = 100;

export class CodehostClient implements Codehost {
  calls = 0;
  readonly repo: Repo;
  private readonly api: string;
  private readonly doFetch: FetchLike;
  private readonly limits: HttpLimits;

  constructor(private readonly o: CodehostClientOptions) {
    this.repo = o.repo;
    this.api = o.apiUrl.replace(/\/+$/, '');
    this.doFetch = o.fetch ?? nodeFetch;
    this.limits = { ...DEFAULT_LIMITS, ...o.limits };
  }

  /** The setting this client's token came from (ARCHITECTURE §10). */
  get tokenSetting(): string {
    return this.o.tokenSetting ?? 'CODEHOST_PAT_TOKEN';
  }

  get slug(): string {
    return `${this.repo.owner}/${this.repo.name}`;
  }

  private get base(): string {
    return `/repos/${encodeURIComponent(this.repo.owner)}/${encodeURIComponent(this.repo.name)}`;
  }

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
    const res = await sendBounded(
      this.doFetch,
      `${this.api}${path}`,
      { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) },
      label,
      this.limits,
    );
    let json: unknown = null;
    try {
      json = res.text === '' ? null : JSON.parse(res.text);
    } catch {
      /* a non-JSON error page: the status says enough */
    }
    if (res.status >= 200 && res.status < 300) return json as T;
    throw failure(label, res.status, res.headers, json, this.slug, this.o.tokenSetting ?? 'CODEHOST_PAT_TOKEN');
  }

  /** This token's account: asked once per client (one token, one login), a failed answer not kept. */
  user(): Promise<{ login: string }> {
    if (!this.me) {
      const asked = this.askUser();
      this.me = asked;
      asked.catch(() => {
        if (this.me === asked) this.me = undefined;
      });
    }
    return this.me;
  }
  private me: Promise<{ login: string }> | undefined;

  private async askUser(): Promise<{ login: string }> {
    const label = 'GET /user';
    const u = objectOf(label, await this.call('GET', '/user'), 'a user');
    if (typeof u.login !== 'string' || printable(u.login) === '') throw malformed(label, 'a user without a login');
    return { login: printable(u.login) };
  }

  async repository(): Promise<{ full_name?: string; private?: boolean; default_branch?: string }> {
    const r = objectOf(`GET ${this.base}`, await this.call('GET', this.base), 'a repository');
    return {
      ...(typeof r.full_name === 'string' ? { full_name: printable(r.full_name) } : {}),
      ...(typeof r.private === 'boolean' ? { private: r.private } : {}),
      ...(typeof r.default_branch === 'string' ? { default_branch: printable(r.default_branch) } : {}),
    };
  }

  /** Every pull request from `branch` into `base`, open and closed. */
  async pulls(branch: string, base: string): Promise<PullRequest[]> {
    const q = new URLSearchParams({ head: `${this.repo.owner}:${branch}`, base, state: 'all' });
    const label = `GET ${this.base}/pulls`;
    return listOf(label, await this.call('GET', `${this.base}/pulls?${q.toString()}`)).map((p) => pullOf(label, p));
  }

  async pullsInto(base: string): Promise<Map<string, PullRequest[]> | null> {
    const q = new URLSearchParams({ base, state: 'all', per_page: String(PAGE) });
    const label = `GET ${this.base}/pulls`;
    const list = listOf(label, await this.call('GET', `${this.base}/pulls?${q.toString()}`));
    if (list.length >= PAGE) return null;
    const out = new Map<string, PullRequest[]>();
    for (const v of list) {
      const p = pullOf(label, v);
      // What GitHub's head=owner:branch filter matches: a fork's branch of the same name is not ours.
      const headLabel = typeof v === 'object' && v !== null && typeof (v as Json).head === 'object' ? ((v as Json).head as Json | null)?.label : undefined;
      if (typeof headLabel !== 'string') return null;
      if (headLabel !== `${this.repo.owner}:${p.head.ref}`) continue;
      out.set(p.head.ref, [...(out.get(p.head.ref) ?? []), p]);
    }
    return out;
  }

  async createPull(p: { title: string; head: string; base: string; body: string; draft: boolean }): Promise<PullRequest> {
    return pullOf(`POST ${this.base}/pulls`, await this.call('POST', `${this.base}/pulls`, p));
  }

  async pull(n: number): Promise<PullRequest> {
    return pullOf(`GET ${this.base}/pulls/${n}`, await this.call('GET', `${this.base}/pulls/${n}`));
  }

  async reviews(n: number): Promise<Review[]> {
    const label = `GET ${this.base}/pulls/${n}/reviews`;
    return listOf(label, await this.call('GET', `${this.base}/pulls/${n}/reviews`)).map((r) => reviewOf(label, r));
  }

  /**
   * A review: `APPROVE` / `REQUEST_CHANGES` when the reviewer is not the author, else `COMMENT`
   * (GitHub refuses one's own approval; ARCHITECTURE §11, §21). The body carries the marker either way.
   */
  async createReview(n: number, body: string, event: ReviewEvent = 'COMMENT'): Promise<Review> {
    const label = `POST ${this.base}/pulls/${n}/reviews`;
    return reviewOf(label, await this.call('POST', `${this.base}/pulls/${n}/reviews`, { event, body }));
  }

  async commentOnIssue(n: number, body: string): Promise<{ id: number; html_url?: string }> {
    const label = `POST ${this.base}/issues/${n}/comments`;
    const c = objectOf(label, await this.call('POST', `${this.base}/issues/${n}/comments`, { body }), 'a comment');
    if (!positive(c.id)) throw malformed(label, 'a comment without an id');
    const url = httpUrl(c.html_url);
    return { id: c.id, ...(url ? { html_url: url } : {}) };
  }
}

/*
 * ARCHITECTURE §11: every answer is checked before it is used. A pull request without a number
 * or an http(s) URL, a list that is not a list, an object that is not one: exit 1 naming the call
 * (as `http_error`). Text kept from an answer is printed with control characters removed.
 */

type Json = Record<string, unknown>;

function malformed(label: string, what: string): CodehostError {
  return new CodehostError(
    'http_error',
    null,
    `${label} answered ${what}`,
    'Check that CODEHOST_API_URL is a GitHub-shaped REST API (https://api.github.com, or https://HOST/api/v3 for GitHub Enterprise and jst-tracker)',
  );
}

/** `s` on one line without control characters: a name, a branch, a title kept from an answer. */
export function printable(s: string): string {
  return terminalText(s.replace(/[\r\n\t]/g, ''));
}

/** A number as GitHub gives ids and pull request numbers: a positive integer. */
/** A user object's login, printable, or null. */
const loginOf = (v: unknown): string | null => {
  const login = typeof v === 'object' && v !== null ? (v as Json).login : undefined;
  return typeof login === 'string' && login !== '' ? printable(login) : null;
};
const positive = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) > 0;

/** The states of a pull request review in GitHub's REST description. */
const REVIEW_STATES = new Set(['APPROVED', 'CHANGES_REQUESTED', 'COMMENTED', 'DISMISSED', 'PENDING']);
const REVIEW_STATE_LIST = [...REVIEW_STATES].join(', ');

function objectOf(label: string, v: unknown, what: string): Json {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw malformed(label, `something that is not ${what} (a JSON object)`);
  return v as Json;
}

function listOf(label: string, v: unknown): unknown[] {
  if (!Array.isArray(v)) throw malformed(label, 'a list that is not a list (no JSON array)');
  return v;
}

function httpUrl(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  try {
    const u = new URL(v);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : null;
  } catch {
    return null;
  }
}

function refOf(v: unknown): { ref: string } | null {
  const ref = typeof v === 'object' && v !== null ? (v as Json).ref : undefined;
  return typeof ref === 'string' && ref !== '' ? { ref: printable(ref) } : null;
}

function pullOf(label: string, v: unknown): PullRequest {
  const p = objectOf(label, v, 'a pull request');
  if (!positive(p.number)) throw malformed(label, 'a pull request without a number');
  const url = httpUrl(p.html_url);
  if (url === null) throw malformed(label, `pull request #${String(p.number)} without an http(s) URL`);
  if (p.state !== 'open' && p.state !== 'closed') throw malformed(label, `pull request #${String(p.number)} with a state that is neither open nor closed`);
  if (p.merged !== undefined && typeof p.merged !== 'boolean') throw malformed(label, `pull request #${String(p.number)} whose "merged" is not true or false`);
  const headRef = refOf(p.head);
  const sha = typeof p.head === 'object' && p.head !== null ? (p.head as Json).sha : undefined;
  const head = headRef && typeof sha === 'string' && /^[0-9a-f]{40,64}$/.test(sha) ? { ...headRef, sha } : headRef;
  const base = refOf(p.base);
  if (!head || !base) throw malformed(label, `pull request #${String(p.number)} without its head and base branches`);
  return {
    number: p.number,
    html_url: url,
    state: p.state,
    // The list form carries no `merged` (the single read does) but GitHub's `merged_at` (null until
    // merged): `merged` from that when given, else left out, not guessed.
    ...(typeof p.merged === 'boolean'
      ? { merged: p.merged }
      : p.merged_at === null || (typeof p.merged_at === 'string' && p.merged_at !== '')
        ? { merged: p.merged_at !== null }
        : {}),
    ...(typeof p.draft === 'boolean' ? { draft: p.draft } : {}),
    title: typeof p.title === 'string' ? printable(p.title) : '',
    head,
    base,
    ...(loginOf(p.user) === null ? {} : { user: { login: loginOf(p.user)! } }),
  };
}

function reviewOf(label: string, v: unknown): Review {
  const r = objectOf(label, v, 'a review');
  if (!positive(r.id)) throw malformed(label, 'a review without an id');
  if (typeof r.state !== 'string' || !REVIEW_STATES.has(r.state))
    throw malformed(label, `review ${String(r.id)} with a state GitHub does not give (${REVIEW_STATE_LIST})`);
  if (r.body !== undefined && r.body !== null && typeof r.body !== 'string') throw malformed(label, `review ${String(r.id)} whose body is not text`);
  const user =
    typeof r.user === 'object' && r.user !== null && typeof (r.user as Json).login === 'string' ? { login: printable((r.user as Json).login as string) } : null;
  return {
    id: r.id,
    user,
    body: typeof r.body === 'string' ? r.body : '',
    state: r.state,
    ...(typeof r.submitted_at === 'string' ? { submitted_at: r.submitted_at } : {}),
    ...(typeof r.commit_id === 'string' && /^[0-9a-f]{40,64}$/.test(r.commit_id) ? { commit_id: r.commit_id } : {}),
  };
}

function failure(label: string, status: number, headers: { get(name: string): string | null }, json: unknown, slug: string, setting: string): CodehostError {
  // The code host's own words, each cut to QUOTE_MAX characters and said once (ARCHITECTURE §11).
  const body = typeof json === 'object' && json !== null ? (json as { message?: unknown; errors?: unknown }) : {};
  const message = typeof body.message === 'string' ? quoted(body.message) : '';
  const details = Array.isArray(body.errors)
    ? body.errors
        .map((e: unknown) =>
          typeof e === 'object' && e !== null && typeof (e as { message?: unknown }).message === 'string' ? quoted((e as { message: string }).message) : '',
        )
        .filter((m) => m !== '' && m !== message)
    : [];
  const detail = details.length ? quoted(details.join('; ')) : '';
  const what = `${label} answered HTTP ${status}${message ? `: ${message}` : ''}${detail ? ` (${detail})` : ''}`;
  if (status === 401)
    return new CodehostError(
      'unauthorized',
      status,
      what,
      `The code host refused ${setting}: it is wrong, expired or revoked; put a new token in ${setting} in .jst/local.env`,
    );
  if (status === 429 || (status === 403 && (headers.get('x-ratelimit-remaining') === '0' || headers.get('retry-after') !== null))) {
    return new CodehostError(
      'rate_limited',
      status,
      what,
      'The code host is rate limiting this token: wait until it resets, then rerun (nothing further was sent)',
    );
  }
  if (status === 403)
    return new CodehostError('forbidden', status, what, `${setting} may not do this on ${slug}: grant it Pull requests (read and write) and Contents access`);
  if (status === 404)
    return new CodehostError(
      'not_found',
      status,
      what,
      `${slug} or the pull request was not found with ${setting}: check CODEHOST_REPO / origin and the token's repository access`,
    );
  if (status === 409 || status === 422)
    return new CodehostError(
      'conflict',
      status,
      what,
      'The code host refused the change as it stands (an existing pull request, no commits between the branches, or a branch it does not know): check the branches, then rerun',
    );
  return new CodehostError('http_error', status, what);
}

export { CodehostError };
