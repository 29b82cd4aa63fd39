import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMAILS, SITE_HOST, testSeed, TOKENS } from '../../../../test/support/seed.js';
import { basic, startTestTracker, storeKinds, type TestTracker } from '../../../../test/support/tracker.js';
import { assertProperty, checkReply, noteStatus, request, RUNS, storeFingerprint, timeoutFor } from './support.js';

/**
 * Issue 4 "Authentication" (spec §5, §7: a bad, stale or revoked token is 401): on a tracker
 * serving two sites, every authenticated route on both address forms refuses a wrong token,
 * another user's token, the credential of a user of the other site (also one with the same
 * e-mail), and malformed Basic headers with 401 in the vendor's shape, and writes nothing.
 * It also measures (never asserts) whether a wrong token and an unknown user take the same time.
 */

const OTHER_CLOUD = '7a1c2e3f-4b5d-4e6f-8a9b-0c1d2e3f4a5b';
const OTHER_HOST = 'other.atlassian.net';
const OTHER = { sameEmailToken: 'tok-other-site-assigner-11aa', stranger: 'stranger@other.test', strangerToken: 'tok-other-site-stranger-22bb' };

function twoSiteSeed() {
  const seed = testSeed();
  seed.sites.push({
    host: OTHER_HOST,
    cloudId: OTHER_CLOUD,
    users: [
      // The same e-mail as on the first site, with a token of its own: a different account.
      { email: EMAILS.assigner, displayName: 'Ada on the other site', tokens: [{ token: OTHER.sameEmailToken, kind: 'classic' }] },
      { email: OTHER.stranger, displayName: 'Stan Stranger', tokens: [{ token: OTHER.strangerToken }] },
    ],
    projects: [
      {
        key: 'ABC',
        name: 'Other Alpha',
        lead: OTHER.stranger,
        workflow: 'kanban',
        members: [
          { email: OTHER.stranger, role: 'admin' },
          { email: EMAILS.assigner, role: 'admin' },
        ],
      },
    ],
  } as never);
  return seed;
}

const AUTHENTICATED: { method: string; path: string; body?: unknown }[] = [
  { method: 'GET', path: '/myself' },
  { method: 'GET', path: '/project/search?query=ABC' },
  { method: 'GET', path: '/project/ABC/statuses' },
  { method: 'GET', path: '/user/search?query=a' },
  { method: 'GET', path: '/issue/ABC-1?fields=summary' },
  { method: 'GET', path: '/issue/ABC-1/comment' },
  { method: 'GET', path: '/issue/ABC-1/transitions' },
  { method: 'GET', path: '/search/jql?jql=project%20%3D%20ABC' },
  { method: 'POST', path: '/search/jql', body: { jql: 'project = ABC' } },
  { method: 'POST', path: '/issue', body: { fields: { project: { key: 'ABC' }, issuetype: { name: 'Task' }, summary: 'must not be created' } } },
  { method: 'PUT', path: '/issue/ABC-1', body: { fields: { summary: 'must not be edited' } } },
  { method: 'DELETE', path: '/issue/ABC-1' },
  { method: 'POST', path: '/issue/ABC-1/comment', body: { body: { type: 'doc', version: 1, content: [] } } },
  { method: 'PUT', path: '/issue/ABC-1/assignee', body: { accountId: null } },
  { method: 'POST', path: '/issue/ABC-1/transitions', body: { transition: { id: '41' } } },
];

type Bad = 'wrongToken' | 'otherUsersToken' | 'otherSiteUser' | 'otherSiteSameEmail' | 'thisSiteOnOtherSite' | 'unknownUser' | 'none' | 'malformed';

describe.each(await storeKinds())('spec §5 rules 9-10, hostile input: wrong, foreign and malformed credentials on two sites (%s)', (kind) => {
  let t: TestTracker;
  beforeAll(async () => {
    t = await startTestTracker(kind, twoSiteSeed());
    const r = await request({
      method: 'POST',
      url: `${t.api}/issue`,
      headers: { Authorization: basic(EMAILS.assigner, TOKENS.assigner), 'Content-Type': 'application/json' },
      body: JSON.stringify({ fields: { project: { key: 'ABC' }, issuetype: { name: 'Task' }, summary: 'ABC-1' } }),
    });
    expect(r.status).toBe(201);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** The base URL and Host header of each address form of each site. */
  const bases = () => ({
    gateway: { url: t.api, host: undefined },
    site: { url: t.siteApi, host: SITE_HOST },
    otherGateway: { url: `${t.url}/ex/jira/${OTHER_CLOUD}/rest/api/3`, host: undefined },
    otherSite: { url: t.siteApi, host: OTHER_HOST },
  });

  const malformed = fc.oneof(
    fc.string({ maxLength: 40 }).map((s) => s.replace(/[^\t\x20-\x7e]/g, '')),
    fc.uint8Array({ maxLength: 48 }).map((b) => `Basic ${Buffer.from(b).toString('base64')}`),
    fc.string({ maxLength: 30 }).map((s) => `Basic ${Buffer.from(s.replace(/:/g, '')).toString('base64')}`),
    fc.string({ maxLength: 30 }).map((s) => `Basic ${s.replace(/[^\t\x20-\x7e]/g, '')}`),
    fc.constantFrom(
      'Basic',
      'Basic ',
      'Basic =',
      'Basic ====',
      `Basic ${Buffer.from(`:${TOKENS.assigner}`).toString('base64')}`,
      `Basic ${Buffer.from(`${EMAILS.assigner}:`).toString('base64')}`,
      `Basic ${Buffer.from(EMAILS.assigner + TOKENS.assigner).toString('base64')}`,
      `Bearer ${TOKENS.assigner}`,
      `Token ${TOKENS.assigner}`,
      `Basic ${Buffer.from(`${EMAILS.assigner}\0:${TOKENS.assigner}`).toString('base64')}`,
      `Basic ${Buffer.from(`${EMAILS.assigner}:${TOKENS.assigner}`).toString('base64').replace(/=+$/, '')}!`,
      `${basic(EMAILS.assigner, TOKENS.assigner)}, Basic x`,
    ),
  );

  const credential = (bad: Bad, junk: string, garbage: string): { authorization: string | undefined; site: 'first' | 'other' } => {
    switch (bad) {
      case 'wrongToken':
        return { authorization: basic(EMAILS.assigner, `${TOKENS.assigner}${junk}x`), site: 'first' };
      case 'otherUsersToken':
        return { authorization: basic(EMAILS.assigner, TOKENS.executor), site: 'first' };
      case 'otherSiteUser':
        return { authorization: basic(OTHER.stranger, OTHER.strangerToken), site: 'first' };
      case 'otherSiteSameEmail':
        return { authorization: basic(EMAILS.assigner, OTHER.sameEmailToken), site: 'first' };
      case 'thisSiteOnOtherSite':
        return { authorization: basic(EMAILS.assigner, TOKENS.assigner), site: 'other' };
      case 'unknownUser':
        return { authorization: basic(`nobody${junk.replace(/[:\0]/g, '')}@acme.test`, TOKENS.assigner), site: 'first' };
      case 'none':
        return { authorization: undefined, site: 'first' };
      default:
        return { authorization: garbage, site: 'first' };
    }
  };

  it(
    'spec §5/§7: every authenticated route, both address forms, both sites: a bad credential is 401 with an ErrorCollection and X-Seraph-LoginReason, and writes nothing',
    async () => {
      await assertProperty(
        fc.asyncProperty(
          fc.constantFrom(...AUTHENTICATED),
          fc.constantFrom<Bad>(
            'wrongToken',
            'otherUsersToken',
            'otherSiteUser',
            'otherSiteSameEmail',
            'thisSiteOnOtherSite',
            'unknownUser',
            'none',
            'malformed',
            'malformed',
          ),
          fc.boolean(),
          fc.string({ maxLength: 12 }),
          malformed,
          async (route, bad, gatewayForm, junk, garbage) => {
            const { authorization, site } = credential(bad, junk, garbage);
            const b = bases();
            const base = site === 'first' ? (gatewayForm ? b.gateway : b.site) : gatewayForm ? b.otherGateway : b.otherSite;
            const headers: Record<string, string> = {
              Accept: 'application/json',
              ...(authorization ? { Authorization: authorization } : {}),
              ...(base.host ? { Host: base.host } : {}),
            };
            if (route.body !== undefined) headers['Content-Type'] = 'application/json';
            const before = await storeFingerprint(t);
            const req = {
              method: route.method,
              url: `${base.url}${route.path}`,
              headers,
              ...(route.body !== undefined ? { body: JSON.stringify(route.body) } : {}),
            };
            const r = await request(req);
            noteStatus(r.status);
            checkReply(r, req);
            expect(r.status, `${bad} ${route.method} ${route.path} → ${r.text.slice(0, 200)}`).toBe(401);
            expect(r.headers['x-seraph-loginreason']).toBe('AUTHENTICATED_FAILED');
            // Never echo the credential.
            if (authorization && authorization.length > 12) expect(r.text).not.toContain(authorization.slice(6));
            expect(await storeFingerprint(t)).toEqual(before);
          },
        ),
      );
    },
    timeoutFor(RUNS, 200),
  );

  it('spec §5: each credential works only on its own site: the same e-mail on the other site is another account', async () => {
    const mine = await request({ method: 'GET', url: `${t.api}/myself`, headers: { Authorization: basic(EMAILS.assigner, TOKENS.assigner) } });
    const other = await request({
      method: 'GET',
      url: `${bases().otherGateway.url}/myself`,
      headers: { Authorization: basic(EMAILS.assigner, OTHER.sameEmailToken) },
    });
    const otherBySite = await request({
      method: 'GET',
      url: `${t.siteApi}/myself`,
      headers: { Authorization: basic(EMAILS.assigner, OTHER.sameEmailToken), Host: OTHER_HOST },
    });
    expect([mine.status, other.status, otherBySite.status]).toEqual([200, 200, 200]);
    expect((mine.body as { accountId: string }).accountId).not.toBe((other.body as { accountId: string }).accountId);
    expect((other.body as { accountId: string }).accountId).toBe((otherBySite.body as { accountId: string }).accountId);
    // The other site's ABC is another project: the first site's issue is not there.
    const cross = await request({
      method: 'GET',
      url: `${bases().otherGateway.url}/issue/ABC-1`,
      headers: { Authorization: basic(EMAILS.assigner, OTHER.sameEmailToken) },
    });
    expect(cross.status).toBe(404);
  });

  it('spec §5: a wrong token and an unknown e-mail get the same 401 body, so the answer does not tell which accounts exist', async () => {
    const ask = (authorization: string) => request({ method: 'GET', url: `${t.api}/myself`, headers: { Authorization: authorization } });
    const wrongToken = await ask(basic(EMAILS.assigner, 'wrong-token'));
    const unknownUser = await ask(basic('nobody@acme.test', 'wrong-token'));
    const otherSite = await ask(basic(OTHER.stranger, OTHER.strangerToken));
    expect(wrongToken.status).toBe(401);
    expect(unknownUser.text).toBe(wrongToken.text);
    expect(otherSite.text).toBe(wrongToken.text);
  });

  it('timing (measured, not asserted): a wrong token and an unknown e-mail, interleaved; medians, p90 and two-sample statistics are printed', async () => {
    const n = Number(process.env.JST_TIMING_N ?? 2000);
    const ask = async (authorization: string) => {
      const r = await request({ method: 'GET', url: `${t.api}/myself`, headers: { Authorization: authorization } });
      expect(r.status).toBe(401);
      return r.ms;
    };
    const wrongToken: number[] = [];
    const unknownUser: number[] = [];
    // Warm up both paths, then interleave in a random order so drift hits both alike.
    for (let i = 0; i < 200; i++) {
      await ask(basic(EMAILS.executor, `warm${i}`));
      await ask(basic(`warm${i}@acme.test`, 'x'));
    }
    for (let i = 0; i < n; i++) {
      const first = Math.random() < 0.5;
      const a = () => ask(basic(EMAILS.assigner, `wrong-token-${i}`)).then((ms) => wrongToken.push(ms));
      const b = () => ask(basic(`nobody-${i}@acme.test`, `wrong-token-${i}`)).then((ms) => unknownUser.push(ms));
      if (first) {
        await a();
        await b();
      } else {
        await b();
        await a();
      }
    }
    const report = timingReport(wrongToken, unknownUser);
    process.stdout.write(`[timing ${kind}] n=${n} each over HTTP keep-alive, GET /myself → 401\n${report}\n`);
    expect(wrongToken).toHaveLength(n);
  }, 120_000);
});

/** Quantile of sorted values (linear interpolation). */
function quantile(sorted: number[], q: number): number {
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (at - lo);
}

/** Medians, p90, p99, Mann-Whitney U (z, two-sided p) and Kolmogorov-Smirnov D (p) of two samples. */
export function timingReport(a: number[], b: number[]): string {
  const sa = [...a].sort((x, y) => x - y);
  const sb = [...b].sort((x, y) => x - y);
  const us = (ms: number) => `${(ms * 1000).toFixed(0)} µs`;
  const line = (name: string, s: number[]) =>
    `  ${name.padEnd(14)} median ${us(quantile(s, 0.5))}  p90 ${us(quantile(s, 0.9))}  p99 ${us(quantile(s, 0.99))}  mean ${us(s.reduce((x, y) => x + y, 0) / s.length)}`;
  // Mann-Whitney U with mid-ranks for ties.
  const all = [...a.map((v) => ({ v, g: 0 })), ...b.map((v) => ({ v, g: 1 }))].sort((x, y) => x.v - y.v);
  const ranks = new Array<number>(all.length);
  for (let i = 0; i < all.length;) {
    let j = i;
    while (j + 1 < all.length && all[j + 1]!.v === all[i]!.v) j++;
    for (let k = i; k <= j; k++) ranks[k] = (i + j) / 2 + 1;
    i = j + 1;
  }
  const n1 = a.length;
  const n2 = b.length;
  const r1 = all.reduce((s, x, i) => (x.g === 0 ? s + ranks[i]! : s), 0);
  const u1 = r1 - (n1 * (n1 + 1)) / 2;
  const z = (u1 - (n1 * n2) / 2) / Math.sqrt((n1 * n2 * (n1 + n2 + 1)) / 12);
  const pU = 2 * (1 - normalCdf(Math.abs(z)));
  // Kolmogorov-Smirnov D with its asymptotic p-value.
  let i = 0;
  let j = 0;
  let d = 0;
  while (i < n1 && j < n2) {
    const v = Math.min(sa[i]!, sb[j]!);
    while (i < n1 && sa[i]! <= v) i++;
    while (j < n2 && sb[j]! <= v) j++;
    d = Math.max(d, Math.abs(i / n1 - j / n2));
  }
  const en = Math.sqrt((n1 * n2) / (n1 + n2));
  const lambda = (en + 0.12 + 0.11 / en) * d;
  let pKS = 0;
  for (let k = 1; k <= 100; k++) pKS += 2 * (-1) ** (k - 1) * Math.exp(-2 * k * k * lambda * lambda);
  pKS = Math.min(1, Math.max(0, pKS));
  return [
    line('wrong token', sa),
    line('unknown user', sb),
    `  Mann-Whitney U=${u1.toFixed(0)} z=${z.toFixed(2)} p=${pU.toPrecision(2)}; P(wrong token slower)=${(u1 / (n1 * n2)).toFixed(3)}`,
    `  Kolmogorov-Smirnov D=${d.toFixed(3)} p=${pKS.toPrecision(2)}; median difference ${((quantile(sa, 0.5) - quantile(sb, 0.5)) * 1000).toFixed(1)} µs`,
  ].join('\n');
}

function normalCdf(x: number): number {
  // Abramowitz-Stegun 7.1.26 for erf.
  const t = 1 / (1 + 0.3275911 * (x / Math.SQRT2));
  const erf = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496735) * t + 0.254829592) * t * Math.exp(-(x * x) / 2);
  return 0.5 * (1 + erf);
}
