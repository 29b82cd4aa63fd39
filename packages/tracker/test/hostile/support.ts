import { createHash } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import fc from 'fast-check';
import { expect } from 'vitest';
import { assertErrorCollection, assertMatchesVendorSchema } from '../../../../test/support/openapi.js';
import { credentialOf, type Who } from '../../../../test/support/seed.js';
import { basic, type TestTracker } from '../../../../test/support/tracker.js';

/**
 * Shared parts of the hostile-input tests: a raw HTTP client that can send what fetch cannot
 * (any Buffer body, any method, a Host header, invalid UTF-8), the checks every answer must pass,
 * and a fingerprint of the store that a refused write must leave as it was.
 *
 * Run counts: `JST_FC_RUNS` (default 30) cases per property; `JST_FC_SEED` replays one seed.
 */

export const RUNS = Math.max(1, Number(process.env.JST_FC_RUNS ?? 30));
/** Every answer must arrive within this (a hang or a pathological query shows up as a failure). */
export const TIME_BOUND_MS = Number(process.env.JST_HOSTILE_TIME_BOUND_MS ?? 10_000);
export const LIMIT = 1024 * 1024;

/** fast-check parameters: `runs` cases (a share of JST_FC_RUNS for the heavy properties). */
export function fcParams(runs = RUNS): fc.Parameters<unknown> {
  const seed = process.env.JST_FC_SEED;
  return {
    numRuns: Math.max(1, Math.round(runs)),
    ...(seed ? { seed: Number(seed) } : {}),
    ...(process.env.JST_FC_PATH ? { path: process.env.JST_FC_PATH } : {}),
    endOnFailure: process.env.JST_FC_SHRINK === '0',
  };
}

/** A test timeout that grows with the run count (the default run stays far below it). */
export const timeoutFor = (runs: number, perCaseMs: number) => Math.max(30_000, Math.round(runs * perCaseMs) + 20_000);

export interface RawReply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  body: unknown;
  ms: number;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

export interface RawRequest {
  method: string;
  /** Absolute URL; its path is sent as written (it must already be percent-encoded). */
  url: string;
  headers?: Record<string, string | string[]>;
  body?: Buffer | string;
}

/** A body is always framed (node:http sends a DELETE body unframed unless told its length). */
function withLength(req: RawRequest): Record<string, string | string[]> {
  const headers = { ...(req.headers ?? {}) };
  const named = (n: string) => Object.keys(headers).some((h) => h.toLowerCase() === n);
  if (req.body !== undefined && !named('content-length') && !named('transfer-encoding')) headers['Content-Length'] = String(Buffer.byteLength(req.body));
  return headers;
}

/** One request over node:http; rejects when no answer arrives within TIME_BOUND_MS. */
export function request(req: RawRequest): Promise<RawReply> {
  const u = new URL(req.url);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const r = http.request(
      {
        agent,
        host: u.hostname,
        port: u.port,
        method: req.method,
        path: req.url.slice(req.url.indexOf('/', u.protocol.length + 2)),
        headers: withLength(req),
        timeout: TIME_BOUND_MS,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown;
          if (text !== '') {
            try {
              body = JSON.parse(text);
            } catch {
              body = text;
            }
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body, ms: performance.now() - started });
        });
      },
    );
    r.on('timeout', () => r.destroy(new Error(`no answer within ${TIME_BOUND_MS} ms: ${req.method} ${req.url.slice(0, 200)}`)));
    r.on('error', reject);
    if (req.body !== undefined) r.end(req.body);
    else r.end();
  });
}

/**
 * Bytes straight onto a socket, for requests node:http refuses to build (control characters in
 * a header, a path with raw non-ASCII bytes, a lying Content-Length). The connection is closed
 * after one answer; `status` 0 means the server closed it without answering.
 */
export function rawSocket(url: string, bytes: Buffer): Promise<{ status: number; head: string; body: unknown; text: string; ms: number; trailing: string[] }> {
  const { hostname, port } = new URL(url);
  const trailing: string[] = [];
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const sock = net.connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      sock.destroy();
      reject(new Error(`no answer within ${TIME_BOUND_MS} ms on a raw socket`));
    }, TIME_BOUND_MS);
    sock.on('data', (d: Buffer) => chunks.push(d));
    sock.on('error', () => undefined); // a reset after the answer is fine; no answer shows as status 0
    sock.on('close', () => {
      clearTimeout(timer);
      let data = Buffer.concat(chunks).toString('latin1');
      // Interim answers (100 Continue) come first; the final answer is the one that counts.
      while (/^HTTP\/1\.[01] 1\d\d /.test(data) && data.includes('\r\n\r\n')) data = data.slice(data.indexOf('\r\n\r\n') + 4);
      const at = data.indexOf('\r\n\r\n');
      const head = at < 0 ? data : data.slice(0, at);
      // The answer's body is as long as it says: anything after it on the connection is not part of it.
      const length = /\r\ncontent-length: *(\d+)/i.exec(head)?.[1];
      const rest = at < 0 ? '' : data.slice(at + 4);
      const text = Buffer.from(length === undefined ? rest : rest.slice(0, Number(length)), 'latin1').toString('utf8');
      if (length !== undefined && rest.length > Number(length)) trailing.push(rest.slice(Number(length)));
      let body: unknown;
      if (text !== '') {
        try {
          body = JSON.parse(text);
        } catch {
          body = text;
        }
      }
      resolve({ status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0), head, body, text, ms: performance.now() - started, trailing });
    });
    sock.write(bytes);
    // Half-close: the server sees the end of the request even when its framing is broken.
    sock.end();
  });
}

/**
 * What every answer must be: no 5xx, within the time bound, a 4xx body that is an ErrorCollection,
 * and a 2xx JSON body that matches the vendor's schema for the operation.
 */
export function checkReply(r: { status: number; body: unknown; text: string; ms: number }, req: { method: string; url: string }): void {
  const what = `${req.method} ${req.url.slice(0, 300)} → ${r.status} ${r.text.slice(0, 300)}`;
  expect(r.status, what).toBeGreaterThanOrEqual(200);
  expect(r.status, what).toBeLessThan(500);
  expect(r.ms, `answered after ${Math.round(r.ms)} ms: ${what}`).toBeLessThan(TIME_BOUND_MS);
  if (req.method === 'HEAD') return;
  if (r.status >= 400) {
    try {
      assertErrorCollection(r.body);
    } catch (e) {
      throw new Error(`${(e as Error).message}\n${what}`, { cause: e });
    }
  } else if (r.text !== '' && typeof r.body === 'object') {
    assertMatchesVendorSchema(req.method, req.url, r.status, r.body);
  }
}

/** Statuses seen by the property running now (printed with its result, to show what it reached). */
let tally: Map<number, number> | undefined;
export const noteStatus = (status: number) => {
  tally?.set(status, (tally.get(status) ?? 0) + 1);
};

/** Sends, checks the answer and returns it. */
export async function sendChecked(req: RawRequest): Promise<RawReply> {
  const r = await request(req);
  noteStatus(r.status);
  checkReply(r, req);
  return r;
}

export const authOf = (who: Who) => {
  const c = credentialOf(who);
  return basic(c.email, c.token);
};

export const jsonHeaders = (who: Who | null, extra: Record<string, string> = {}): Record<string, string> => ({
  Accept: 'application/json',
  'Content-Type': 'application/json',
  ...(who ? { Authorization: authOf(who) } : {}),
  ...extra,
});

// --- the store's observable state ------------------------------------------------------------

/**
 * A fingerprint of everything a write can change: per-project key counters, the number, highest
 * id and summed versions (every update bumps a version) of issues and comments, and the latest
 * change time. Read straight from the database, so it sees what the API may hide.
 */
export async function storeFingerprint(t: TestTracker): Promise<Record<string, unknown>> {
  const k = t.server.store.kysely;
  const issues = await k
    .selectFrom('issues')
    .select((eb) => [
      eb.fn.countAll().as('n'),
      eb.fn.max('id').as('maxId'),
      eb.fn.sum('version').as('versions'),
      eb.fn.max('updated_at').as('updated'),
      eb.fn.sum('status_id').as('statuses'),
      eb.fn.sum(eb.fn.coalesce('assignee_id', eb.lit(0))).as('assignees'),
    ])
    .executeTakeFirstOrThrow();
  const comments = await k
    .selectFrom('comments')
    .select((eb) => [eb.fn.countAll().as('n'), eb.fn.max('id').as('maxId'), eb.fn.max('updated_at').as('updated')])
    .executeTakeFirstOrThrow();
  const counters = await k.selectFrom('projects').select(['key', 'issue_counter']).orderBy('id').execute();
  const norm = (o: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(o).map(([key, v]) => [key, v === null || (typeof v === 'string' && !/^\d+$/.test(v)) ? v : Number(v)]));
  return { issues: norm(issues), comments: norm(comments), counters: counters.map((c) => `${c.key}:${c.issue_counter}`) };
}

/**
 * The fingerprint plus how `keys` read back through the API (every field but the comment list,
 * whose count the fingerprint holds), digested so that a difference prints short.
 */
export async function observableState(t: TestTracker, keys: string[]): Promise<unknown> {
  const reads = await Promise.all(
    [...new Set(keys)].map(async (key) => {
      const r = await request({ method: 'GET', url: `${t.api}/issue/${key}?fields=*navigable`, headers: jsonHeaders('assigner') });
      return `${key}: ${r.status} ${createHash('sha256').update(r.text).digest('hex').slice(0, 16)}`;
    }),
  );
  return { store: await storeFingerprint(t), reads };
}

/**
 * fc.assert, with a failure report cut to a readable length (a counterexample may hold a
 * mebibyte-long string or a document nested 100 000 deep).
 */
export async function assertProperty<T>(
  property: fc.IAsyncProperty<T> | fc.IProperty<T>,
  params: fc.Parameters<T> = fcParams() as fc.Parameters<T>,
): Promise<void> {
  tally = new Map();
  const started = performance.now();
  const details = await fc.check(property as fc.IAsyncProperty<T>, params);
  const seen = [...tally.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([status, n]) => `${status}×${n}`)
    .join(' ');
  tally = undefined;
  const name = expect.getState().currentTestName ?? 'property';
  process.stdout.write(
    `[fast-check] ${name.slice(0, 140)}: ${details.numRuns} case(s) in ${((performance.now() - started) / 1000).toFixed(1)} s, statuses ${seen}${details.failed ? ' FAILED' : ''}\n`,
  );
  if (!details.failed) return;
  const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}… (${s.length} characters)` : s);
  const example = details.counterexample ? cut(fc.stringify(details.counterexample), 1500) : '(none)';
  const error = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  throw new Error(
    `Property failed after ${details.numRuns} case(s), shrunk ${details.numShrinks} time(s); replay with JST_FC_SEED=${details.seed} (path ${details.counterexamplePath})\ncounterexample: ${example}\n${cut(error, 3000)}`,
  );
}

/** A string as a store keeps it: each lone UTF-16 surrogate becomes U+FFFD. */
export const wellFormed = (s: string) => s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');

// --- arbitraries shared by several files -------------------------------------------------------

/** Strings that stress decoders and databases: NUL, lone surrogates, RTL, emoji, control characters. */
export const nastyString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\uD800',
    '\uDFFF',
    'x\uD83D',
    '\u202Eabc',
    '👍🏽',
    '\r\n',
    '\\',
    '"',
    "'",
    '%',
    '_',
    '%00',
    '../',
    '__proto__',
    'constructor',
    'toString',
    'ABC-1',
    'abc-1',
    '10001',
    '-1',
    'NaN',
    'Infinity',
    '1e309',
    '0x10',
    'null',
    'true',
  ),
);

/** Any JSON value, including the odd ones (huge and tiny numbers, -0 as text, long strings). */
export const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<unknown>(null, [], {}, '', 0, -1, 1.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 2 ** 31, 2 ** 31 - 1, -(2 ** 31) - 1),
  },
  { weight: 1, arbitrary: nastyString },
);

export interface JsonMutation {
  kind: 'drop' | 'replace' | 'retype' | 'hugeArray' | 'deepNest' | 'hugeString' | 'addField';
  at: number;
  value: unknown;
  n: number;
  name: string;
}

const FIELD_NAMES = [
  'fields',
  'update',
  'transition',
  'properties',
  'historyMetadata',
  'project',
  'issuetype',
  'summary',
  'description',
  'assignee',
  'reporter',
  'parent',
  'labels',
  'priority',
  'body',
  'visibility',
  'accountId',
  'id',
  'key',
  'name',
  'jql',
  'maxResults',
  'nextPageToken',
  'expand',
  'content',
  'type',
  'version',
  'text',
  'attrs',
  'marks',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '',
];

export const jsonMutation: fc.Arbitrary<JsonMutation> = fc.record({
  kind: fc.constantFrom<JsonMutation['kind']>('drop', 'replace', 'retype', 'hugeArray', 'deepNest', 'hugeString', 'addField'),
  at: fc.nat(),
  value: anyJson,
  // sizes: mostly moderate, sometimes far beyond the server's limits
  n: fc.oneof(
    fc.integer({ min: 1, max: 300 }),
    fc.integer({ min: 300, max: 5000 }),
    fc.constantFrom(99, 100, 101, 200, 256, 511, 512, 513, 1000, 20_000, 100_000, 300_000),
  ),
  name: fc.oneof(fc.constantFrom(...FIELD_NAMES), fc.string({ maxLength: 12 })),
});

type Json = unknown;
type Path = (string | number)[];

/** Paths into a value, breadth first (shallow ones first), at most `cap` of them. */
function pathsOf(value: Json, cap = 4000): Path[] {
  const out: Path[] = [];
  const queue: { v: Json; at: Path }[] = [{ v: value, at: [] }];
  for (let i = 0; i < queue.length && out.length < cap; i++) {
    const { v, at } = queue[i]!;
    out.push(at);
    if (Array.isArray(v)) v.forEach((x, j) => queue.length < cap && queue.push({ v: x, at: [...at, j] }));
    else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) if (queue.length < cap) queue.push({ v: x, at: [...at, k] });
  }
  return out;
}

function retype(v: Json): Json {
  if (typeof v === 'string') return v === '' ? 0 : /^-?\d+$/.test(v) ? Number(v) : [v];
  if (typeof v === 'number') return String(v);
  if (typeof v === 'boolean') return v ? 'true' : 0;
  if (v === null) return 'null';
  if (Array.isArray(v)) return v.length > 0 ? v[0] : {};
  return Object.values(v as object)[0] ?? [];
}

function deepNest(v: Json, depth: number, objects: boolean): Json {
  let out = v;
  for (let i = 0; i < depth; i++) out = objects ? { a: out } : [out];
  return out;
}

/** Applies mutations to a (deep-copied) JSON value: drop, replace, retype, blow up, nest, add. */
export function mutate(valid: Json, mutations: JsonMutation[]): Json {
  let root: Json = structuredClone(valid);
  for (const m of mutations) {
    const paths = pathsOf(root);
    const path = paths[m.at % paths.length]!;
    const current = path.reduce<Json>((o, k) => (o as Record<string | number, Json>)[k], root);
    let next: Json;
    switch (m.kind) {
      case 'drop':
        next = undefined;
        break;
      case 'replace':
        next = m.value;
        break;
      case 'retype':
        next = retype(current);
        break;
      case 'hugeArray':
        next = Array.from({ length: Math.min(m.n, 200_000) }, () => current);
        break;
      case 'deepNest':
        next = deepNest(current, m.n, m.n % 2 === 0);
        break;
      case 'hugeString':
        next = 'x'.repeat(Math.min(m.n * 4, LIMIT + 16));
        break;
      case 'addField': {
        // A large n makes the added value a deep one: unknown properties are where validators do not look.
        const value = m.n >= 1000 ? deepNest(m.value, m.n, m.n % 2 === 1) : m.value;
        next =
          current !== null && typeof current === 'object' && !Array.isArray(current)
            ? Object.defineProperty({ ...current }, m.name, { value, enumerable: true, configurable: true, writable: true })
            : { [m.name]: value, value: current };
        break;
      }
    }
    if (path.length === 0) {
      root = next === undefined ? {} : next;
      continue;
    }
    const parent = path.slice(0, -1).reduce<Json>((o, k) => (o as Record<string | number, Json>)[k], root) as Record<string | number, Json>;
    const last = path[path.length - 1]!;
    if (next === undefined) {
      if (Array.isArray(parent)) parent.splice(last as number, 1);
      else Reflect.deleteProperty(parent, last);
    } else {
      parent[last] = next;
    }
  }
  return root;
}

class Lit {
  constructor(readonly text: string) {}
}

/**
 * JSON text of a value, written without recursion, so the tests can send documents nested far
 * deeper than JSON.stringify (or a client library) can serialise. Output stops growing past
 * `cap` characters: beyond the server's body limit the rest cannot matter (it answers 413).
 */
export function jsonText(value: Json, cap = LIMIT + 64 * 1024): string {
  const parts: string[] = [];
  let size = 0;
  const emit = (s: string) => {
    parts.push(s);
    size += s.length;
  };
  const work: unknown[] = [value];
  while (work.length > 0 && size <= cap) {
    const w = work.pop();
    if (w instanceof Lit) {
      emit(w.text);
      continue;
    }
    if (Array.isArray(w)) {
      work.push(new Lit(']'));
      for (let i = w.length - 1; i >= 0; i--) {
        work.push(w[i] === undefined ? null : w[i]);
        if (i > 0) work.push(new Lit(','));
      }
      work.push(new Lit('['));
    } else if (w !== null && typeof w === 'object') {
      const entries = Object.entries(w).filter(([, v]) => v !== undefined);
      work.push(new Lit('}'));
      for (let i = entries.length - 1; i >= 0; i--) {
        work.push(entries[i]![1]);
        work.push(new Lit(`${JSON.stringify(entries[i]![0])}:`));
        if (i > 0) work.push(new Lit(','));
      }
      work.push(new Lit('{'));
    } else {
      emit(JSON.stringify(w) ?? 'null');
    }
  }
  return parts.join('');
}
