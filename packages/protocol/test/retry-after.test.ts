import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RETRY_AFTER_MAX_MS, retryAfterMs } from '../src/index.js';

describe('spec §8 rule 3: Retry-After, read alike by the tracker client and the code-host client', () => {
  const now = Date.parse('1994-11-06T08:49:00Z');

  it('delay-seconds: digits only, in ms', () => {
    expect(retryAfterMs('0')).toBe(0);
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs(' 5 ')).toBe(5000);
  });

  it('an HTTP-date in each of the three forms, as the wait from now; a past date is no wait', () => {
    expect(retryAfterMs('Sun, 06 Nov 1994 08:49:37 GMT', now)).toBe(37_000);
    expect(retryAfterMs('Sunday, 06-Nov-94 08:49:37 GMT', now)).toBe(37_000);
    expect(retryAfterMs('Sun Nov  6 08:49:37 1994', now)).toBe(37_000);
    expect(retryAfterMs('Sun, 06 Nov 1994 08:48:00 GMT', now)).toBe(0);
  });

  it('absent or unreadable is null: a fraction, a sign, a loose date, a word', () => {
    for (const value of [
      null,
      undefined,
      '',
      '  ',
      '1.5',
      '-3',
      '+3',
      '1e3',
      'soon',
      '2026-01-01',
      'Sun, 06 Nov 1994 08:49:37',
      'Sun, 6 Nov 1994 08:49:37 GMT',
    ])
      expect(retryAfterMs(value, now), String(value)).toBeNull();
  });

  it('capped: a wait of any size is finite and at most a day', () => {
    expect(retryAfterMs('9'.repeat(400))).toBe(RETRY_AFTER_MAX_MS);
    expect(retryAfterMs('Fri, 31 Dec 9999 23:59:59 GMT', now)).toBe(RETRY_AFTER_MAX_MS);
  });

  it('whatever the header says, the answer is null or a wait in [0, cap] (property)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.nat().map(String),
          fc.date({ noInvalidDate: true }).map((d) => d.toUTCString()),
        ),
        (value) => {
          const ms = retryAfterMs(value, now);
          return ms === null || (Number.isFinite(ms) && ms >= 0 && ms <= RETRY_AFTER_MAX_MS);
        },
      ),
    );
  });
});
