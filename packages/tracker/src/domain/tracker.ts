import { after, type Maybe } from '../maybe.js';
import type { ChangeFeed, ProjectRow, SiteRow, StatusRow, Store, UserRow } from '../store/store.js';
import { ApiError } from './errors.js';
import { STORE, type HoldsStore } from './store-access.js';
import { DUMMY_HASH, hashToken, parseBasic, sameHash, type BasicCredential } from '../kit/tokens.js';
import type { Workflow } from './workflow.js';

/** How the request reached us: the site domain or the API gateway (spec §5.4). */
export type AddressForm = 'site' | 'gateway';

/** Scopes of the vendor's OpenAPI, one per route (classic scope names). */
export type Scope = 'read:jira-user' | 'read:jira-work' | 'write:jira-work';

/** Who is calling and where: built once per request by authentication. */
export interface Caller {
  site: SiteRow;
  user: UserRow;
  /** External base of `self` links, e.g. `http://127.0.0.1:8080/ex/jira/<cloudId>`. */
  baseUrl: string;
}

const AUTH_FAILED = 'AUTHENTICATED_FAILED';
/**
 * How long a successful sign-in, and a user's row, is remembered. Users and tokens change only
 * when a seed is loaded (at a process's start), so a few seconds only bound how late another
 * process sees that change.
 */
export const REMEMBER_MS = 5_000;
/** Remembered sign-ins (and users) per process; past this the memory is emptied (it refills from the database). */
const SIGN_IN_MAX = 10_000;

interface SignIn {
  user: UserRow;
  kind: string;
  scopes: readonly string[];
  until: number;
}

const signInKey = (site: SiteRow, email: string, hash: string) => `${site.id}\0${email.toLowerCase()}\0${hash}`;

/** `Authorization: Basic …` as clients write it: one space, the standard base64 of `email:token` with its padding. */
const canonicalBasic = (cred: BasicCredential): string => `Basic ${Buffer.from(`${cred.email}:${cred.token}`, 'utf8').toString('base64')}`;

/** Why a signed-in token may not make this call (a scoped token: gateway only, its scopes only); null when it may. */
function scopeRefusal(signIn: SignIn, site: SiteRow, form: AddressForm, scope: Scope): string | null {
  if (signIn.kind !== 'scoped') return null;
  if (form === 'site')
    return `${AUTH_FAILED}: a scoped API token is accepted only through the API gateway (/ex/jira/${site.cloud_id}/rest/api/3/…), not on the site domain.`;
  if (!signIn.scopes.includes(scope)) return `Unauthorized; scope does not match. This operation needs the scope "${scope}", which the token was not granted.`;
  return null;
}

/** Jira's 401: the reason travels in `X-Seraph-LoginReason`, the body is an ErrorCollection. */
export function unauthorized(message: string): ApiError {
  return new ApiError(401, [message], {}, { 'x-seraph-loginreason': AUTH_FAILED });
}

/**
 * The shared state of one server process: the store, and caches the database can rebuild
 * (sites, statuses, parsed workflows). Nothing here is authoritative, so N processes over one
 * database stay consistent. The store is the domain's alone (domain/store-access.ts): the HTTP
 * layer asks the Tracker and the domain's functions.
 */
export class Tracker implements HoldsStore {
  private sites: SiteRow[] = [];
  private readonly statusCache = new Map<number, StatusRow[]>();
  private readonly workflowCache = new Map<string, Workflow>();
  /** Successful sign-ins, keyed by site, e-mail and the token's salted hash (never the token). */
  private readonly signIns = new Map<string, SignIn>();
  /**
   * The same sign-ins found by the Authorization header as it was sent, per site: the hot read
   * path's check (rememberedSignIn) is then one lookup, without decoding and hashing the token on
   * every request. Only the canonical spelling of a credential is filed (`Basic ` and its standard
   * base64, as every client sends it), so one credential takes one entry whatever variants of it
   * (spaces, case, unpadded base64) a caller sends; those are checked in full every time. The
   * header stays in this process's memory only (as the request that carried it did), never in the
   * database, a log or an error; it is emptied with the sign-ins.
   */
  private readonly signInsByHeader = new Map<number, Map<string, SignIn>>();
  /** Users by row id, for rendering people (assignee, reporter, comment authors). */
  private readonly userRows = new Map<number, { user: UserRow; until: number }>();

  readonly [STORE]: Store;

  constructor(store: Store) {
    this[STORE] = store;
  }

  private get store(): Store {
    return this[STORE];
  }

  /** SQLite: a number that changes whenever anyone commits (Store.dataVersion); undefined on PostgreSQL. */
  get dataVersion(): (() => number) | undefined {
    return this[STORE].dataVersion;
  }

  /** PostgreSQL: commits by any process (Store.changes), for the read cache; undefined on SQLite. */
  get changes(): ChangeFeed | undefined {
    return this[STORE].changes;
  }

  async refreshSites(): Promise<void> {
    this.sites = await this.store.sites.list();
    this.statusCache.clear();
    this.signIns.clear();
    this.signInsByHeader.clear();
    this.userRows.clear();
  }

  get siteCount(): number {
    return this.sites.length;
  }

  /** Site form: the Host header (without port) picks the site; with one site any host is fine. */
  async siteForHost(hostHeader: string | undefined): Promise<SiteRow | null> {
    const site = this.knownSiteForHost(hostHeader);
    if (site) return site;
    await this.refreshSites();
    return this.knownSiteForHost(hostHeader);
  }

  async siteForCloudId(cloudId: string): Promise<SiteRow | null> {
    const site = this.knownSiteForCloudId(cloudId);
    if (site) return site;
    await this.refreshSites();
    return this.knownSiteForCloudId(cloudId);
  }

  /** siteForHost among the sites already read (null: ask siteForHost, which reads them again). */
  knownSiteForHost(hostHeader: string | undefined): SiteRow | null {
    if (this.sites.length === 1) return this.sites[0]!;
    const host = (hostHeader ?? '').toLowerCase().replace(/:\d+$/, '');
    return this.sites.find((s) => s.host === host || s.host.replace(/:\d+$/, '') === host) ?? null;
  }

  knownSiteForCloudId(cloudId: string): SiteRow | null {
    return this.sites.find((s) => s.cloud_id === cloudId) ?? null;
  }

  /**
   * spec §5: HTTP Basic on every request. The token hash is always compared (against a dummy
   * when the user is unknown), so a wrong user and a wrong token take the same time.
   */
  async authenticate(site: SiteRow, header: string | undefined, form: AddressForm, scope: Scope): Promise<UserRow> {
    if (!header)
      throw unauthorized(
        'Client must be authenticated to access this resource. Send HTTP Basic authentication: your e-mail as user name, an API token as password.',
      );
    if (/^Bearer\s/i.test(header)) throw unauthorized('Bearer tokens are not accepted here: use HTTP Basic authentication with your e-mail and an API token.');
    const cred = parseBasic(header);
    if (!cred) throw unauthorized('Malformed Authorization header: expected "Basic base64(email:api_token)".');
    const hash = hashToken(site.token_salt, cred.token);
    const cacheKey = signInKey(site, cred.email, hash);
    const now = Date.now();
    let signIn = this.signIns.get(cacheKey);
    if (!signIn || signIn.until < now) {
      this.signIns.delete(cacheKey);
      signIn = { ...(await this.signInFromStore(site, cred.email, hash)), until: now + REMEMBER_MS };
      if (this.signIns.size >= SIGN_IN_MAX) this.signIns.clear();
      this.signIns.set(cacheKey, signIn);
    }
    if (header === canonicalBasic(cred)) this.rememberHeader(site, header, signIn);
    const refusal = scopeRefusal(signIn, site, form, scope);
    if (refusal) throw unauthorized(refusal);
    return signIn.user;
  }

  /**
   * `authenticate` answered from remembered sign-ins only, without waiting: the user when the
   * credential signed in successfully a moment ago and admits `scope`; undefined for anything
   * else (unknown, expired, refused), which `authenticate` then decides.
   */
  rememberedSignIn(site: SiteRow, header: string | undefined, form: AddressForm, scope: Scope): UserRow | undefined {
    if (header === undefined) return undefined;
    const signIn = this.signInsByHeader.get(site.id)?.get(header);
    if (!signIn || signIn.until < Date.now()) return undefined;
    return scopeRefusal(signIn, site, form, scope) ? undefined : signIn.user;
  }

  /** Files a successful sign-in under the header that carried it (signInsByHeader), within the same bound as the sign-ins. */
  private rememberHeader(site: SiteRow, header: string, signIn: SignIn): void {
    let byHeader = this.signInsByHeader.get(site.id);
    if (!byHeader) this.signInsByHeader.set(site.id, (byHeader = new Map<string, SignIn>()));
    if (byHeader.size >= SIGN_IN_MAX) byHeader.clear();
    byHeader.set(header, signIn);
  }

  /**
   * The database check behind a sign-in. The token hash is always compared (against a dummy when
   * the user is unknown), so a wrong user and a wrong token take the same time. Failures are
   * never remembered: every wrong credential costs the full check.
   */
  private async signInFromStore(site: SiteRow, email: string, hash: string): Promise<Omit<SignIn, 'until'>> {
    const user = await this.store.users.byEmail(site.id, email);
    // The tokens query runs for an unknown user too (row ids start at 1, so 0 finds none): both
    // failures cost the same two reads, or the time of a 401 would tell which e-mails exist.
    const tokens = await this.store.users.tokensOf(user && user.active ? user.id : 0);
    let match: (typeof tokens)[number] | undefined;
    if (tokens.length === 0) sameHash(hash, DUMMY_HASH);
    for (const t of tokens) if (sameHash(hash, t.token_hash) && !match) match = t;
    if (!user || !match)
      throw unauthorized(
        'Client must be authenticated to access this resource: the e-mail and API token do not match an active account (the token may be stale or revoked).',
      );
    return { user, kind: match.kind, scopes: match.kind === 'scoped' ? (JSON.parse(match.scopes) as string[]) : [] };
  }

  /**
   * Users by row id (unknown ids are left out); rows read in the last few seconds are reused. At
   * once when every one is remembered or the store reads at once (store/prepared.ts, Prepared.rows).
   */
  users(ids: readonly number[]): Maybe<Map<number, UserRow>> {
    const { found, missing, now } = this.rememberedUsers(ids);
    if (missing.length === 0) return found;
    return after(this.store.users.byIds(missing), (read) => {
      this.rememberUsers(found, read, now);
      return found;
    });
  }

  /** The users of `ids` remembered and still fresh, and the ids to read. */
  private rememberedUsers(ids: readonly number[]): { found: Map<number, UserRow>; missing: number[]; now: number } {
    const now = Date.now();
    const found = new Map<number, UserRow>();
    const missing: number[] = [];
    for (const id of ids) {
      const hit = this.userRows.get(id);
      if (hit && hit.until >= now) found.set(id, hit.user);
      else if (!found.has(id)) missing.push(id);
    }
    return { found, missing, now };
  }

  /** Adds the rows read to `found` and remembers them. */
  private rememberUsers(found: Map<number, UserRow>, read: readonly UserRow[], now: number): void {
    if (this.userRows.size >= SIGN_IN_MAX) this.userRows.clear();
    for (const user of read) {
      found.set(user.id, user);
      this.userRows.set(user.id, { user, until: now + REMEMBER_MS });
    }
  }

  async statuses(siteId: number): Promise<StatusRow[]> {
    let list = this.statusCache.get(siteId);
    if (!list) {
      list = await this.store.projects.statusesOfSite(siteId);
      this.statusCache.set(siteId, list);
    }
    return list;
  }

  /** statusById answered from the statuses already read, without waiting (undefined: ask statusById). */
  knownStatus(siteId: number, id: number): StatusRow | undefined {
    return this.statusCache.get(siteId)?.find((s) => s.id === id);
  }

  async statusById(siteId: number, id: number): Promise<StatusRow> {
    let found = (await this.statuses(siteId)).find((s) => s.id === id);
    if (!found) {
      this.statusCache.delete(siteId);
      found = (await this.statuses(siteId)).find((s) => s.id === id);
    }
    if (!found) throw new Error(`status ${id} missing from site ${siteId}`);
    return found;
  }

  async statusByName(siteId: number, name: string): Promise<StatusRow> {
    let found = (await this.statuses(siteId)).find((s) => s.name === name);
    if (!found) {
      this.statusCache.delete(siteId);
      found = (await this.statuses(siteId)).find((s) => s.name === name);
    }
    if (!found) throw new Error(`status "${name}" missing from site ${siteId}`);
    return found;
  }

  workflowOf(project: ProjectRow): Workflow {
    let wf = this.workflowCache.get(project.workflow);
    if (!wf) {
      wf = JSON.parse(project.workflow) as Workflow;
      this.workflowCache.set(project.workflow, wf);
    }
    return wf;
  }
}
