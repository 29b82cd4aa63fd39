import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertMatchesGitHub } from '../../../../test/support/github-openapi.js';
import { storeKinds } from '../../../../test/support/tracker.js';
import { CH_TOKENS, startCodehostServer, type CodehostServer } from './support.js';

/**
 * ARCHITECTURE §14: `GET /rate_limit` answers GitHub's rate-limit-overview (validated against
 * GitHub's description by the Octokit hook), stating the same core window as the X-RateLimit-*
 * headers of the very answer; like every operation, it needs a credential.
 */
describe.each(await storeKinds())('ARCHITECTURE §14: GET /rate_limit (%s)', (kind) => {
  let ch: CodehostServer;
  beforeAll(async () => {
    ch = await startCodehostServer(kind);
  });
  afterAll(async () => {
    await ch?.close();
  });

  it("answers core, search and graphql, and `rate` as core, in GitHub's shape", async () => {
    const { data, status } = await ch.as('vic').rest.rateLimit.get();
    expect(status).toBe(200);
    expect(Object.keys(data.resources).sort()).toEqual(['core', 'graphql', 'search']);
    expect(data.rate).toEqual(data.resources.core);
    for (const window of [data.resources.core, data.resources.search, data.resources.graphql!]) {
      expect(window.limit).toBeGreaterThan(0);
      expect(window.remaining + window.used).toBe(window.limit);
      expect(window.reset).toBeGreaterThan(Math.floor(Date.now() / 1000));
    }
  });

  it('its core window is the one the X-RateLimit-* headers of the same answer state', async () => {
    const res = await fetch(`${ch.api}/rate_limit`, { headers: { authorization: `Bearer ${CH_TOKENS.vic}` } });
    const body = (await res.json()) as { resources: { core: Record<string, number> }; rate: Record<string, number> };
    assertMatchesGitHub('GET', `${ch.api}/rate_limit`, res.status, body);
    expect(body.resources.core).toEqual({
      limit: Number(res.headers.get('x-ratelimit-limit')),
      remaining: Number(res.headers.get('x-ratelimit-remaining')),
      reset: Number(res.headers.get('x-ratelimit-reset')),
      used: Number(res.headers.get('x-ratelimit-used')),
    });
    expect(res.headers.get('x-ratelimit-resource')).toBe('core');
  });

  it('without a credential, or with a wrong one, it is 401 Bad credentials, as every operation', async () => {
    for (const headers of [{}, { authorization: 'Bearer not-a-token' }] as Record<string, string>[]) {
      const res = await fetch(`${ch.api}/rate_limit`, { headers });
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' });
    }
  });
});
