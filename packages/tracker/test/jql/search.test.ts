import { adfToPlainText } from '@jst/adf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeKinds } from '../../../../test/support/tracker.js';
import { collect, ms, searchFixture, type IssueRecord, type SearchFixture } from './fixture.js';

type Who = 'assigner' | 'executor' | 'viewer';
const DAY = 86_400_000;

// Readers of the GET /issue records the expected sets are computed from.
const proj = (r: IssueRecord) => r.fields.project.key as string;
const num = (r: IssueRecord) => Number(r.key.split('-')[1]);
const acc = (r: IssueRecord) => r.fields.assignee?.accountId as string | undefined;
const status = (r: IssueRecord) => r.fields.status.name as string;
const category = (r: IssueRecord) => r.fields.status.statusCategory.key as string;
const type = (r: IssueRecord) => r.fields.issuetype.name as string;
const created = (r: IssueRecord) => ms(r.fields.created);
const updated = (r: IssueRecord) => ms(r.fields.updated);
const desc = (r: IssueRecord) => (r.fields.description ? adfToPlainText(r.fields.description) : '');
/** The documented `~` rule: every word of the query occurs in the text, ignoring case. */
const has = (text: string, query: string) =>
  query
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .every((w) => text.toLowerCase().includes(w.toLowerCase()));
const day = (at: number) => new Date(at).toISOString().slice(0, 10);
const startOfDay = (at: number) => Date.parse(`${day(at)}T00:00:00Z`);

type Case = [
  string,
  (fx: SearchFixture, s: (summary: string) => IssueRecord) => string,
  (r: IssueRecord, fx: SearchFixture, s: (summary: string) => IssueRecord) => boolean,
  Who?,
];

const CASES: Case[] = [
  ['project =', () => 'project = ABC', (r) => proj(r) === 'ABC'],
  ['project by name, case-insensitive', () => 'project = "restricted FLOW"', (r) => proj(r) === 'RST'],
  ['project IN', () => 'project in (ABC, rst)', (r) => ['ABC', 'RST'].includes(proj(r))],
  ['project !=', () => 'project != ABC', (r) => proj(r) !== 'ABC'],
  ['key =', (_, s) => `key = ${s('Write docs').key}`, (r, _, s) => r.key === s('Write docs').key],
  [
    'issuekey IN with a key and an id',
    (_, s) => `issuekey in (${s('Lexer').key}, ${s('Write docs').id})`,
    (r, _, s) => [s('Lexer'), s('Write docs')].includes(r),
  ],
  ['id =', (_, s) => `id = ${s('Lexer').id}`, (r, _, s) => r === s('Lexer')],
  [
    'key NOT IN',
    (_, s) => `project = ABC and key not in (${s('Lexer').key}, ${s('Write docs').key})`,
    (r, _, s) => proj(r) === 'ABC' && ![s('Lexer'), s('Write docs')].includes(r),
  ],
  ['key ranges order within the project', () => 'key > ABC-3 and key <= ABC-9', (r) => proj(r) === 'ABC' && num(r) > 3 && num(r) <= 9],
  ['id range', (_, s) => `id >= ${s('Lexer').id}`, (r, _, s) => Number(r.id) >= Number(s('Lexer').id)],
  ['issuetype =', () => 'issuetype = Subtask', (r) => type(r) === 'Subtask'],
  ['type NOT IN', () => 'type not in (subtask)', (r) => type(r) !== 'Subtask'],
  ['status =', () => 'status = "In Review"', (r) => status(r) === 'In Review'],
  ['status IN across workflows', () => 'status in (Done, Doing)', (r) => ['Done', 'Doing'].includes(status(r))],
  ['status !=', () => 'status != "To Do"', (r) => status(r) !== 'To Do'],
  ['statusCategory =', () => 'statusCategory = indeterminate', (r) => category(r) === 'indeterminate'],
  ['statusCategory IN by name', () => 'statusCategory in ("To Do", "Done")', (r) => ['new', 'done'].includes(category(r))],
  ['assignee by accountId', (fx) => `assignee = ${fx.ids.executor}`, (r, fx) => acc(r) === fx.ids.executor],
  ['assignee by e-mail', () => 'assignee = "Reviewer@acme.test"', (r, fx) => acc(r) === fx.ids.reviewer],
  ['assignee = currentUser()', () => 'assignee = currentUser()', (r, fx) => acc(r) === fx.ids.executor, 'executor'],
  ['assignee IS EMPTY', () => 'assignee is empty', (r) => acc(r) === undefined],
  ['assignee IS NOT NULL', () => 'assignee is not null', (r) => acc(r) !== undefined],
  ['assignee != never matches the unassigned', (fx) => `assignee != ${fx.ids.executor}`, (r, fx) => acc(r) !== undefined && acc(r) !== fx.ids.executor],
  ['assignee NOT IN with EMPTY', (fx) => `assignee not in (${fx.ids.reviewer}, EMPTY)`, (r, fx) => acc(r) !== undefined && acc(r) !== fx.ids.reviewer],
  ['assignee IN with EMPTY', (fx) => `assignee in (EMPTY, ${fx.ids.reviewer})`, (r, fx) => acc(r) === undefined || acc(r) === fx.ids.reviewer],
  ['NOT assignee = includes the unassigned', (fx) => `NOT assignee = ${fx.ids.executor}`, (r, fx) => acc(r) !== fx.ids.executor],
  ['reporter =', (fx) => `reporter = ${fx.ids.reviewer}`, (r, fx) => r.fields.reporter.accountId === fx.ids.reviewer],
  ['creator by e-mail', () => 'creator = "executor@acme.test"', (r, fx) => r.fields.creator.accountId === fx.ids.executor],
  ['reporter != currentUser()', () => 'reporter != currentUser()', (r, fx) => r.fields.reporter.accountId !== fx.ids.assigner],
  ['parent =', (_, s) => `parent = ${s('Parser for the query language').key}`, (r, _, s) => r.fields.parent?.key === s('Parser for the query language').key],
  [
    'parent IN by key and id',
    (_, s) => `parent in (${s('Parser for the query language').key}, ${s('Release checklist').id})`,
    (r, _, s) => [s('Parser for the query language').key, s('Release checklist').key].includes(r.fields.parent?.key),
  ],
  ['parent IS EMPTY', () => 'parent is empty and project = ABC', (r) => !r.fields.parent && proj(r) === 'ABC'],
  ['parent IS NOT EMPTY', () => 'parent is not empty', (r) => Boolean(r.fields.parent)],
  ['summary ~ a word', () => 'summary ~ parser', (r) => has(r.fields.summary, 'parser')],
  ['summary ~ every word, any case', () => 'summary ~ "LOGIN error"', (r) => has(r.fields.summary, 'login error')],
  ['summary ~ a prefix with a wildcard', () => 'summary ~ "chec*"', (r) => has(r.fields.summary, 'chec')],
  ['summary !~', () => 'project = ABC and summary !~ parser', (r) => proj(r) === 'ABC' && !has(r.fields.summary, 'parser')],
  ['text ~ finds description words', () => 'text ~ tokenizer', (r) => has(`${r.fields.summary}\n${desc(r)}`, 'tokenizer')],
  ['text ~ "content type" matches written text, not the ADF format', () => 'text ~ "content type"', (r) => has(desc(r), 'content type')],
  ['text ~ paragraph matches no document structure', () => 'text ~ paragraph', () => false],
  ['text !~', () => 'project = ABC and text !~ parser', (r) => proj(r) === 'ABC' && !has(`${r.fields.summary}\n${desc(r)}`, 'parser')],
  ['description ~', () => 'description ~ batch', (r) => has(desc(r), 'batch')],
  ['description IS EMPTY', () => 'description is empty', (r) => !r.fields.description],
  ['created >= relative days', () => 'created >= -3d', (r) => created(r) >= Date.now() - 3 * DAY],
  ['created < relative weeks', () => 'created < "-1w"', (r) => created(r) < Date.now() - 7 * DAY],
  ['created >= an absolute date', (_, s) => `created >= "${day(created(s('Bulk item 4')))}"`, (r, _, s) => created(r) >= startOfDay(created(s('Bulk item 4')))],
  [
    'created = a date matches that day',
    (_, s) => `created = "${day(created(s('Bulk item 3'))).replace(/-/g, '/')}"`,
    (r, _, s) => day(created(r)) === day(created(s('Bulk item 3'))),
  ],
  [
    'created < a date and time',
    (_, s) => `created < "${new Date(created(s('Bulk item 2')) + 60_000).toISOString().slice(0, 16).replace('T', ' ')}"`,
    (r, _, s) => created(r) < Math.floor((created(s('Bulk item 2')) + 60_000) / 60_000) * 60_000,
  ],
  ['updated >= startOfDay(-2)', () => 'updated >= startOfDay(-2)', (r) => updated(r) >= startOfDay(Date.now() - 2 * DAY)],
  ['created <= now()', () => 'created <= now() and project = RST', (r) => proj(r) === 'RST'],
  [
    'AND binds tighter than OR',
    () => 'project = RST OR assignee is empty AND project = ABC',
    (r) => proj(r) === 'RST' || (acc(r) === undefined && proj(r) === 'ABC'),
  ],
  [
    'parentheses',
    () => '(project = RST OR assignee is empty) AND status != Doing',
    (r) => (proj(r) === 'RST' || acc(r) === undefined) && status(r) !== 'Doing',
  ],
  [
    'NOT a group',
    () => 'project = ABC and not (status = Done or issuetype = Subtask)',
    (r) => proj(r) === 'ABC' && !(status(r) === 'Done' || type(r) === 'Subtask'),
  ],
  [
    'symbol operators',
    (fx) => `project = ABC && (assignee = ${fx.ids.executor} || parent is not empty)`,
    (r, fx) => proj(r) === 'ABC' && (acc(r) === fx.ids.executor || Boolean(r.fields.parent)),
  ],
];

describe.each(await storeKinds())('spec §4 endpoint 15: POST /search/jql filters (%s)', (kind) => {
  let fx: SearchFixture;
  let s: (summary: string) => IssueRecord;
  beforeAll(async () => {
    fx = await searchFixture(kind);
    s = (summary) => [...fx.issues.values()].find((r) => r.fields.summary === summary)!;
  });
  afterAll(async () => {
    await fx?.close();
  });

  /** What `who` may see: ABC for everyone in it, RST for its members. */
  const visible = (who: Who) => [...fx.issues.values()].filter((r) => proj(r) === 'ABC' || (proj(r) === 'RST' && who !== 'viewer'));

  it.each(CASES)('%s returns exactly the matching issues', async (_name, jql, match, who = 'assigner') => {
    const got = await collect(fx.t.as(who), jql(fx, s), { maxResults: 5000 });
    const expected = visible(who)
      .filter((r) => match(r, fx, s))
      .map((r) => r.key)
      .sort();
    expect(got.ids.map((id) => fx.byId.get(id)?.key).sort()).toEqual(expected);
  });

  it('the fixture spreads issues over every field the cases test', () => {
    const all = visible('assigner');
    expect(new Set(all.map(status)).size).toBeGreaterThanOrEqual(5);
    expect(all.filter((r) => acc(r) === undefined).length).toBeGreaterThan(1);
    expect(all.filter((r) => r.fields.parent).length).toBe(3);
    expect(all.filter((r) => r.fields.comment.total > 0).length).toBe(2);
    expect(new Set(all.map((r) => day(created(r)))).size).toBeGreaterThanOrEqual(6);
  });

  const sorted = (rows: IssueRecord[], by: ((a: IssueRecord, b: IssueRecord) => number)[]) =>
    [...rows].sort((a, b) => by.reduce((d, f) => d || f(a, b), 0)).map((r) => r.id);
  const asc =
    <T>(f: (r: IssueRecord) => T) =>
    (a: IssueRecord, b: IssueRecord) =>
      f(a) < f(b) ? -1 : f(a) > f(b) ? 1 : 0;
  const descending =
    <T>(f: (r: IssueRecord) => T) =>
    (a: IssueRecord, b: IssueRecord) =>
      -asc(f)(a, b);
  const id = (r: IssueRecord) => Number(r.id);
  const statusId = (r: IssueRecord) => Number(r.fields.status.id);

  it.each([
    [
      'no ORDER BY: newest first',
      'project = ABC',
      (rows: IssueRecord[]) =>
        sorted(
          rows.filter((r) => proj(r) === 'ABC'),
          [descending(created), descending(id)],
        ),
    ],
    ['ORDER BY key DESC', 'project in (ABC, RST) ORDER BY key DESC', (rows: IssueRecord[]) => sorted(rows, [descending(proj), descending(num)])],
    [
      'ORDER BY created ASC',
      'project = ABC ORDER BY created ASC',
      (rows: IssueRecord[]) =>
        sorted(
          rows.filter((r) => proj(r) === 'ABC'),
          [asc(created), asc(id)],
        ),
    ],
    [
      'ORDER BY updated DESC',
      'project = ABC order by updated desc',
      (rows: IssueRecord[]) =>
        sorted(
          rows.filter((r) => proj(r) === 'ABC'),
          [descending(updated), descending(id)],
        ),
    ],
    [
      'ORDER BY summary',
      'project = ABC ORDER BY summary',
      (rows: IssueRecord[]) =>
        sorted(
          rows.filter((r) => proj(r) === 'ABC'),
          [asc((r) => r.fields.summary), asc(id)],
        ),
    ],
    [
      'ORDER BY status DESC, key',
      'project in (ABC, RST) ORDER BY status DESC, key',
      (rows: IssueRecord[]) => sorted(rows, [descending(statusId), asc(proj), asc(num)]),
    ],
    [
      'ORDER BY issuetype, project, id DESC',
      'created <= now() ORDER BY issuetype, project, id DESC',
      (rows: IssueRecord[]) => sorted(rows, [asc(type), asc(proj), descending(id)]),
    ],
  ])('%s', async (_name, jql, expected) => {
    const got = await collect(fx.t.as('assigner'), jql, { maxResults: 5000 });
    expect(got.ids).toEqual(expected(visible('assigner')));
  });
});
