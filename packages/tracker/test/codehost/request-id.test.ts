import { describe, expect, it } from 'vitest';
import { requestId } from '../../src/codehost/http/request-id.js';

describe('X-GitHub-Request-Id (codehost/http/request-id.ts)', () => {
  it('is 16 upper-case hex digits, a new one each time', () => {
    const ids = Array.from({ length: 2000 }, () => requestId());
    for (const id of ids) expect(id).toMatch(/^[0-9A-F]{16}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('carries no fixed digit of the UUID it is cut from (each place takes many values)', () => {
    const ids = Array.from({ length: 2000 }, () => requestId());
    for (let place = 0; place < 16; place++) expect(new Set(ids.map((id) => id[place])).size).toBeGreaterThan(8);
  });
});
