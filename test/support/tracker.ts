import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseSeed, startServer, type RunningServer, type ServerOptions } from '../../packages/tracker/src/index.js';
import { assertErrorCollection, assertMatchesVendorSchema } from './openapi.js';
import { createTempDatabase, postgresAvailable, type TempDatabase } from './postgres.js';
import { CLOUD_ID, credentialOf, testSeed, type Who } from './seed.js';

export type StoreKind = 'sqlite' | 'postgres';

/** The stores every HTTP test runs against; PostgreSQL only when reachable (or required). */
export async function storeKinds(): Promise<StoreKind[]> {
  return (await postgresAvailable()) ? ['sqlite', 'postgres'] : ['sqlite'];
}

export interface Reply<T = any> {
  status: number;
  body: T;
  headers: Headers;
  text: string;
}

export interface TestTracker {
  server: RunningServer;
  url: string;
  /** `{url}/ex/jira/<cloudId>/rest/api/3`: the gateway form, as the toolkit calls it. */
  api: string;
  /** `{url}/rest/api/3`: the site-domain form. */
  siteApi: string;
  /**
   * The code host's bare repositories (`<reposDir>/<owner>/<repo>.git`, ARCHITECTURE §14); the
   * code host is on when the seed has a `"codehost"` section (test/support/embedded-codehost.ts).
   */
  reposDir: string;
  as(who: Who, form?: 'gateway' | 'site'): Client;
  anonymous(form?: 'gateway' | 'site'): Client;
  close(): Promise<void>;
}

export interface Client {
  get<T = any>(path: string): Promise<Reply<T>>;
  post<T = any>(path: string, body?: unknown): Promise<Reply<T>>;
  put<T = any>(path: string, body?: unknown): Promise<Reply<T>>;
  del<T = any>(path: string): Promise<Reply<T>>;
  raw(path: string, init: RequestInit): Promise<Reply>;
}

export function basic(email: string, token: string): string {
  return `Basic ${Buffer.from(`${email}:${token}`).toString('base64')}`;
}

/**
 * Sends a request and checks the answer: a JSON body matches the vendor's schema for that
 * operation and status; any 4xx carries an ErrorCollection; a 5xx fails the test outright.
 */
export async function send(url: string, init: RequestInit): Promise<Reply> {
  const res = await fetch(url, init);
  const text = await res.text();
  let body: unknown = undefined;
  if (text !== '') {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  if (res.status >= 500) throw new Error(`server answered ${res.status} to ${init.method ?? 'GET'} ${url}: ${text.slice(0, 500)}`);
  if ((res.status === 204) !== (text === '') && res.status !== 201 && res.status !== 200) {
    throw new Error(`${res.status} with unexpected body presence: ${text.slice(0, 200)}`);
  }
  if (res.status >= 400) assertErrorCollection(body);
  else if (text !== '') assertMatchesVendorSchema(init.method ?? 'GET', url, res.status, body);
  return { status: res.status, body, headers: res.headers, text };
}

function client(base: string, authorization: string | undefined): Client {
  const headers = (json: boolean): Record<string, string> => ({
    Accept: 'application/json',
    ...(json ? { 'Content-Type': 'application/json' } : {}),
    ...(authorization ? { Authorization: authorization } : {}),
  });
  const call = (method: string, path: string, body?: unknown) =>
    send(`${base}${path}`, { method, headers: headers(body !== undefined), ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  return {
    get: (path) => call('GET', path),
    post: (path, body) => call('POST', path, body),
    put: (path, body) => call('PUT', path, body),
    del: (path) => call('DELETE', path),
    raw: (path, init) => send(`${base}${path}`, { ...init, headers: { ...headers(false), ...(init.headers as Record<string, string> | undefined) } }),
  };
}

/**
 * Starts a real jst-tracker over a fresh store of the given kind, seeded for tests: on port 0
 * unless `options.port` asks for a given one (e.g. to replace a stopped tracker at its address).
 */
export async function startTestTracker(
  kind: StoreKind,
  seed: unknown = testSeed(),
  options: { port?: number; server?: Pick<ServerOptions, 'readCacheBytes' | 'trustProxy' | 'bodyLimit' | 'repos' | 'pushLimit'> } = {},
): Promise<TestTracker> {
  let db: TempDatabase | undefined;
  if (kind === 'postgres') db = await createTempDatabase();
  // The data folder; on PostgreSQL it holds only the code host's repositories (--repos).
  const dir = mkdtempSync(join(tmpdir(), 'jst-tracker-test-'));
  const reposDir = join(dir, 'repos');
  const server = await startServer({
    port: options.port ?? 0,
    ...(db ? { databaseUrl: db.url, poolSize: 4 } : { dataDir: dir }),
    repos: reposDir,
    seed: parseSeed(seed),
    ...options.server,
  });
  const api = `${server.url}/ex/jira/${CLOUD_ID}/rest/api/3`;
  const siteApi = `${server.url}/rest/api/3`;
  const baseFor = (form: 'gateway' | 'site') => (form === 'gateway' ? api : siteApi);
  return {
    server,
    url: server.url,
    api,
    siteApi,
    reposDir,
    as(who, form = 'gateway') {
      const { email, token } = credentialOf(who);
      return client(baseFor(form), basic(email, token));
    },
    anonymous: (form = 'gateway') => client(baseFor(form), undefined),
    async close() {
      await server.close();
      if (db) await db.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** ADF for a plain line of text. */
export const adf = (text: string) => ({ type: 'doc', version: 1, content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] });

/** Creates an issue as `who` and returns its key. */
export async function createIssue(t: TestTracker, who: Who, fields: Record<string, unknown>): Promise<string> {
  const r = await t.as(who).post('/issue', { fields: { project: { key: 'ABC' }, issuetype: { name: 'Task' }, summary: 'A task', ...fields } });
  if (r.status !== 201) throw new Error(`create failed: ${r.status} ${r.text}`);
  return (r.body as { key: string }).key;
}
