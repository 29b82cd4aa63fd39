import { TrackerHttpError, TrackerResponseError, TrackerShapeError } from './errors.js';
import { DEFAULT_TIMEOUT_MS } from './bounded.js';
import { Transport, type HttpRequest, type HttpResponse } from './transport.js';
import { retryAfterMs } from '@jst/protocol';
import { apiBase, siteUrl } from '@jst/url';
import type {
  Comment,
  CommentPage,
  CreatedIssue,
  Issue,
  IssueFields,
  Priority,
  ProjectPage,
  ProjectStatuses,
  SearchResults,
  Transition,
  User,
} from './types.js';

export interface CloudIdCache {
  get(siteHost: string): string | undefined;
  set(siteHost: string, cloudId: string): void;
}

export interface ClientOptions {
  /** TRACKER_ACCOUNT_URL with any scheme stripped, e.g. `acme.atlassian.net` or `127.0.0.1:8080`. */
  siteHost: string;
  /** TRACKER_GATEWAY_URL; default https://api.atlassian.com. */
  gatewayUrl?: string | undefined;
  email: string;
  token: string;
  cloudIdCache?: CloudIdCache | undefined;
  /** The whole of each request (connect, headers, body); default DEFAULT_TIMEOUT_MS. */
  timeoutMs?: number | undefined;
  /** The largest answer read; default DEFAULT_MAX_RESPONSE_BYTES. */
  maxResponseBytes?: number | undefined;
  /** Retries of idempotent calls answered 429/503: at most `maxRetries`, waiting at most `maxWaitMs` in all. */
  retry?: { maxRetries: number; maxWaitMs: number } | undefined;
  transport?: Transport | undefined;
}

export interface RawResponse {
  status: number;
  body: unknown;
  text: string;
  headers: Record<string, string | string[] | undefined>;
  /** The body is not empty and not JSON: for a 2xx a failure (TrackerResponseError), never a success. */
  notJson: boolean;
}

/** The cloudId in use, whether it came from the cache (and so may be stale), and its `{api_base}`. */
interface Resolved {
  cloudId: string;
  fromCache: boolean;
  base: string;
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

/**
 * The typed REST v3 client: Basic authentication per request for one role's credential
 * (spec §5 rules 1-3), no session, JSON in and out.
 */
export class TrackerClient {
  readonly transport: Transport;
  private readonly authorization: string;
  private resolved: Resolved | undefined;
  /** The one tenant_info re-read this client may make after a 404 (see `refreshAfter404`). */
  private refreshing: Promise<Resolved> | undefined;

  constructor(readonly options: ClientOptions) {
    this.transport = options.transport ?? new Transport();
    this.authorization = `Basic ${Buffer.from(`${options.email}:${options.token}`, 'utf8').toString('base64')}`;
  }

  get email(): string {
    return this.options.email;
  }

  /**
   * spec §4 endpoint 1: no authentication. A fresh answer is the truth about the site, so it
   * also replaces the cloudId this client and the cache hold (a tracker may have been replaced).
   */
  async tenantInfo(): Promise<{ cloudId: string }> {
    const url = `${siteUrl(this.options.siteHost, this.options.gatewayUrl)}/_edge/tenant_info`;
    const res = await this.transport.send({ method: 'GET', url, headers: { Accept: 'application/json' }, ...this.bounds() });
    const body = parse(res.text).value as { cloudId?: unknown } | undefined;
    if (res.status !== 200 || typeof body?.cloudId !== 'string') {
      throw new TrackerHttpError(
        'GET',
        url,
        res.status,
        [`tenant_info did not give a cloudId${res.status === 200 ? ' (unexpected body)' : ''}: is TRACKER_ACCOUNT_URL the tracker's site host?`],
        {},
      );
    }
    this.use(body.cloudId, false);
    if (this.options.cloudIdCache?.get(this.options.siteHost) !== body.cloudId) this.options.cloudIdCache?.set(this.options.siteHost, body.cloudId);
    return { cloudId: body.cloudId };
  }

  /** spec §4 client rule 1: the cloudId (cached per site host) → `{api_base}`. */
  async apiBase(): Promise<string> {
    return (await this.resolve()).base;
  }

  private async resolve(): Promise<Resolved> {
    if (this.resolved) return this.resolved;
    const cached = this.options.cloudIdCache?.get(this.options.siteHost);
    if (cached) return this.use(cached, true);
    return this.use((await this.tenantInfo()).cloudId, false);
  }

  private use(cloudId: string, fromCache: boolean): Resolved {
    this.resolved = { cloudId, fromCache, base: apiBase(this.options.gatewayUrl ?? 'https://api.atlassian.com', cloudId) };
    return this.resolved;
  }

  /**
   * A cached cloudId goes stale when the tracker at the same address is replaced: every gateway
   * call then answers 404. On a 404 made with a cloudId from the cache, tenant_info is read again,
   * at most once per client (concurrent calls share that one read). Returns the new resolution when
   * the cloudId changed, so the caller may retry once; null when it is the same (a genuine 404).
   */
  private async refreshAfter404(used: Resolved): Promise<Resolved | null> {
    if (!used.fromCache) return null;
    // A failed re-read is not remembered: the next 404 may try again (still once per request).
    this.refreshing ??= this.tenantInfo().then(
      ({ cloudId }) => this.use(cloudId, false),
      (error: unknown) => {
        this.refreshing = undefined;
        throw error;
      },
    );
    const fresh = await this.refreshing;
    return fresh.cloudId === used.cloudId ? null : fresh;
  }

  /** One authenticated call to `{api_base}<path>`; never throws on an HTTP status. */
  async raw(method: string, path: string, body?: unknown): Promise<RawResponse> {
    const m = method.toUpperCase();
    const rest = path.startsWith('/') ? path : `/${path}`;
    const headers: Record<string, string> = { Accept: 'application/json', Authorization: this.authorization };
    const text = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    if (text !== undefined) headers['Content-Type'] = 'application/json';
    const used = await this.resolve();
    const res = await this.send(m, `${used.base}${rest}`, headers, text);
    if (res.status !== 404) return res;
    // A request to an unknown cloudId reached no site, so repeating it is safe even for a POST.
    const fresh = await this.refreshAfter404(used);
    return fresh === null ? res : this.send(m, `${fresh.base}${rest}`, headers, text);
  }

  /** One request with the 429/503 retries of idempotent calls. */
  private async send(m: string, url: string, headers: Record<string, string>, text: string | undefined): Promise<RawResponse> {
    const retry = this.options.retry ?? { maxRetries: 3, maxWaitMs: 10_000 };
    let waited = 0;
    for (let attempt = 0; ; attempt++) {
      const res: HttpResponse = await this.transport.send({ method: m, url, headers, body: text, ...this.bounds() });
      // The wait is worked out only for an answer that may be retried (its Retry-After parser is not cheap to build).
      const retriable = (res.status === 429 || res.status === 503) && IDEMPOTENT.has(m) && attempt < retry.maxRetries;
      const wait = retriable ? retryDelay(res, attempt) : 0;
      if (retriable && waited + wait <= retry.maxWaitMs) {
        waited += wait;
        await new Promise((r) => setTimeout(r, wait));
        continue;
      }
      const parsed = parse(res.text);
      return { status: res.status, body: parsed.value, text: res.text, headers: res.headers, notJson: !parsed.json };
    }
  }

  private bounds(): Pick<HttpRequest, 'timeoutMs' | 'maxResponseBytes'> {
    return { timeoutMs: this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS, maxResponseBytes: this.options.maxResponseBytes };
  }

  /** A call that must succeed: a non-2xx answer becomes a TrackerHttpError with the vendor's words. */
  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await this.raw(method, path, body);
    if (res.status < 200 || res.status >= 300) {
      const b = (res.body ?? {}) as { errorMessages?: unknown; errors?: unknown };
      const messages = Array.isArray(b.errorMessages) ? b.errorMessages.map(String) : typeof res.body === 'string' && res.body ? [res.body.slice(0, 300)] : [];
      const errors = b.errors && typeof b.errors === 'object' ? Object.fromEntries(Object.entries(b.errors).map(([k, v]) => [k, String(v)])) : {};
      const reason = res.headers['x-seraph-loginreason'];
      throw new TrackerHttpError(method.toUpperCase(), path.split('?')[0]!, res.status, messages, errors, typeof reason === 'string' ? reason : undefined);
    }
    if (res.notJson) throw notJsonError(method.toUpperCase(), path, res);
    return res.body as T;
  }

  close(): void {
    this.transport.close();
  }

  // --- spec §4 endpoints 2-15 -------------------------------------------------------------------

  /**
   * The caller's own account. Asked once per client (a client is one credential: its accountId does
   * not change), kept once answered; a failed answer is not kept. `fresh` asks again (a healthcheck
   * that must prove the credential still works).
   */
  myself(options: { fresh?: boolean } = {}): Promise<User> {
    if (options.fresh || !this.me) {
      const asked = this.call<User>('GET', '/myself');
      this.me = asked;
      asked.catch(() => {
        if (this.me === asked) this.me = undefined;
      });
      return asked;
    }
    return this.me;
  }
  private me: Promise<User> | undefined;

  searchProjects(q: { query?: string; startAt?: number; maxResults?: number } = {}): Promise<ProjectPage> {
    return this.call('GET', `/project/search${qs(q)}`);
  }

  projectStatuses(key: string): Promise<ProjectStatuses> {
    return this.call('GET', `/project/${enc(key)}/statuses`);
  }

  async getIssue(key: string, fields?: readonly string[]): Promise<Issue> {
    const issue = await this.call<Issue>('GET', `/issue/${enc(key)}${fields ? qs({ fields: fields.join(',') }) : ''}`);
    return fits('GET', '/issue/{key}', issue, 'an issue (key and fields)', (i) => typeof i.key === 'string' && isObject(i.fields));
  }

  createIssue(fields: IssueFields): Promise<CreatedIssue> {
    return this.call('POST', '/issue', { fields });
  }

  editIssue(key: string, fields: Record<string, unknown>): Promise<void> {
    return this.call('PUT', `/issue/${enc(key)}`, { fields });
  }

  deleteIssue(key: string, deleteSubtasks = false): Promise<void> {
    return this.call('DELETE', `/issue/${enc(key)}${deleteSubtasks ? '?deleteSubtasks=true' : ''}`);
  }

  async addComment(key: string, body: unknown): Promise<Comment> {
    const comment = await this.call<Comment>('POST', `/issue/${enc(key)}/comment`, { body });
    return fits('POST', '/issue/{key}/comment', comment, 'a comment with an id', (c) => typeof c.id === 'string' && c.id !== '');
  }

  /** Jira's updateComment: a new body for a comment (the tracker lets only its author do so). */
  updateComment(key: string, id: string, body: unknown): Promise<Comment> {
    return this.call('PUT', `/issue/${enc(key)}/comment/${enc(id)}`, { body });
  }

  async listComments(key: string, q: { startAt?: number; maxResults?: number } = {}): Promise<CommentPage> {
    const page = await this.call<CommentPage>('GET', `/issue/${enc(key)}/comment${qs(q)}`);
    return fits(
      'GET',
      '/issue/{key}/comment',
      page,
      'a page of comments',
      (p) => Array.isArray(p.comments) && p.comments.every(isObject) && Number.isSafeInteger(p.total),
    );
  }

  priorities(): Promise<Priority[]> {
    return this.call('GET', '/priority');
  }

  findUsers(query: string): Promise<User[]> {
    return this.call('GET', `/user/search${qs({ query })}`);
  }

  assign(key: string, accountId: string | null): Promise<void> {
    return this.call('PUT', `/issue/${enc(key)}/assignee`, { accountId });
  }

  /** `includeUnavailable`: also the transitions whose condition the caller fails, with `isAvailable: false` (the vendor's includeUnavailableTransitions). */
  async transitions(key: string, options: { includeUnavailable?: boolean } = {}): Promise<{ transitions: Transition[] }> {
    const query = options.includeUnavailable ? '?includeUnavailableTransitions=true' : '';
    const t = await this.call<{ transitions: Transition[] }>('GET', `/issue/${enc(key)}/transitions${query}`);
    return fits(
      'GET',
      '/issue/{key}/transitions',
      t,
      'a list of transitions',
      (v) => Array.isArray(v.transitions) && v.transitions.every((x) => isObject(x) && typeof x.id === 'string'),
    );
  }

  doTransition(key: string, id: string): Promise<void> {
    return this.call('POST', `/issue/${enc(key)}/transitions`, { transition: { id } });
  }

  searchJql(req: { jql: string; fields?: string[]; maxResults?: number; nextPageToken?: string }): Promise<SearchResults> {
    return this.call('POST', '/search/jql', req);
  }
}

function enc(key: string): string {
  return encodeURIComponent(key);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * ARCHITECTURE §11: an answer that jst acts on is checked before it is used; one that does not fit
 * (an issue without fields, a comment without an id) is a TrackerShapeError naming the call.
 */
function fits<T>(method: string, path: string, v: T, what: string, ok: (v: T & Record<string, unknown>) => boolean): T {
  if (isObject(v) && ok(v)) return v;
  throw new TrackerShapeError(method, path, what);
}

function qs(q: Record<string, string | number | undefined>): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v !== undefined) p.set(k, String(v));
  const s = p.toString();
  return s ? `?${s}` : '';
}

/** An empty body is JSON's "nothing"; anything else that does not parse is kept as text and flagged. */
function parse(text: string): { value: unknown; json: boolean } {
  if (text === '') return { value: undefined, json: true };
  try {
    return { value: JSON.parse(text), json: true };
  } catch {
    return { value: text, json: false };
  }
}

/** The error for a 2xx whose body is not JSON; `jst raw` raises the same one. */
export function notJsonError(method: string, path: string, res: RawResponse): TrackerResponseError {
  const type = res.headers['content-type'];
  return new TrackerResponseError(method, path.split('?')[0]!, res.status, Array.isArray(type) ? type[0] : type, res.text);
}

/** Retry-After in seconds or as an HTTP date (@jst/protocol); otherwise a short exponential back-off. */
function retryDelay(res: HttpResponse, attempt: number): number {
  const value: string | undefined = res.headers['retry-after'];
  return retryAfterMs(value) ?? 250 * 2 ** attempt;
}
