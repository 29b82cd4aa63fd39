import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../errors.js';

/**
 * `nextPageToken` of POST /search/jql: opaque to clients, signed by the server. It carries where
 * the previous page ended (the sort values of its last issue), the moment the search started
 * (relative dates keep meaning the same on every page, and the token expires 7 days after it, as
 * the vendor documents), and a digest of the query and the caller it was issued for.
 *
 * The key is derived from the site's stored salt, so every server process over one database
 * signs and accepts the same tokens without a secret of its own.
 */

export type CursorValue = string | number;

export interface PagePosition {
  /** When the first page was searched: "now" for every later page. */
  startedAt: Date;
  after: CursorValue[];
}

interface Payload {
  v: 1;
  q: string;
  t: number;
  a: CursorValue[];
}

export const TOKEN_LIFETIME_MS = 7 * 86_400_000;
/** Clock skew between processes that a token issued "in the future" may have. */
const SKEW_MS = 5 * 60_000;

const keyOf = (siteSalt: string) => createHmac('sha256', siteSalt).update('jst-tracker search/jql nextPageToken v1').digest();
const b64 = (data: Buffer | string) => Buffer.from(data).toString('base64url');
const mac = (siteSalt: string, body: string) => createHmac('sha256', keyOf(siteSalt)).update(body).digest();

/** What a token is bound to: the caller and the query in its canonical spelling. */
export function queryDigest(userId: number, canonicalJql: string): string {
  return createHash('sha256').update(`${userId}\0${canonicalJql}`).digest('base64url').slice(0, 22);
}

export function signPageToken(siteSalt: string, digest: string, position: PagePosition): string {
  const payload: Payload = { v: 1, q: digest, t: position.startedAt.getTime(), a: position.after };
  const body = b64(JSON.stringify(payload));
  return `${body}.${b64(mac(siteSalt, body))}`;
}

export const invalidPageToken = () =>
  new ApiError(400, [
    'The nextPageToken is not valid: it was changed, or it was not issued by this site. Run the search again without nextPageToken to start from the first page.',
  ]);

/** Checks a token's signature, query, caller and age; 400 with what to do when any is wrong. */
export function readPageToken(siteSalt: string, token: string, digest: string, now: Date): PagePosition {
  const [body, signature, extra] = token.split('.');
  if (!body || !signature || extra !== undefined) throw invalidPageToken();
  const expected = mac(siteSalt, body);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalidPageToken();
  // Signed by this site, but read as unknown all the same: a key rotated between versions must not crash.
  let payload: { [K in keyof Payload]?: unknown } | null;
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { [K in keyof Payload]?: unknown } | null;
  } catch {
    throw invalidPageToken();
  }
  if (payload?.v !== 1 || typeof payload.t !== 'number' || !Array.isArray(payload.a)) throw invalidPageToken();
  if (payload.q !== digest) {
    throw new ApiError(400, [
      'The nextPageToken belongs to a different search: send the same jql (as the same user) as the request that returned it, or leave nextPageToken out to start from the first page.',
    ]);
  }
  if (payload.t > now.getTime() + SKEW_MS) throw invalidPageToken();
  if (now.getTime() - payload.t > TOKEN_LIFETIME_MS) {
    throw new ApiError(400, [
      'The nextPageToken has expired: tokens are valid for 7 days. Run the search again without nextPageToken to start from the first page.',
    ]);
  }
  return { startedAt: new Date(payload.t), after: payload.a as CursorValue[] };
}
