import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertMatchesGitHub } from '../../../../test/support/github-openapi.js';
import { storeKinds } from '../../../../test/support/tracker.js';
import { CH_TOKENS, OWNER, REPO, startCodehostServer, type CodehostServer } from './support.js';

/**
 * ARCHITECTURE §14 with a valid low-privilege token in an attacker's hands: random path segments,
 * query strings and bodies on every code-host operation end in 2xx/4xx in GitHub's error shape,
 * never a 5xx, and never echo the token.
 */
const OPERATIONS: [string, string][] = [
  ['GET', '/user'],
  ['GET', '/rate_limit'],
  ['GET', '/repos/{o}/{r}'],
  ['GET', '/repos/{o}/{r}/pulls'],
  ['POST', '/repos/{o}/{r}/pulls'],
  ['GET', '/repos/{o}/{r}/pulls/{n}'],
  ['PATCH', '/repos/{o}/{r}/pulls/{n}'],
  ['GET', '/repos/{o}/{r}/pulls/{n}/commits'],
  ['GET', '/repos/{o}/{r}/pulls/{n}/files'],
  ['GET', '/repos/{o}/{r}/pulls/{n}/merge'],
  ['PUT', '/repos/{o}/{r}/pulls/{n}/merge'],
  ['GET', '/repos/{o}/{r}/pulls/{n}/reviews'],
  ['POST', '/repos/{o}/{r}/pulls/{n}/reviews'],
  ['GET', '/repos/{o}/{r}/issues/{n}/comments'],
  ['POST', '/repos/{o}/{r}/issues/{n}/comments'],
  ['GET', '/repos/{o}/{r}/branches/{n}/protection'],
  ['PUT', '/repos/{o}/{r}/branches/{n}/protection'],
  ['DELETE', '/repos/{o}/{r}/branches/{n}/protection'],
];

const segment = fc.oneof(
  fc.constantFrom(OWNER, REPO, '1', '0', '-1', '999999999999', '%2e%2e', '..', 'ACME', 'APP', '%E2%80%AE', 'a%2Fb', '%20'),
  fc.string({ minLength: 1, maxLength: 12 }).map(encodeURIComponent),
);
/** Mostly the real repository and pull request, so that most cases get past the lookup. */
const mostly = (value: string) => fc.oneof({ arbitrary: fc.constant(value), weight: 4 }, { arbitrary: segment, weight: 1 });
const query = fc.dictionary(
  fc.constantFrom('state', 'head', 'base', 'sort', 'direction', 'per_page', 'page', 'since', 'x'),
  fc.oneof(fc.constantFrom('all', 'open', 'closed', 'acme:main', 'main', '-1', '0', '1e9', '101', 'NaN', '2020-13-45', ''), fc.string({ maxLength: 20 })),
  { maxKeys: 4 },
);
const body = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom(
    '{',
    '[]',
    'null',
    '"x"',
    '{"title":{}}',
    '{"title":"t","head":"main","base":"main"}',
    '{"event":"APPROVE"}',
    '{"body":123}',
    '{"merge_method":"octopus"}',
    '{"required_status_checks":null,"enforce_admins":true,"required_pull_request_reviews":{"required_approving_review_count":9},"restrictions":null}',
    '{"state":"merged"}',
    '{"sha":[]}',
  ),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
);

describe.each(await storeKinds())('ARCHITECTURE §14: hostile input to the code host never answers 5xx (%s)', (kind) => {
  let ch: CodehostServer;
  beforeAll(async () => {
    ch = await startCodehostServer(kind);
    ch.commit('feature/H-1-x', { 'h.txt': 'h\n' });
    await ch.as('ada').rest.pulls.create({ owner: OWNER, repo: REPO, title: 'h', head: 'feature/H-1-x', base: 'main' });
  });
  afterAll(async () => {
    await ch?.close();
  });

  it('random segments, queries and bodies on every operation, as a reader and as the author', async () => {
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...OPERATIONS),
        mostly(OWNER),
        mostly(REPO),
        mostly('1'),
        query,
        body,
        fc.constantFrom<'vic' | 'ada'>('vic', 'ada'),
        async ([method, template], o, r, n, q, b, who) => {
          const path = template.replace('{o}', o).replace('{r}', r).replace('{n}', n);
          const url = `${ch.api}${path}${Object.keys(q).length ? `?${new URLSearchParams(q)}` : ''}`;
          const res = await fetch(url, {
            method,
            headers: { authorization: `Bearer ${CH_TOKENS[who]}`, ...(b === undefined ? {} : { 'content-type': 'application/json' }) },
            ...(b === undefined || method === 'GET' ? {} : { body: b }),
          });
          const text = await res.text();
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          expect(res.status, `${method} ${url} → ${text.slice(0, 300)}`).toBeLessThan(500);
          expect(text).not.toContain(CH_TOKENS[who]);
          const parsed = text === '' ? undefined : JSON.parse(text);
          // `..` may take the URL out of /api/v3 (the client normalises it): then it is the tracker's to answer.
          const inApi = new URL(url).pathname.startsWith('/api/v3/');
          if (res.status >= 400 && inApi) expect(parsed).toMatchObject({ message: expect.any(String), documentation_url: expect.any(String) });
          // A path that reached one of the operations (after the URL's own normalisation) answers as GitHub's description says.
          const reached = new URL(url).pathname.replace(/^\/api\/v3/, '');
          const operation = OPERATIONS.some(([m, t]) => m === method && new RegExp(`^${t.replace(/\{[a-z]\}/g, '[^/]+')}$`).test(reached));
          if (operation && res.status !== 400 && res.status !== 413) assertMatchesGitHub(method, url, res.status, parsed);
        },
      ),
      { numRuns: 150 },
    );
    process.stderr.write(`[fast-check codehost ${kind}] statuses ${[...statuses].map(([s, c]) => `${s}×${c}`).join(' ')}\n`);
  }, 120_000);
  it('ARCHITECTURE §20: a stranger cannot tell a hidden repository from a missing one: same status, body and headers, on REST, git and the pages', async () => {
    /** The parts of an answer that could tell them apart (the request id, the date and the rate window's counters vary by design). */
    const seen = async (url: string, authorization: string) => {
      const res = await fetch(url, { headers: { authorization } });
      const headers = Object.fromEntries([...res.headers].filter(([name]) => !/^(date|x-github-request-id|x-ratelimit-(remaining|used|reset))$/.test(name)));
      return { status: res.status, body: await res.text(), headers };
    };
    const bearer = `Bearer ${CH_TOKENS.olga}`;
    const gitBasic = `Basic ${Buffer.from(`x:${CH_TOKENS.olga}`).toString('base64')}`;
    for (const [hidden, missing, auth] of [
      [`${ch.api}/repos/${OWNER}/${REPO}`, `${ch.api}/repos/${OWNER}/no-such-repo`, bearer],
      [`${ch.api}/repos/${OWNER}/${REPO}/pulls/1`, `${ch.api}/repos/${OWNER}/no-such-repo/pulls/1`, bearer],
      [`${ch.url}/${OWNER}/${REPO}.git/info/refs?service=git-upload-pack`, `${ch.url}/${OWNER}/no-such-repo.git/info/refs?service=git-upload-pack`, gitBasic],
      [`${ch.url}/${OWNER}/${REPO}/pull/1`, `${ch.url}/${OWNER}/no-such-repo/pull/1`, gitBasic],
    ] as const) {
      const a = await seen(hidden, auth);
      const b = await seen(missing, auth);
      expect(a.status, hidden).toBe(404);
      expect(b, missing).toEqual(a);
    }
  });
});
