import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestTracker, storeKinds, type TestTracker } from '../../../../test/support/tracker.js';
import { createFixture, type Fixture } from './fixture.js';
import { queryString } from './url-arbitraries.js';
import { assertProperty, fcParams, jsonHeaders, jsonText, LIMIT, RUNS, sendChecked, storeFingerprint, timeoutFor, wellFormed } from './support.js';
import type { Who } from '../../../../test/support/seed.js';

/**
 * Issue 4 "Hostile input", JQL (spec §4 endpoint 15, GET and POST /search/jql): queries from
 * the grammar (valid and subtly broken), nested thousands deep, thousands of clauses or values
 * wide, 1 MiB long, random text; with random fields, page sizes and forged page tokens.
 * No 5xx, in time, nothing written, and a 200 only ever lists issues the caller may see.
 */

const FIELDS = [
  'project',
  'key',
  'issue',
  'id',
  'issuekey',
  'summary',
  'description',
  'text',
  'status',
  'statusCategory',
  'assignee',
  'reporter',
  'creator',
  'issuetype',
  'type',
  'parent',
  'created',
  'updated',
  'createdDate',
  'updatedDate',
  'labels',
  'priority',
  'cf[10001]',
  'Summary',
  'STATUS',
  '"summary"',
  'nofield',
];
const OPS = ['=', '!=', '~', '!~', '<', '<=', '>', '>=', 'in', 'not in', 'is', 'is not', 'IN', 'NOT IN', 'was', 'changed', '==', '=>'];
const VALUES = [
  'ABC',
  'abc',
  'SEC',
  'RST',
  '10001',
  'ABC-1',
  'ABC-2',
  'abc-1',
  'ABC-0',
  'ABC-99999999999',
  'SEC-1',
  '"To Do"',
  '"In Progress"',
  'Done',
  'Backlog',
  'new',
  'done',
  'indeterminate',
  'Task',
  'Subtask',
  '10002',
  'EMPTY',
  'NULL',
  'currentUser()',
  'currentuser( )',
  'now()',
  'startOfDay()',
  'startOfDay("-1d")',
  'endOfWeek(1)',
  'startOfMonth(-1, x)',
  'membersOf("x")',
  'unknownFn()',
  '"assigner@acme.test"',
  'assigner@acme.test',
  '"outsider@acme.test"',
  '2026-01-01',
  '"2026/01/01 10:00"',
  '"-1d"',
  '-2w',
  '"+1h"',
  '1999-13-45',
  '"a b"',
  "'single'",
  '"esc \\" quote"',
  '"\\u0041"',
  '"\\x"',
  '"unterminated',
  'and',
  'or',
  'not',
  'order',
  '*',
  '%',
  '?',
  '"*"',
  '"%"',
  '"_"',
  "'",
  '""',
  '()',
];

const word = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...VALUES) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }).map((s) => JSON.stringify(s)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
);

const clause = fc
  .tuple(
    fc.constantFrom(...FIELDS),
    fc.constantFrom(...OPS),
    fc.oneof(
      word,
      fc.array(word, { minLength: 1, maxLength: 4 }).map((ws) => `(${ws.join(', ')})`),
    ),
  )
  .map(([f, op, v]) => `${f} ${op} ${v}`);

/** Clauses that mostly compile: each field with operators and values it takes. */
const n = fc.integer({ min: 0, max: 12 });
const person = fc.constantFrom('currentUser()', '"assigner@acme.test"', 'executor@acme.test', '"nobody@acme.test"', 'EMPTY');
const typedClause = fc.oneof(
  fc
    .tuple(fc.constantFrom('=', '!=', 'in', 'not in'), fc.constantFrom('ABC', 'RST', 'SEC', 'abc', '(ABC, RST)', '(ABC)'))
    .map(([op, v]) => `project ${op} ${op.includes('in') && !v.startsWith('(') ? `(${v})` : v}`),
  fc.tuple(fc.constantFrom('key', 'issue', 'issuekey', 'id'), fc.constantFrom('=', '!=', '<', '>', '<=', '>='), n).map(([f, op, i]) => `${f} ${op} ABC-${i}`),
  fc.tuple(fc.constantFrom('key', 'parent'), fc.array(n, { minLength: 1, maxLength: 4 })).map(([f, is]) => `${f} in (${is.map((i) => `ABC-${i}`).join(', ')})`),
  fc
    .tuple(
      fc.constantFrom('summary', 'description', 'text'),
      fc.constantFrom('~', '!~'),
      fc.array(fc.constantFrom('task', 'target', 'parent', 'sub', 'Scope', 'one', 'type', 'content', 'text', 'pars*', 'zzz'), { minLength: 1, maxLength: 3 }),
    )
    .map(([f, op, ws]) => `${f} ${op} "${ws.join(' ')}"`),
  fc
    .tuple(
      fc.constantFrom('status', 'statusCategory'),
      fc.constantFrom('=', '!=', 'in', 'not in'),
      fc.constantFrom('"To Do"', 'Done', '"In Progress"', 'Backlog', 'new', 'done', 'indeterminate'),
    )
    .map(([f, op, v]) => `${f} ${op} ${op.includes('in') ? `(${v})` : v}`),
  fc
    .tuple(fc.constantFrom('assignee', 'reporter', 'creator'), fc.constantFrom('=', '!=', 'in', 'not in', 'is', 'is not'), person)
    .map(([f, op, v]) => (op.startsWith('is') ? `${f} ${op} EMPTY` : `${f} ${op} ${op.includes('in') ? `(${v})` : v}`)),
  fc
    .tuple(fc.constantFrom('issuetype', 'type'), fc.constantFrom('=', '!='), fc.constantFrom('Task', 'Subtask', '10001'))
    .map(([f, op, v]) => `${f} ${op} ${v}`),
  fc
    .tuple(
      fc.constantFrom('created', 'updated', 'createdDate'),
      fc.constantFrom('<', '>', '<=', '>=', '=', '!='),
      fc.constantFrom('-1d', '"-2w"', 'now()', 'startOfDay()', 'endOfMonth()', '"2026-01-01"', '"2026/01/01 10:00"', '2099-12-31'),
    )
    .map(([f, op, v]) => `${f} ${op} ${v}`),
);

const { expr } = fc.letrec<{ expr: string }>((tie) => ({
  expr: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 10, arbitrary: typedClause },
    { weight: 1, arbitrary: clause },
    { weight: 1, arbitrary: tie('expr').map((e) => `(${e})`) },
    { weight: 1, arbitrary: tie('expr').map((e) => `NOT ${e}`) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          tie('expr'),
          fc.oneof(
            { weight: 12, arbitrary: fc.constantFrom('AND', 'OR', 'and', 'or', '&&', '||', '&', '|') },
            { weight: 1, arbitrary: fc.constantFrom('', 'XOR', ',') },
          ),
          tie('expr'),
        )
        .map(([a, op, b]) => `${a} ${op} ${b}`),
    },
  ),
}));

const orderBy = fc.option(
  fc
    .array(
      fc.tuple(
        fc.oneof(
          { weight: 8, arbitrary: fc.constantFrom('key', 'created', 'updated', 'summary', 'status', 'issuetype', 'project') },
          { weight: 1, arbitrary: fc.constantFrom(...FIELDS) },
        ),
        fc.oneof({ weight: 12, arbitrary: fc.constantFrom('', 'ASC', 'DESC', 'asc') }, { weight: 1, arbitrary: fc.constant('sideways') }),
      ),
      { minLength: 1, maxLength: 4 },
    )
    .map((items) => ` ORDER BY ${items.map(([f, d]) => `${f} ${d}`).join(', ')}`),
  { nil: '' },
);

/** Pathological shapes: deep nesting, long chains, long IN lists, long words, long text. */
const monster = fc
  .tuple(
    fc.constantFrom('parens', 'nots', 'ors', 'ands', 'inlist', 'words', 'longword', 'keys', 'bang'),
    fc.constantFrom(50, 99, 100, 101, 150, 499, 500, 999, 1000, 1001, 5000, 50_000, 200_000),
  )
  .map(([shape, n]) => {
    switch (shape) {
      case 'parens':
        return `${'('.repeat(n)}project = ABC${')'.repeat(n)}`;
      case 'nots':
        return `${'NOT '.repeat(n)}project = ABC`;
      case 'ors':
        return Array.from({ length: n }, (_, i) => `summary ~ w${i}`).join(' OR ');
      case 'ands':
        return Array.from({ length: n }, () => 'project = ABC').join(' AND ');
      case 'inlist':
        return `assignee in (${Array.from({ length: n }, () => '"assigner@acme.test"').join(',')})`;
      case 'words':
        return `description ~ "${Array.from({ length: n }, (_, i) => `w${i}`).join(' ')}"`;
      case 'longword':
        return `summary ~ "${'x'.repeat(n * 5)}"`;
      case 'keys':
        return `key in (${Array.from({ length: n }, (_, i) => `ABC-${i + 1}`).join(',')})`;
      default:
        return '!'.repeat(n) + 'project = ABC';
    }
  });

export const anyJql = fc.oneof(
  { weight: 10, arbitrary: fc.tuple(expr, orderBy).map(([e, o]) => `${e}${o}`) },
  { weight: 1, arbitrary: orderBy },
  { weight: 2, arbitrary: monster },
  { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
);

const searchFields = fc.option(
  fc.array(
    fc.constantFrom('id', 'key', 'summary', 'status', '*all', '*navigable', '-summary', 'comment', 'subtasks', 'parent', 'nosuch', '', ',', 'summary,status'),
    { maxLength: 4 },
  ),
  { nil: undefined },
);
const maxResults = fc.option(
  fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(1, 2, 50, 100, 101, 5000, 5001) },
    { weight: 1, arbitrary: fc.constantFrom(0, -1, 2 ** 31, 1.5) },
    { weight: 1, arbitrary: fc.integer() },
  ),
  { nil: undefined, freq: 2 },
);

describe.each(await storeKinds())('spec §4 rule 13, hostile input: JQL on GET and POST /search/jql (%s)', (kind) => {
  let t: TestTracker;
  let fx: Fixture;
  /** Keys the assigner may not see: any of them in a result is a leak. */
  let hidden: Set<string>;
  let tokens: string[] = [];
  beforeAll(async () => {
    t = await startTestTracker(kind);
    fx = await createFixture(t);
    hidden = new Set([fx.targets.sec, fx.ids.sec]);
    // Real page tokens to tamper with.
    const first = await sendChecked({
      method: 'POST',
      url: `${t.api}/search/jql`,
      headers: jsonHeaders('assigner'),
      body: JSON.stringify({ jql: 'project = ABC', maxResults: 1 }),
    });
    tokens = [String((first.body as { nextPageToken?: string }).nextPageToken ?? '')];
  });
  afterAll(async () => {
    await t?.close();
  });

  const check = async (r: { status: number; body: unknown }, who: Who) => {
    if (r.status !== 200) return;
    const issues = (r.body as { issues: { id: string; key?: string }[] }).issues;
    if (who === 'assigner')
      for (const i of issues) expect(hidden.has(i.id) || (i.key !== undefined && hidden.has(i.key)), `leaked ${i.key ?? i.id}`).toBe(false);
    expect(new Set(issues.map((i) => i.id)).size).toBe(issues.length);
  };

  const tampered = fc.oneof(
    { weight: 6, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.nat(), fc.integer({ min: 0, max: 63 })).map(([at, c]) => {
        const tok = tokens[0]!;
        if (tok === '') return 'x';
        const i = at % tok.length;
        const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
        return tok.slice(0, i) + alphabet.charAt(c) + tok.slice(i + 1);
      }),
    },
    { weight: 1, arbitrary: fc.constantFrom('.', '..', 'a.b', 'a.b.c', `${'A'.repeat(5000)}.${'B'.repeat(43)}`, 'eyJ2IjoxfQ.AAAA') },
  );

  it(
    'POST /search/jql: any JQL, fields, maxResults and forged nextPageToken never get a 5xx, answer in time, write nothing, and list only visible issues',
    async () => {
      await assertProperty(
        fc.asyncProperty(
          anyJql,
          searchFields,
          maxResults,
          tampered,
          fc.constantFrom<Who>('assigner', 'assigner', 'executor', 'outsider', 'viewer'),
          async (jql, fields, max, token, who) => {
            const before = await storeFingerprint(t);
            const body = jsonText({
              jql,
              ...(fields ? { fields } : {}),
              ...(max !== undefined ? { maxResults: max } : {}),
              ...(token !== undefined ? { nextPageToken: token } : {}),
            });
            const r = await sendChecked({ method: 'POST', url: `${t.api}/search/jql`, headers: jsonHeaders(who), body });
            if (Buffer.byteLength(body) > LIMIT) expect(r.status).toBe(413);
            await check(r, who);
            expect(await storeFingerprint(t)).toEqual(before);
          },
        ),
      );
    },
    timeoutFor(RUNS, 500),
  );

  it(
    'GET /search/jql: any JQL and random query parameters never get a 5xx (URLs past the header limit are 431/414), write nothing, and list only visible issues',
    async () => {
      await assertProperty(
        fc.asyncProperty(anyJql, searchFields, queryString, fc.constantFrom<Who>('assigner', 'executor', 'outsider'), async (jql, fields, extra, who) => {
          const before = await storeFingerprint(t);
          const q = `jql=${encodeURIComponent(wellFormed(jql))}${fields ? `&fields=${encodeURIComponent(fields.join(','))}` : ''}${extra.replace(/^\?/, '&')}`;
          const r = await sendChecked({ method: 'GET', url: `${t.api}/search/jql?${q}`, headers: jsonHeaders(who) });
          await check(r, who);
          expect(await storeFingerprint(t)).toEqual(before);
        }),
      );
    },
    timeoutFor(RUNS, 300),
  );

  it(
    'a search paged to the end with nextPageToken visits every visible issue once, whatever the page size',
    async () => {
      await assertProperty(
        fc.asyncProperty(
          fc.integer({ min: 1, max: 7 }),
          fc.constantFrom('project = ABC', 'project in (ABC, RST) ORDER BY key DESC', 'assignee is EMPTY OR summary ~ target ORDER BY updated, key'),
          async (size, jql) => {
            const all = await sendChecked({
              method: 'POST',
              url: `${t.api}/search/jql`,
              headers: jsonHeaders('assigner'),
              body: JSON.stringify({ jql, maxResults: 5000, fields: ['key'] }),
            });
            const everything = (all.body as { issues: { id: string }[] }).issues.map((i) => i.id);
            const seen: string[] = [];
            let token: string | undefined;
            for (let page = 0; page < 500; page++) {
              const r = await sendChecked({
                method: 'POST',
                url: `${t.api}/search/jql`,
                headers: jsonHeaders('assigner'),
                body: JSON.stringify({ jql, maxResults: size, ...(token ? { nextPageToken: token } : {}) }),
              });
              const b = r.body as { issues: { id: string }[]; nextPageToken?: string; isLast: boolean };
              seen.push(...b.issues.map((i) => i.id));
              expect(b.isLast).toBe(b.nextPageToken === undefined);
              if (b.isLast) break;
              token = b.nextPageToken;
            }
            expect(seen).toEqual(everything);
          },
        ),
        fcParams(Math.max(3, RUNS / 5)),
      );
    },
    timeoutFor(RUNS, 500),
  );
});
