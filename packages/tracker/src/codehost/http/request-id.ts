import { randomUUID } from 'node:crypto';

/**
 * The `X-GitHub-Request-Id` of an answer: 16 upper-case hex digits, new for each request. Taken from
 * `randomUUID()`, which Node.js serves from a kept pool of random bytes, rather than
 * `randomBytes(8)`, which starts a crypto job per call and, with the server's async hooks on
 * (its git slots' AsyncLocalStorage), costs far more per request (a sixth of a `GET /pulls`'s CPU
 * in a profile of 2026-11-28). The UUID's version and variant digits are left out.
 */
export function requestId(): string {
  const u = randomUUID();
  return (u.slice(0, 8) + u.slice(9, 13) + u.slice(15, 18) + u.slice(20, 21)).toUpperCase();
}
