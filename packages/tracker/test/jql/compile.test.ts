import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/domain/errors.js';
import { compileJql, type JqlContext } from '../../src/domain/jql/compile.js';
import { parseJql } from '../../src/domain/jql/parser.js';
import { ADF_STRUCTURE } from '../../src/domain/jql/text-search.js';

/** A caller (user 7) who sees ABC (id 1) and RST (id 2); SEC exists elsewhere but is not visible. */
const NOW = new Date('2026-03-18T15:30:00.000Z');
const ctx: JqlContext = {
  now: NOW,
  userId: 7,
  projects: [
    { id: 1, key: 'ABC', name: 'Alpha' },
    { id: 2, key: 'RST', name: 'Restricted flow' },
  ],
  statuses: [
    { id: 1, name: 'To Do', category: 'new' },
    { id: 2, name: 'In Progress', category: 'indeterminate' },
    { id: 3, name: 'In Review', category: 'indeterminate' },
    { id: 4, name: 'Done', category: 'done' },
  ],
  async user(ref) {
    return ({ 'acc-eve': 8, 'eve@acme.test': 8 } as Record<string, number>)[ref.toLowerCase()] ?? null;
  },
  async issue(ref) {
    if ('id' in ref) return ref.id === 5 ? 5 : null;
    return ref.projectId === 1 && ref.number <= 20 ? 100 + ref.number : null;
  },
};
const compile = async (jql: string) => compileJql(parseJql(jql), ctx);
const filterOf = async (jql: string) => (await compile(jql)).filter;

async function errorOf(jql: string): Promise<string> {
  try {
    await compile(jql);
  } catch (e) {
    expect((e as ApiError).status).toBe(400);
    return (e as ApiError).errorMessages[0]!;
  }
  throw new Error(`compiled without error: ${jql}`);
}

const cmp = (column: string, op: string, value: string | number) => ({ kind: 'compare', column, op, value });
const inList = (column: string, values: (string | number)[], negated = false) => ({ kind: 'in', column, values, negated });

describe('spec §4 endpoint 15: JQL fields and values', () => {
  it.each([
    ['project = abc', cmp('project_id', '=', 1)],
    ['project = "Restricted flow"', cmp('project_id', '=', 2)],
    ['project = 10002', cmp('project_id', '=', 2)],
    ['project in (ABC, RST)', inList('project_id', [1, 2])],
    ['project != ABC', inList('project_id', [1], true)],
    ['status in (Done, "In Review", done)', inList('status_id', [4, 3])],
    ['key = ABC-3', inList('id', [103])],
    ['issuekey in (ABC-3, abc-4, 10005)', inList('id', [103, 104, 5])],
    ['id = 10005', inList('id', [5])],
    ['key != ABC-3', inList('id', [103], true)],
    ['key > ABC-3', { kind: 'and', items: [cmp('project_id', '=', 1), cmp('number', '>', 3)] }],
    ['key <= 10005', cmp('id', '<=', 5)],
    ['issuetype = subtask', cmp('issue_type', '=', 'Subtask')],
    ['type = 10001', cmp('issue_type', '=', 'Task')],
    ['status = "in progress"', cmp('status_id', '=', 2)],
    ['status = 10004', cmp('status_id', '=', 4)],
    ['statusCategory = indeterminate', inList('status_id', [2, 3])],
    ['statusCategory in ("To Do", 3)', inList('status_id', [1, 4])],
    ['assignee = acc-eve', cmp('assignee_id', '=', 8)],
    ['reporter = "EVE@acme.test"', cmp('reporter_id', '=', 8)],
    ['creator = currentUser()', cmp('creator_id', '=', 7)],
    ['assignee is empty', { kind: 'empty', column: 'assignee_id' }],
    ['assignee is not empty', { kind: 'not', item: { kind: 'empty', column: 'assignee_id' } }],
    ['reporter is empty', { kind: 'false' }],
    ['parent = ABC-2', cmp('parent_id', '=', 102)],
    ['parent is empty', { kind: 'empty', column: 'parent_id' }],
    ['summary ~ Parser', { kind: 'contains', column: 'summary', word: 'Parser', ignore: [] }],
    ['description ~ grammar', { kind: 'contains', column: 'description', word: 'grammar', ignore: ADF_STRUCTURE }],
    ['description is empty', { kind: 'empty', column: 'description' }],
  ])('%s', async (jql, expected) => {
    expect(await filterOf(jql)).toEqual(expected);
  });

  it('~ needs every word, case-insensitively; wildcards are dropped', async () => {
    expect(await filterOf('summary ~ "login* error"')).toEqual({
      kind: 'and',
      items: [
        { kind: 'contains', column: 'summary', word: 'login', ignore: [] },
        { kind: 'contains', column: 'summary', word: 'error', ignore: [] },
      ],
    });
  });

  it('text ~ searches the summary and the description text; !~ is its complement', async () => {
    const word = {
      kind: 'or',
      items: [
        { kind: 'contains', column: 'summary', word: 'lexer', ignore: [] },
        { kind: 'contains', column: 'description', word: 'lexer', ignore: ADF_STRUCTURE },
      ],
    };
    expect(await filterOf('text ~ lexer')).toEqual(word);
    expect(await filterOf('text !~ lexer')).toEqual({ kind: 'not', item: word });
  });

  it('the ADF structure cut before matching keeps written text intact', () => {
    const stored = JSON.stringify({ type: 'doc', version: 1, content: [{ type: 'paragraph', content: [{ type: 'text', text: 'text content type' }] }] });
    const stripped = ADF_STRUCTURE.reduce((s, f) => s.split(f).join(''), stored);
    expect(stripped).toContain('text content type');
    expect(stripped.replace('text content type', '')).not.toMatch(/text|content|type|paragraph|doc/);
  });

  it('!= and NOT IN never match an empty field; NOT is the exact complement', async () => {
    expect(await filterOf('assignee != acc-eve')).toEqual(inList('assignee_id', [8], true));
    expect(await filterOf('not assignee = acc-eve')).toEqual({ kind: 'not', item: cmp('assignee_id', '=', 8) });
    expect(await filterOf('assignee not in (acc-eve, EMPTY)')).toEqual({
      kind: 'and',
      items: [inList('assignee_id', [8], true), { kind: 'not', item: { kind: 'empty', column: 'assignee_id' } }],
    });
    expect(await filterOf('created != "2026-01-31"')).toEqual({
      kind: 'not',
      item: {
        kind: 'and',
        items: [cmp('created_at', '>=', '2026-01-31T00:00:00.000Z'), cmp('created_at', '<', '2026-02-01T00:00:00.000Z')],
      },
    });
    expect(await filterOf('assignee in (EMPTY, currentUser())')).toEqual({
      kind: 'or',
      items: [{ kind: 'empty', column: 'assignee_id' }, cmp('assignee_id', '=', 7)],
    });
  });

  it('AND, OR and NOT keep their structure', async () => {
    expect(await filterOf('project = ABC and (status = Done or not assignee is empty)')).toEqual({
      kind: 'and',
      items: [cmp('project_id', '=', 1), { kind: 'or', items: [cmp('status_id', '=', 4), { kind: 'not', item: { kind: 'empty', column: 'assignee_id' } }] }],
    });
  });
});

describe('spec §4 endpoint 15: JQL dates', () => {
  const day = (iso: string) => ({ kind: 'and', items: [cmp('created_at', '>=', `${iso}T00:00:00.000Z`), cmp('created_at', '<', nextDay(iso))] });
  const nextDay = (iso: string) => new Date(Date.parse(`${iso}T00:00:00Z`) + 86_400_000).toISOString();
  it.each([
    ['created > -7d', cmp('created_at', '>', '2026-03-11T15:30:00.000Z')],
    ['created > "-2w"', cmp('created_at', '>', '2026-03-04T15:30:00.000Z')],
    ['updated >= -4h', cmp('updated_at', '>=', '2026-03-18T11:30:00.000Z')],
    ['updated < -30m', cmp('updated_at', '<', '2026-03-18T15:00:00.000Z')],
    ['created <= "4w 2d"', cmp('created_at', '<=', '2026-04-17T15:30:00.000Z')],
    ['created >= "2026-01-31"', cmp('created_at', '>=', '2026-01-31T00:00:00.000Z')],
    ['created < "2026/01/31 14:00"', cmp('created_at', '<', '2026-01-31T14:00:00.000Z')],
    ['created <= now()', cmp('created_at', '<=', '2026-03-18T15:30:00.000Z')],
    ['created >= startOfDay()', cmp('created_at', '>=', '2026-03-18T00:00:00.000Z')],
    ['created >= startOfDay(-1)', cmp('created_at', '>=', '2026-03-17T00:00:00.000Z')],
    ['created <= endOfDay()', cmp('created_at', '<=', '2026-03-18T23:59:59.999Z')],
    ['created >= startOfWeek()', cmp('created_at', '>=', '2026-03-15T00:00:00.000Z')],
    ['created >= startOfMonth("-1")', cmp('created_at', '>=', '2026-02-01T00:00:00.000Z')],
    ['created < endOfYear()', cmp('created_at', '<', '2026-12-31T23:59:59.999Z')],
    ['createdDate > startOfDay(+2d)', cmp('created_at', '>', '2026-03-20T00:00:00.000Z')],
  ])('%s', async (jql, expected) => {
    expect(await filterOf(jql)).toEqual(expected);
  });

  it('= on a date matches its whole day; with a time, its minute', async () => {
    expect(await filterOf('created = "2026-01-31"')).toEqual(day('2026-01-31'));
    expect(await filterOf('created = "2026-01-31 14:05"')).toEqual({
      kind: 'and',
      items: [cmp('created_at', '>=', '2026-01-31T14:05:00.000Z'), cmp('created_at', '<', '2026-01-31T14:06:00.000Z')],
    });
  });

  it.each(['yesterday', '2026-02-30', '2026-13-01', '2026-01-31 25:00', '-7x', '99999-01-01'])('invalid date %s is 400 naming the formats', async (value) => {
    expect(await errorOf(`created > "${value}"`)).toBe(
      `Date value '${value}' for field 'created' is invalid. Valid formats include: 'yyyy/MM/dd HH:mm', 'yyyy-MM-dd HH:mm', 'yyyy/MM/dd', 'yyyy-MM-dd', or a period format e.g. '-5d', '4w 2d'.`,
    );
  });

  it('a date function with a bad argument is 400', async () => {
    expect(await errorOf('created > startOfDay(yesterday)')).toMatch(/^The argument of startOfDay\(yesterday\) is not valid/);
  });
});

describe('spec §4 endpoint 15: JQL semantic errors', () => {
  it.each([
    ['foo = bar', "Field 'foo' does not exist or you do not have permission to view it."],
    ['priority = High', "Field 'priority' does not exist or you do not have permission to view it."],
    ['status ~ Done', "The operator '~' is not supported by the 'status' field."],
    ['summary = x', "The operator '=' is not supported by the 'summary' field."],
    ['assignee > x', "The operator '>' is not supported by the 'assignee' field."],
    ['text is empty', "The operator 'IS' is not supported by the 'text' field."],
    ['project = SEC', "The value 'SEC' does not exist for the field 'project'."],
    ['project = NOPE', "The value 'NOPE' does not exist for the field 'project'."],
    ['status = Nowhere', "The value 'Nowhere' does not exist for the field 'status'."],
    ['issuetype = Epic', "The value 'Epic' does not exist for the field 'issuetype'."],
    ['statusCategory = later', "The value 'later' does not exist for the field 'statusCategory'."],
    ['assignee = nobody@acme.test', "The value 'nobody@acme.test' does not exist for the field 'assignee'."],
    ['key = SEC-1', "An issue with key 'SEC-1' does not exist for field 'key'."],
    ['key = ABC-99', "An issue with key 'ABC-99' does not exist for field 'key'."],
    ['parent = 10099', "An issue with key '10099' does not exist for field 'parent'."],
    ['key = hello', "The issue key 'hello' for field 'key' is invalid."],
    ['assignee = now()', "The function 'now()' cannot be used with the field 'assignee'."],
    ['created > currentUser()', "The function 'currentUser()' cannot be used with the field 'created'."],
    ['summary ~ EMPTY', "The operator '~' on the 'summary' field needs a text value in quotes, such as summary ~ \"login error\"."],
    ['summary ~ "!!"', "The text '!!' for the field 'summary' has no words to search for."],
    ['created > EMPTY', "The operator '>' cannot be used with EMPTY; use IS EMPTY or IS NOT EMPTY."],
    ['', 'Unbounded JQL queries are not allowed here. Please add a search restriction to your query.'],
    ['order by key desc', 'Unbounded JQL queries are not allowed here. Please add a search restriction to your query.'],
    ['project = ABC order by priority', "Field 'priority' does not exist or you do not have permission to view it."],
    ['project = ABC order by text', "Field 'text' does not support sorting."],
    ['project = ABC order by key, id, created, updated, summary, status, type, project', 'The ORDER BY clause can name at most 7 fields.'],
  ])('%s', async (jql, message) => {
    expect(await errorOf(jql)).toBe(message);
  });
});

describe('spec §4 endpoint 15: ORDER BY', () => {
  it('defaults to the newest first', async () => {
    expect((await compile('project = ABC')).order).toEqual([{ key: 'created_at', descending: true }]);
  });

  it('maps each sortable field with its direction (ascending when not given)', async () => {
    expect((await compile('project = ABC order by issuekey desc, created, updated asc, summary, status desc, type, project')).order).toEqual([
      { key: 'key', descending: true },
      { key: 'created_at', descending: false },
      { key: 'updated_at', descending: false },
      { key: 'summary', descending: false },
      { key: 'status_id', descending: true },
      { key: 'issue_type', descending: false },
      { key: 'project', descending: false },
    ]);
    expect((await compile('project = ABC order by key desc, status, summary asc')).order).toEqual([
      { key: 'key', descending: true },
      { key: 'status_id', descending: false },
      { key: 'summary', descending: false },
    ]);
  });
});

describe('spec §4 endpoint 15: the first bad clause is the one reported', () => {
  it('reads left to right', async () => {
    expect(await errorOf('project = NOPE and foo = 1')).toBe("The value 'NOPE' does not exist for the field 'project'.");
    expect(await errorOf('foo = 1 and project = NOPE')).toBe("Field 'foo' does not exist or you do not have permission to view it.");
    expect(await errorOf('status in (Done, Nowhere, Later)')).toBe("The value 'Nowhere' does not exist for the field 'status'.");
  });
});
