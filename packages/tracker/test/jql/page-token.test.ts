import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/domain/errors.js';
import { queryDigest, readPageToken, signPageToken, TOKEN_LIFETIME_MS } from '../../src/domain/jql/page-token.js';

const SALT = 'site-salt-1';
const started = new Date('2026-03-18T10:00:00.000Z');
const digest = queryDigest(7, 'project = "ABC"');
const token = signPageToken(SALT, digest, { startedAt: started, after: ['ABC', 12, 40] });
const later = new Date(started.getTime() + 60_000);

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (e) {
    expect((e as ApiError).status).toBe(400);
    return (e as ApiError).errorMessages[0]!;
  }
  throw new Error('accepted');
}

describe('spec §4 endpoint 15: nextPageToken is opaque, signed and expires after 7 days', () => {
  it('reads back where the page ended and when the search started', () => {
    expect(readPageToken(SALT, token, digest, later)).toEqual({ startedAt: started, after: ['ABC', 12, 40] });
  });

  it('an altered body or signature is refused', () => {
    const [body, sig] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ v: 1, q: digest, t: started.getTime(), a: ['ABC', 1, 1] })).toString('base64url');
    expect(refusal(() => readPageToken(SALT, `${forged}.${sig}`, digest, later))).toMatch(/^The nextPageToken is not valid/);
    const flipped = sig!.slice(0, -2) + (sig!.endsWith('AA') ? 'BB' : 'AA');
    expect(refusal(() => readPageToken(SALT, `${body}.${flipped}`, digest, later))).toMatch(/^The nextPageToken is not valid/);
    for (const junk of ['', 'abc', `${body}`, `${token}.x`, '%%%.%%%']) {
      expect(refusal(() => readPageToken(SALT, junk, digest, later))).toMatch(/^The nextPageToken is not valid/);
    }
  });

  it('a token of another site (another secret) is refused', () => {
    expect(refusal(() => readPageToken('other-salt', token, digest, later))).toMatch(/^The nextPageToken is not valid/);
  });

  it('a token is bound to its query and caller', () => {
    expect(refusal(() => readPageToken(SALT, token, queryDigest(7, 'project = "RST"'), later))).toMatch(/belongs to a different search/);
    expect(refusal(() => readPageToken(SALT, token, queryDigest(8, 'project = "ABC"'), later))).toMatch(/belongs to a different search/);
  });

  it('expires 7 days after the search started', () => {
    expect(readPageToken(SALT, token, digest, new Date(started.getTime() + TOKEN_LIFETIME_MS - 1)).after).toHaveLength(3);
    expect(refusal(() => readPageToken(SALT, token, digest, new Date(started.getTime() + TOKEN_LIFETIME_MS + 1)))).toMatch(
      /has expired: tokens are valid for 7 days/,
    );
  });
});
