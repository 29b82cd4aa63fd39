import * as crypto from 'node:crypto';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** One-shot hashing (Node.js 20.12 and later): a quarter of createHash's cost per request. */
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;

/**
 * API tokens are kept only as salted SHA-256 hashes. The salt is per site and stable, so loading
 * the same seed twice yields the same hash (idempotent), and a stolen database holds no token.
 * Tokens are high-entropy secrets, so a fast hash is the right tool (as for GitHub's tokens);
 * a password KDF would cost milliseconds on every request.
 */
export function hashToken(salt: string, token: string): string {
  return oneShot ? oneShot('sha256', `${salt}\0${token}`, 'hex') : createHash('sha256').update(salt).update('\0').update(token, 'utf8').digest('hex');
}

export function newSalt(): string {
  return randomBytes(16).toString('hex');
}

/** Constant-time comparison of two hex digests of equal length. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Compared against when the user is unknown, so a wrong user costs what a wrong token costs. */
export const DUMMY_HASH = hashToken('dummy-salt', 'dummy-token');

export interface BasicCredential {
  email: string;
  token: string;
}

/** Parses `Authorization: Basic base64(email:token)`; null when absent or malformed. */
export function parseBasic(header: string | undefined): BasicCredential | null {
  if (!header) return null;
  const match = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header);
  if (!match) return null;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0 || decoded.includes('\0')) return null;
  return { email: decoded.slice(0, colon), token: decoded.slice(colon + 1) };
}
