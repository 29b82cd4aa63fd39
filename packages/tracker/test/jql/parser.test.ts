import { describe, expect, it } from 'vitest';
import { canonicalJql, type Expr, type Operand } from '../../src/domain/jql/ast.js';
import { ApiError } from '../../src/domain/errors.js';
import { tokenize } from '../../src/domain/jql/lexer.js';
import { parseJql } from '../../src/domain/jql/parser.js';

/** The tree without positions, so cases read as the query does. */
function shape(e: Expr | null): unknown {
  if (!e) return null;
  switch (e.kind) {
    case 'and':
    case 'or':
      return { [e.kind]: e.items.map(shape) };
    case 'not':
      return { not: shape(e.expr) };
    case 'clause':
      return [e.field, e.op, operand(e.operand)];
  }
}
function operand(o: Operand): unknown {
  switch (o.kind) {
    case 'value':
      return o.value;
    case 'empty':
      return 'EMPTY';
    case 'function':
      return `${o.name}(${o.args.join(',')})`;
    case 'list':
      return o.items.map(operand);
  }
}
const where = (jql: string) => shape(parseJql(jql).where);

/** The message of the 400 the query gets. */
function errorOf(jql: string): string {
  try {
    parseJql(jql);
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).status).toBe(400);
    return (e as ApiError).errorMessages[0]!;
  }
  throw new Error(`parsed without error: ${jql}`);
}

describe('spec §4 endpoint 15: JQL lexer', () => {
  it('splits words, strings, operators and punctuation, with line and character positions', () => {
    const tokens = tokenize('project = ABC\n  AND summary ~ "a b"');
    expect(tokens.map((t) => [t.kind, t.value, t.pos.line, t.pos.column])).toEqual([
      ['word', 'project', 1, 1],
      ['op', '=', 1, 9],
      ['word', 'ABC', 1, 11],
      ['word', 'AND', 2, 3],
      ['word', 'summary', 2, 7],
      ['op', '~', 2, 15],
      ['string', 'a b', 2, 17],
      ['eof', '', 2, 22],
    ]);
  });

  it('reads two-character operators and the symbol forms of AND, OR and NOT', () => {
    expect(tokenize('a!=b c!~d e<=f g>=h && || ! & |').map((t) => `${t.kind}:${t.value}`)).toEqual([
      'word:a',
      'op:!=',
      'word:b',
      'word:c',
      'op:!~',
      'word:d',
      'word:e',
      'op:<=',
      'word:f',
      'word:g',
      'op:>=',
      'word:h',
      'and:&&',
      'or:||',
      'not:!',
      'and:&',
      'or:|',
      'eof:',
    ]);
  });

  it('unescapes quoted strings in both quote styles', () => {
    const [a, b] = tokenize(String.raw`"say \"hi\"\n\u0041" 'it\'s'`);
    expect(a!.value).toBe('say "hi"\nA');
    expect(b!.value).toBe("it's");
  });

  it('keeps hyphens, dots, @ and slashes inside bare words (keys, relative dates, e-mails)', () => {
    expect(
      tokenize('ABC-12 -7d eve@acme.test 2026/01/31')
        .slice(0, 4)
        .map((t) => t.value),
    ).toEqual(['ABC-12', '-7d', 'eve@acme.test', '2026/01/31']);
  });
});

describe('spec §4 endpoint 15: JQL grammar', () => {
  it.each([
    ['project = ABC', ['project', '=', 'ABC']],
    ['status != Done', ['status', '!=', 'Done']],
    ['summary ~ "login error"', ['summary', '~', 'login error']],
    ["summary !~ 'draft'", ['summary', '!~', 'draft']],
    ['created > -7d', ['created', '>', '-7d']],
    ['created >= "2026-01-31"', ['created', '>=', '2026-01-31']],
    ['updated < "2026/01/31 14:00"', ['updated', '<', '2026/01/31 14:00']],
    ['updated <= -4h', ['updated', '<=', '-4h']],
    ['key > ABC-5', ['key', '>', 'ABC-5']],
    ['id = 10001', ['id', '=', '10001']],
    ['assignee = eve@acme.test', ['assignee', '=', 'eve@acme.test']],
    ['assignee = currentUser()', ['assignee', '=', 'currentUser()']],
    ['assignee = currentuser()', ['assignee', '=', 'currentUser()']],
    ['created >= startOfDay(-1)', ['created', '>=', 'startOfDay(-1)']],
    ['created < endOfMonth("+1")', ['created', '<', 'endOfMonth(+1)']],
    ['created <= now()', ['created', '<=', 'now()']],
    ['status IN (Done, "In Review")', ['status', 'in', ['Done', 'In Review']]],
    ['status not in (Done)', ['status', 'not in', ['Done']]],
    ['assignee in (EMPTY, currentUser(), abc)', ['assignee', 'in', ['EMPTY', 'currentUser()', 'abc']]],
    ['assignee IS EMPTY', ['assignee', 'is', 'EMPTY']],
    ['assignee is not null', ['assignee', 'is not', 'EMPTY']],
    ['parent = EMPTY', ['parent', '=', 'EMPTY']],
    ['"summary" ~ parser', ['summary', '~', 'parser']],
    ['statusCategory = "To Do"', ['statusCategory', '=', 'To Do']],
  ])('clause: %s', (jql, expected) => {
    expect(where(jql)).toEqual(expected);
  });

  it('AND binds tighter than OR', () => {
    expect(where('a = 1 OR b = 2 AND c = 3')).toEqual({
      or: [
        ['a', '=', '1'],
        {
          and: [
            ['b', '=', '2'],
            ['c', '=', '3'],
          ],
        },
      ],
    });
  });

  it('NOT binds tighter than AND, and applies to a parenthesised group', () => {
    expect(where('NOT a = 1 AND b = 2')).toEqual({ and: [{ not: ['a', '=', '1'] }, ['b', '=', '2']] });
    expect(where('not (a = 1 or b = 2)')).toEqual({
      not: {
        or: [
          ['a', '=', '1'],
          ['b', '=', '2'],
        ],
      },
    });
  });

  it('parentheses override precedence and may nest', () => {
    expect(where('(a = 1 OR b = 2) AND ((c = 3))')).toEqual({
      and: [
        {
          or: [
            ['a', '=', '1'],
            ['b', '=', '2'],
          ],
        },
        ['c', '=', '3'],
      ],
    });
  });

  it('keywords are case-insensitive and have symbol forms', () => {
    expect(where('a = 1 and b = 2 Or !c = 3')).toEqual(where('a = 1 && b = 2 || NOT c = 3'));
  });

  it('a quoted keyword is a value', () => {
    expect(where('summary ~ "and"')).toEqual(['summary', '~', 'and']);
  });

  it('ORDER BY takes several fields with optional directions', () => {
    const q = parseJql('project = ABC ORDER BY key DESC, created, summary asc');
    expect(q.orderBy.map((s) => [s.field, s.direction])).toEqual([
      ['key', 'desc'],
      ['created', null],
      ['summary', 'asc'],
    ]);
  });

  it('a query may be empty or only an ORDER BY (then it has no restriction)', () => {
    expect(parseJql('').where).toBeNull();
    expect(parseJql('  order by key').where).toBeNull();
    expect(parseJql('  order by key').orderBy).toHaveLength(1);
  });

  it('the canonical form ignores spacing, keyword case, quoting and redundant parentheses', () => {
    const a = canonicalJql(parseJql('project = ABC and (status in (Done, "In Review")) order by key desc'));
    const b = canonicalJql(parseJql("PROJECT='ABC'   AND status IN ('Done','In Review') ORDER BY KEY DESC"));
    expect(a).toBe(b);
    expect(a).not.toBe(canonicalJql(parseJql('project = ABC and status in (Done) order by key desc')));
  });
});

describe('spec §4 endpoint 15: JQL syntax errors quote the token and its position', () => {
  it.each([
    ['summary ~ "abc', "Error in the JQL Query: The quoted string 'abc' has not been completed. (line 1, character 11)"],
    ['status =', 'Error in the JQL Query: Expecting either a value, list or function before the end of the query.'],
    [
      'status = AND x = 1',
      "Error in the JQL Query: Expecting either a value, list or function but got 'AND'. You must surround 'AND' in quotation marks to use it as a value. (line 1, character 10)",
    ],
    ['status = Done AND', 'Error in the JQL Query: Expecting a field name before the end of the query.'],
    ['status = Done AND OR', "Error in the JQL Query: Expecting a field name but got 'OR'. (line 1, character 19)"],
    ['assignee = foo()', "Unable to find JQL function 'foo()'. (line 1, character 12)"],
    ['(status = Done', "Error in the JQL Query: Expecting ')' before the end of the query."],
    ['(status = Done foo', "Error in the JQL Query: Expecting ')' but got 'foo'. (line 1, character 16)"],
    ['status = Done)', "Error in the JQL Query: Expecting either 'OR' or 'AND' but got ')'. (line 1, character 14)"],
    ['status = Done foo', "Error in the JQL Query: Expecting either 'OR' or 'AND' but got 'foo'. (line 1, character 15)"],
    ['= Done', "Error in the JQL Query: Expecting a field name but got '='. (line 1, character 1)"],
    [
      'summary ~ win*',
      "Error in the JQL Query: The character '*' is a reserved JQL character. You must enclose it in a string or use the escape '\\u002a' instead. (line 1, character 14)",
    ],
    ['status in Done', "Error in the JQL Query: Expecting '(' (a list of values) or a function but got 'Done'. (line 1, character 11)"],
    ['status = (A, B)', "Error in the JQL Query: The operator '=' does not take a list of values; use IN (...) for a list. (line 1, character 10)"],
    ['status in (A, B', "Error in the JQL Query: Expecting either ',' or ')' before the end of the query."],
    ['status in (A B)', "Error in the JQL Query: Expecting either ',' or ')' but got 'B'. (line 1, character 14)"],
    ['status in ()', "Error in the JQL Query: Expecting either a value, list or function but got ')'. (line 1, character 12)"],
    ['status is Done', "Error in the JQL Query: Expecting either 'EMPTY' or 'NULL' but got 'Done'. (line 1, character 11)"],
    ['project = ABC ORDER BY', 'Error in the JQL Query: Expecting a field name before the end of the query.'],
    ['project = ABC ORDER key', "Error in the JQL Query: Expecting 'BY' but got 'key'. (line 1, character 21)"],
    ['project = ABC order by key up', "Error in the JQL Query: Expecting either 'ASC', 'DESC' or ',' but got 'up'. (line 1, character 28)"],
    ['project = ABC order by key desc up', "Error in the JQL Query: Expecting ',' but got 'up'. (line 1, character 33)"],
    ['assignee = currentUser(1)', "Function 'currentUser' expects at most 0 argument(s) but received 1. (line 1, character 12)"],
    ['summary ~ "\\q"', "Error in the JQL Query: The escape sequence '\\q' in a quoted string is not valid. (line 1, character 12)"],
    [
      'status WAS Done',
      "Error in the JQL Query: The history operator 'WAS' is not supported by this tracker. The valid operators are '=', '!=', '<', '>', '<=', '>=', '~', '!~', 'IN', 'NOT IN', 'IS' and 'IS NOT'. (line 1, character 8)",
    ],
    [
      'status ! Done',
      "Error in the JQL Query: Expecting operator but got '!'. The valid operators are '=', '!=', '<', '>', '<=', '>=', '~', '!~', 'IN', 'NOT IN', 'IS' and 'IS NOT'. (line 1, character 8)",
    ],
  ])('%s', (jql, message) => {
    expect(errorOf(jql)).toBe(message);
  });

  it('a missing operator names the valid ones', () => {
    expect(errorOf('status Done')).toBe(
      "Error in the JQL Query: Expecting operator but got 'Done'. The valid operators are '=', '!=', '<', '>', '<=', '>=', '~', '!~', 'IN', 'NOT IN', 'IS' and 'IS NOT'. (line 1, character 8)",
    );
  });

  it('positions count lines and characters from 1 on multi-line queries', () => {
    expect(errorOf('project = ABC\n  AND status Done')).toMatch(/but got 'Done'\. .*\(line 2, character 14\)$/);
  });

  it('a long offending value is quoted cut short', () => {
    expect(errorOf(`summary ~ "${'x'.repeat(200)}`)).toContain(`'${'x'.repeat(57)}...'`);
  });
});
