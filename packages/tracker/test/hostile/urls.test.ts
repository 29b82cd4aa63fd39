import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { storeKinds, type TestTracker } from '../../../../test/support/tracker.js';
import { trackerWithFixture, type Fixture } from './fixture.js';
import { resolveRef, ROUTES, targetRef, WHO } from './routes.js';
import { brokenEscape, queryString } from './url-arbitraries.js';
import { assertProperty, authOf, jsonHeaders, observableState, RUNS, sendChecked, storeFingerprint, timeoutFor, wellFormed } from './support.js';

/**
 * Issue 4 "Hostile input", URLs: every route of spec §4 on both address forms (and
 * /_edge/tenant_info) with random query strings (known and unknown parameters, repeated ones,
 * numbers out of range, broken percent-encoding, `+`, `[]`, __proto__) and random path segments
 * (percent-encoded unicode, dots, encoded slashes, NUL, over-long ids). No 5xx, in time,
 * ErrorCollections, reads never write, and a refused write changes nothing.
 */

const READS = [
  '/myself',
  '/project/search',
  '/project/{p}/statuses',
  '/user/search',
  '/issue/{k}',
  '/issue/{k}/comment',
  '/issue/{k}/comment/{p}',
  '/issue/{k}/transitions',
  '/search/jql',
  '/serverInfo',
  // Issue 15: the start-up lookups.
  '/project',
  '/project/{p}',
  '/status',
  '/statuscategory',
  '/field',
  '/priority',
  '/issuetype',
  '/issue/{k}/editmeta',
  '/issue/createmeta/{p}/issuetypes',
  '/issue/createmeta/{p}/issuetypes/{k}',
  '/status/{p}',
  '/statuscategory/{p}',
  '/priority/{k}',
  '/issuetype/{k}',
  '/user',
];

/** A path segment where an issue key, id or project key belongs. */
const segment = (fx: () => Fixture) =>
  fc.oneof(
    { weight: 4, arbitrary: targetRef.map((ref) => encodeURIComponent(resolveRef(fx(), ref))) },
    { weight: 1, arbitrary: fc.constantFrom('ABC', 'abc', 'RST', 'SEC', '10001', '10002', '10003', '0', '-1', '10000', '99999999999999', '2147493648') },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '.',
        '..',
        '%2e',
        '%2E%2E',
        '..%2F..%2Fmyself',
        '%2F',
        'ABC-1%2Fcomment',
        'ABC-1%3Fx=1',
        'ABC-1%23',
        'ABC-1;x',
        'ABC-1%00',
        '%00',
        'ABC%2D1',
        'ABC-%31',
        '%41BC-1',
        'ABC-1.',
        'ABC-1%20',
        '%20ABC-1',
        'ABC-+1',
        'ABC--1',
        'ABC-1e1',
        'ABC-0x1',
        'ABC-1/',
        '__proto__',
        'constructor',
        'x'.repeat(199),
        'x'.repeat(201),
        `ABC-${'9'.repeat(300)}`,
      ),
    },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }).map((s) => encodeURIComponent(wellFormed(s))) },
    { weight: 1, arbitrary: brokenEscape },
  );

describe.each(await storeKinds())('spec §7 rule 1, hostile input: query strings, path segments and methods on every route (%s)', (kind) => {
  let t: TestTracker;
  let fx: Fixture;
  trackerWithFixture(kind, (tracker, fixture) => {
    t = tracker;
    fx = fixture;
  });

  it(
    'every GET route, both address forms and tenant_info: random query strings and path segments never get a 5xx, answer in time, and never change the store',
    async () => {
      await assertProperty(
        fc.asyncProperty(
          fc.constantFrom(...READS, '/_edge/tenant_info'),
          fc.constantFrom('gateway', 'site'),
          fc.constantFrom(...WHO),
          segment(() => fx),
          queryString,
          fc.constantFrom('GET', 'GET', 'GET', 'HEAD'),
          async (route, form, who, seg, query, method) => {
            const base = route === '/_edge/tenant_info' ? t.url : form === 'gateway' ? t.api : t.siteApi;
            const url = `${base}${route.replace('{k}', seg).replace('{p}', seg)}${query}`;
            const before = await storeFingerprint(t);
            await sendChecked({ method, url, headers: jsonHeaders(who) });
            expect(await storeFingerprint(t)).toEqual(before);
          },
        ),
      );
    },
    timeoutFor(RUNS, 300),
  );

  it(
    'every write route: random path segments, query strings and methods (PATCH, OPTIONS, wrong verbs) with a valid body never get a 5xx, and a refused write changes nothing',
    async () => {
      const routes = Object.values(ROUTES);
      await assertProperty(
        fc.asyncProperty(
          fc.constantFrom(...routes),
          fc.nat(),
          fc.constantFrom('gateway', 'site'),
          fc.constantFrom(...WHO),
          segment(() => fx),
          queryString,
          fc.constantFrom<string | null>(null, null, null, 'PATCH', 'OPTIONS', 'GET', 'PUT', 'POST', 'DELETE', 'TRACE'),
          async (route, pick, form, who, seg, query, otherMethod) => {
            const valid = route.valid(fx);
            const body = valid[pick % valid.length];
            const method = otherMethod ?? route.method;
            const url = `${form === 'gateway' ? t.api : t.siteApi}${route.path.replace('{k}', seg)}${query}`;
            const watched = [fx.targets.task, fx.targets.parent, fx.targets.subtask];
            const before = await observableState(t, watched);
            const text = body === undefined || method === 'GET' || method === 'TRACE' ? undefined : JSON.stringify(body);
            const r = await sendChecked({ method, url, headers: jsonHeaders(who), ...(text === undefined ? {} : { body: text }) });
            if (r.status >= 400 || method === 'GET' || method === 'OPTIONS') expect(await observableState(t, watched)).toEqual(before);
            else await fx.ensure();
          },
        ),
      );
    },
    timeoutFor(RUNS, 400),
  );

  it(
    'GET /issue asked again (the third read may come from the read cache on SQLite, which keeps a reply on its second): the same status and bytes as the router renders, with or without a write in between',
    async () => {
      let serial = 0;
      const headerVariant = fc.constantFrom<Record<string, string>>(
        {},
        {},
        { Host: 'other.example:8443' },
        { 'X-Forwarded-Host': 'proxy.example', 'X-Forwarded-Proto': 'https' },
        { Authorization: 'Basic ' },
        { Authorization: authOf('executor').toLowerCase() },
      );
      await assertProperty(
        fc.asyncProperty(
          fc.constantFrom('gateway', 'site'),
          fc.constantFrom('3', 'latest'),
          fc.constantFrom(...WHO),
          segment(() => fx),
          queryString,
          headerVariant,
          fc.boolean(),
          async (form, version, who, seg, query, extra, writeBetween) => {
            // Issue 15: /rest/api/latest answers as /rest/api/3, and the cache keeps its replies apart.
            const url = `${(form === 'gateway' ? t.api : t.siteApi).replace(/\/3$/, `/${version}`)}/issue/${seg}${query}`;
            const headers = jsonHeaders(who, extra);
            const first = await sendChecked({ method: 'GET', url, headers });
            const again = await sendChecked({ method: 'GET', url, headers });
            expect(again.status).toBe(first.status);
            if (first.status === 200) expect(again.text).toBe(first.text);
            if (writeBetween) {
              await sendChecked({
                method: 'PUT',
                url: `${t.api}/issue/${fx.targets.task}`,
                headers: jsonHeaders('assigner'),
                body: JSON.stringify({ fields: { summary: `Rewritten ${++serial}` } }),
              });
            }
            const second = await sendChecked({ method: 'GET', url, headers });
            // The same read with one more parameter the route ignores: never a cache entry, always the router's render.
            const rendered = await sendChecked({ method: 'GET', url: `${url}${query === '' ? '?' : '&'}_fresh=${++serial}`, headers });
            expect(second.status).toBe(rendered.status);
            if (second.status === 200) expect(second.text).toBe(rendered.text);
            if (!writeBetween) expect(second.status).toBe(first.status);
            if (!writeBetween && first.status === 200) expect(second.text).toBe(first.text);
          },
        ),
      );
    },
    timeoutFor(RUNS, 400),
  );

  it('ARCHITECTURE §4: an unknown cloud id, a doubled or missing prefix, or a different API version never reaches a route (4xx) and never writes', async () => {
    const before = await storeFingerprint(t);
    const cloud = new URL(t.api).pathname.split('/')[3]!;
    for (const prefix of [
      '/ex/jira/x/rest/api/3',
      `/ex/jira/${cloud.toUpperCase()}/rest/api/3`,
      `/ex/jira/${cloud}/rest/api/2`,
      `/ex/jira/${cloud}/rest/api/3/ex/jira/${cloud}/rest/api/3`,
      `/ex/jira/${cloud}%2Frest%2Fapi%2F3`,
      `/ex/jira//rest/api/3`,
      `/EX/JIRA/${cloud}/rest/api/3`,
      '/rest/api/2',
      '/rest/api/LATEST',
      `/ex/confluence/${cloud}/rest/api/3`,
    ]) {
      for (const [method, path] of [
        ['GET', '/myself'],
        ['POST', '/issue'],
        ['DELETE', `/issue/${fx.targets.task}`],
      ] as const) {
        const r = await sendChecked({
          method,
          url: `${t.url}${prefix}${path}`,
          headers: jsonHeaders('assigner'),
          ...(method === 'POST' ? { body: JSON.stringify(ROUTES.create!.valid(fx)[0]) } : {}),
        });
        expect(r.status, `${method} ${prefix}${path}`).toBeGreaterThanOrEqual(400);
      }
    }
    expect(await storeFingerprint(t)).toEqual(before);
  });
});
