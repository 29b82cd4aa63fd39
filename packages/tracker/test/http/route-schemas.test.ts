import { Ajv } from 'ajv';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIssue, startTestTracker, storeKinds, type TestTracker } from '../../../../test/support/tracker.js';

/**
 * Issue 18: every route declares its inputs and its replies (http/schemas/). Derived from the
 * route table itself, so a route added later is covered without a line here: every value that
 * breaks a declared query parameter or body property is a 400 in the vendor's ErrorCollection
 * shape naming it, before the handler runs (nothing written); every route declares a response
 * schema, and the real replies match it (and, through the test client, the vendor's OpenAPI).
 */

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  pattern?: string;
  minimum?: number;
  maxLength?: number;
  maxItems?: number;
  enum?: string[];
  anyOf?: Schema[];
  additionalProperties?: boolean;
  items?: Schema;
  [k: string]: unknown;
};
interface Route {
  method: string;
  url: string;
  schema?: { params?: Schema; querystring?: Schema; body?: Schema; response?: Record<string, Schema> };
}

const PREFIX = '/ex/jira/:cloudId/rest/api/3';
/** Parameters jira.js sends as `false` when it left them out: read as absent (http/validation.ts). */
const FALSE_MEANS_ABSENT = new Set(['startAt', 'maxResults', 'orderBy', 'expand']);
const RUNS = 12;

/** Text that breaks a query parameter's schema, or null when no text can (a free-form string). */
function badQueryValue(name: string, s: Schema): fc.Arbitrary<string> | null {
  const usable = (v: string) => v !== '' && !(v === 'false' && FALSE_MEANS_ABSENT.has(name));
  if (s.type === 'integer') {
    const notDigits = fc
      .string({ minLength: 1, maxLength: 12 })
      .filter((v) => !/^\d+$/.test(v) && usable(v) && !(/^-\d+$/.test(v) && (s.minimum ?? -Infinity) < 0));
    return fc.oneof(
      notDigits,
      fc.constantFrom('1e3', '0x10', ' 5', '1.5', '+7'),
      ...(s.minimum !== undefined ? [fc.integer({ min: -1_000_000, max: s.minimum - 1 }).map(String)] : []),
    );
  }
  if (s.enum) return fc.string({ minLength: 1, maxLength: 20 }).filter((v) => usable(v) && !s.enum!.includes(v));
  if (s.pattern) {
    const re = new RegExp(s.pattern);
    return fc.string({ minLength: 1, maxLength: 12 }).filter((v) => usable(v) && !re.test(v));
  }
  if (s.type === 'string' && s.maxLength !== undefined && s.maxLength <= 4000) return fc.constant('x'.repeat(s.maxLength + 1));
  return null;
}

/** A JSON value of a type a body property's schema does not admit, or null when it admits any. */
function badBodyValue(s: Schema): fc.Arbitrary<unknown> | null {
  const admitted = new Set((s.anyOf ?? [s]).flatMap((b) => [b.type ?? 'any'].flat()));
  if (admitted.has('any')) return null;
  const byType: [string, fc.Arbitrary<unknown>][] = [
    ['string', fc.string({ maxLength: 10 })],
    ['integer', fc.integer()],
    ['boolean', fc.boolean()],
    ['object', fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), fc.integer(), { maxKeys: 2 })],
    ['array', fc.array(fc.integer(), { maxLength: 3 })],
    ['null', fc.constant(null)],
    ['number', fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Number.isInteger(n))],
  ];
  const wrong = byType.filter(
    ([type]) => !admitted.has(type) && !(type === 'integer' && admitted.has('number')) && !(type === 'number' && admitted.has('integer') && false),
  );
  return wrong.length === 0 ? null : fc.oneof(...wrong.map(([, arb]) => arb));
}

/** A path for the route: any value will do for its parameters, since validation runs before the handler. */
const pathOf = (url: string, key: string) =>
  url.slice(PREFIX.length).replace(/:(\w+)/g, (_m, name: string) => (name === 'issueIdOrKey' ? key : name === 'projectIdOrKey' ? 'ABC' : '1'));

const isErrorCollectionNaming = (body: any, name: string) =>
  Array.isArray(body?.errorMessages) &&
  body.errorMessages.length === 1 &&
  typeof body.errorMessages[0] === 'string' &&
  body.errorMessages[0].includes(name) &&
  typeof body.errors === 'object' &&
  Object.keys(body.errors).length === 0;

/** The schema with every object closed (no property it does not declare): a reply must be exactly the declared shape. */
function closed(s: Schema): Schema {
  if (Array.isArray(s)) return s.map(closed) as unknown as Schema;
  if (typeof s !== 'object' || s === null) return s;
  const out: Schema = Object.fromEntries(Object.entries(s).map(([k, v]) => [k, typeof v === 'object' && v !== null ? closed(v as Schema) : v]));
  if (out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}

describe.each(await storeKinds())('ARCHITECTURE §17: route schemas (%s)', (kind) => {
  let t: TestTracker;
  let routes: Route[];
  let key: string;
  /** Everything a refused write could have changed: every issue with its fields and comments. */
  const snapshot = async () => (await t.as('assigner').get('/search/jql?jql=order%20by%20key&maxResults=5000&fields=*all')).text;

  beforeAll(async () => {
    t = await startTestTracker(kind);
    routes = (t.server.app.routeTable as Route[]).filter((r) => r.url.startsWith(PREFIX) && r.method !== 'HEAD');
    key = await createIssue(t, 'assigner', {});
  });
  afterAll(async () => {
    await t?.close();
  });

  it('every REST route declares a response schema with the ErrorCollection for refusals, and a schema for each path parameter', () => {
    expect(routes.length).toBeGreaterThan(25);
    for (const r of routes) {
      const where = `${r.method} ${r.url}`;
      expect(r.schema?.response, where).toBeDefined();
      expect(r.schema!.response!['4xx'], where).toBeDefined();
      for (const name of [...r.url.slice(PREFIX.length).matchAll(/:(\w+)/g)].map((m) => m[1]!)) {
        expect(r.schema!.params?.properties?.[name], `${where} :${name}`).toBeDefined();
      }
    }
  });

  it('property: a value that breaks a declared query parameter is 400 naming it, in the vendor shape, on every route; nothing written', async () => {
    const before = await snapshot();
    let cases = 0;
    for (const r of routes) {
      for (const [name, s] of Object.entries(r.schema?.querystring?.properties ?? {})) {
        const items = s.type === 'array' ? s.items! : s;
        const bad = badQueryValue(name, items);
        if (!bad) continue;
        await fc.assert(
          fc.asyncProperty(bad, async (value) => {
            cases++;
            const required = Object.fromEntries((r.schema!.querystring!.required ?? []).filter((n) => n !== name).map((n) => [n, 'x']));
            const query = new URLSearchParams({ ...required, [name]: value });
            const res = await t.as('assigner').raw(`${pathOf(r.url, key)}?${query}`, {
              method: r.method,
              ...(r.schema?.body ? { body: '{}', headers: { 'Content-Type': 'application/json' } } : {}),
            });
            expect(res.status, `${r.method} ${r.url}?${name}=${value}`).toBe(400);
            expect(isErrorCollectionNaming(res.body, `'${name}'`), `${r.method} ${r.url}?${name}=${value}: ${res.text}`).toBe(true);
          }),
          { numRuns: RUNS },
        );
      }
      for (const name of r.schema?.querystring?.required ?? []) {
        const res = await t.as('assigner').raw(pathOf(r.url, key), { method: r.method });
        expect(res.status, `${r.method} ${r.url} without ${name}`).toBe(400);
        expect(isErrorCollectionNaming(res.body, `'${name}'`)).toBe(true);
      }
    }
    expect(cases).toBeGreaterThan(100);
    expect(await snapshot()).toBe(before);
  });

  it('property: a body property of a type its schema does not admit, an unknown one where none is allowed, or a body that is not an object, is 400 naming it; nothing written', async () => {
    const before = await snapshot();
    let cases = 0;
    const post = (r: Route, body: unknown) =>
      t.as('assigner').raw(pathOf(r.url, key), { method: r.method, body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } });
    for (const r of routes.filter((x) => x.schema?.body)) {
      const body = r.schema!.body!;
      await fc.assert(
        fc.asyncProperty(fc.oneof(fc.array(fc.integer(), { maxLength: 2 }), fc.integer(), fc.string({ maxLength: 8 }), fc.boolean()), async (value) => {
          cases++;
          const res = await post(r, value);
          expect(res.status, `${r.method} ${r.url} body ${JSON.stringify(value)}`).toBe(400);
          expect(isErrorCollectionNaming(res.body, 'The request body must be a JSON object'), res.text).toBe(true);
        }),
        { numRuns: RUNS },
      );
      for (const [name, s] of Object.entries(body.properties ?? {})) {
        const bad = badBodyValue(s);
        if (!bad) continue;
        await fc.assert(
          fc.asyncProperty(bad, async (value) => {
            cases++;
            const res = await post(r, { [name]: value });
            expect(res.status, `${r.method} ${r.url} {${name}: ${JSON.stringify(value)}}`).toBe(400);
            expect(isErrorCollectionNaming(res.body, `'${name}'`), `${r.method} ${r.url} {${name}: ${JSON.stringify(value)}}: ${res.text}`).toBe(true);
          }),
          { numRuns: RUNS },
        );
      }
      if (body.additionalProperties === false) {
        const known = Object.keys(body.properties ?? {});
        await fc.assert(
          fc.asyncProperty(
            fc.stringMatching(/^[A-Za-z_]{1,12}$/).filter((k) => !known.includes(k)),
            async (name) => {
              cases++;
              const res = await post(r, { [name]: 1 });
              expect(res.status).toBe(400);
              expect(isErrorCollectionNaming(res.body, `Unrecognized field "${name}"`), res.text).toBe(true);
            },
          ),
          { numRuns: RUNS },
        );
      }
    }
    expect(cases).toBeGreaterThan(80);
    expect(await snapshot()).toBe(before);
  });

  it('the replies of every read route match the response schema it declares', async () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    const reads: [string, string][] = [
      ['/myself', ''],
      ['/serverInfo', ''],
      ['/user/search', '?query=a'],
      ['/user', `?accountId=${(await t.as('executor').get('/myself')).body.accountId}`],
      ['/project', '?expand=description,lead,issueTypes'],
      ['/project/search', '?expand=lead'],
      ['/project/:projectIdOrKey', ''],
      ['/project/:projectIdOrKey/statuses', ''],
      ['/status', ''],
      ['/status/:idOrName', ''],
      ['/statuscategory', ''],
      ['/statuscategory/:idOrKey', ''],
      ['/priority', ''],
      ['/priority/:id', ''],
      ['/issuetype', ''],
      ['/issuetype/:id', ''],
      ['/field', ''],
      ['/issue/createmeta/:projectIdOrKey/issuetypes', ''],
      ['/issue/createmeta/:projectIdOrKey/issuetypes/:issueTypeId', ''],
      ['/issue/:issueIdOrKey', '?expand=names,schema'],
      ['/issue/:issueIdOrKey/comment', ''],
      ['/issue/:issueIdOrKey/comment/:id', '?expand=renderedBody'],
      ['/issue/:issueIdOrKey/transitions', ''],
      ['/issue/:issueIdOrKey/editmeta', ''],
      ['/search/jql', '?jql=project%3DABC&fields=*all&expand=names,schema'],
    ];
    const comment = (await t.as('assigner').post(`/issue/${key}/comment`, { body: { type: 'doc', version: 1, content: [] } })).body.id as string;
    const ids: Record<string, string> = { issueIdOrKey: key, projectIdOrKey: 'ABC', idOrName: 'To Do', idOrKey: 'new', id: '10001', issueTypeId: '10001' };
    const covered = new Set<string>();
    for (const [url, query] of reads) {
      const route = routes.find((r) => r.method === 'GET' && r.url === `${PREFIX}${url}`);
      expect(route, url).toBeDefined();
      covered.add(url);
      const special: Record<string, string> = { '/priority/:id': '3', '/issue/:issueIdOrKey/comment/:id': comment };
      const path = url.replace(/:(\w+)/g, (_m, name: string) => (name === 'id' && special[url] !== undefined ? special[url] : ids[name]!));
      const res = await t.as('assigner').get(`${path}${query}`);
      expect(res.status, path).toBe(200);
      const validate = ajv.compile(closed(route!.schema!.response!['200']!));
      expect(validate(res.body), `${path}: ${JSON.stringify(validate.errors?.slice(0, 3))}`).toBe(true);
    }
    const untested = routes.filter((r) => r.method === 'GET' && !covered.has(r.url.slice(PREFIX.length)) && r.schema?.response?.['200']);
    expect(untested.map((r) => r.url)).toEqual([]);
  });
});
