import type { Filter, SortKey } from '../../store/search.js';
import type { Expr, Operand, Operator, Query } from './ast.js';
import { jqlError, noSuchField, quote } from './errors.js';
import { JQL_FIELDS, MAX_SORT_FIELDS, type JqlField } from './fields.js';
import { containsWord, wordsOf } from './text-search.js';
import { valueMatcher, type JqlContext } from './values.js';

export type { JqlContext } from './values.js';

export interface CompiledQuery {
  filter: Filter;
  order: { key: SortKey; descending: boolean }[];
}

/** Without an ORDER BY, the newest issues come first (as Jira's issue search shows them). */
const DEFAULT_ORDER: CompiledQuery['order'] = [{ key: 'created_at', descending: true }];

/**
 * Gives a parsed query its meaning: resolves every field and value (projects, people, statuses,
 * issue keys, dates) against what the caller may see, and describes the matching issues for the
 * store. A query with no restriction is refused, as Jira refuses it on this operation.
 */
export async function compileJql(query: Query, ctx: JqlContext): Promise<CompiledQuery> {
  if (!query.where) throw jqlError('Unbounded JQL queries are not allowed here. Please add a search restriction to your query.');
  const filter = await expr(query.where, ctx);
  if (query.orderBy.length > MAX_SORT_FIELDS) throw jqlError(`The ORDER BY clause can name at most ${MAX_SORT_FIELDS} fields.`);
  const order = query.orderBy.map((s) => {
    const field = JQL_FIELDS[s.field.toLowerCase()];
    if (!field) throw noSuchField(s.field);
    if (!field.sort) throw jqlError(`Field '${s.field}' does not support sorting.`);
    return { key: field.sort, descending: s.direction === 'desc' };
  });
  checkSqlSize(filter);
  return { filter, order: order.length > 0 ? order : DEFAULT_ORDER };
}

/**
 * Bounds on the SQL a filter becomes: SQLite refuses expressions nested over 1000 deep (and
 * `a OR b OR …` nests one level per term) and more than 32766 bound values; PostgreSQL takes at
 * most 65535. A query beyond these bounds is the caller's 400, never a database error.
 */
const MAX_SQL_DEPTH = 500;
const MAX_WORD = 1000;
const MAX_SQL_VALUES = 10_000;

function checkSqlSize(filter: Filter): void {
  let values = 0;
  const depth = (f: Filter): number => {
    switch (f.kind) {
      case 'true':
      case 'false':
      case 'empty':
        return 1;
      case 'compare':
        values++;
        return 3;
      case 'in':
        values += f.values.length;
        return 3;
      case 'contains':
        values += f.ignore.length + 1;
        return f.ignore.length + 3;
      case 'not':
        return 1 + depth(f.item);
      case 'and':
      case 'or':
        return f.items.reduce((deepest, item) => Math.max(deepest, depth(item)), 0) + f.items.length;
    }
  };
  if (depth(filter) > MAX_SQL_DEPTH || values > MAX_SQL_VALUES) {
    throw jqlError('The JQL query is too complex: it combines too many clauses or words. Simplify it, or split it into several searches.');
  }
}

async function expr(e: Expr, ctx: JqlContext): Promise<Filter> {
  switch (e.kind) {
    case 'and':
    case 'or': {
      // One clause after the other: the first bad clause, reading left to right, is the one reported.
      const items: Filter[] = [];
      for (const item of e.items) items.push(await expr(item, ctx));
      return { kind: e.kind, items };
    }
    case 'not':
      return { kind: 'not', item: await expr(e.expr, ctx) };
    case 'clause':
      return clause(e, ctx);
  }
}

const opText = (op: Operator) => op.toUpperCase();

async function clause(c: Extract<Expr, { kind: 'clause' }>, ctx: JqlContext): Promise<Filter> {
  const field = JQL_FIELDS[c.field.toLowerCase()];
  if (!field) throw noSuchField(c.field);
  if (!field.operators.includes(c.op)) throw jqlError(`The operator '${opText(c.op)}' is not supported by the '${c.field}' field.`);
  switch (c.op) {
    case 'is':
      return isEmpty(field);
    case 'is not':
      return not(isEmpty(field));
    case '~':
      return contains(field, c.field, c.operand);
    case '!~':
      return not(contains(field, c.field, c.operand));
    default:
      break;
  }
  const items = c.operand.kind === 'list' ? c.operand.items : [c.operand];
  const matcher = valueMatcher(field, c.field, ctx);
  if (c.op === '=' || c.op === 'in') {
    const matches: Filter[] = [];
    for (const i of items) matches.push(i.kind === 'empty' ? isEmpty(field) : await matcher.equals(i));
    return anyOf(matches);
  }
  if (c.op === '!=' || c.op === 'not in') {
    // Jira: != and NOT IN never match an issue whose field is empty, unless EMPTY is listed.
    const values = items.filter((i) => i.kind !== 'empty');
    const matches: Filter[] = [];
    for (const i of values) matches.push(await matcher.equals(i));
    const parts: Filter[] = matches.length > 0 ? [differs(field, anyOf(matches))] : [];
    if (values.length < items.length) parts.push(not(isEmpty(field)));
    return parts.length === 1 ? parts[0]! : { kind: 'and', items: parts };
  }
  const operand = items[0]!;
  if (operand.kind === 'empty') throw jqlError(`The operator '${opText(c.op)}' cannot be used with EMPTY; use IS EMPTY or IS NOT EMPTY.`);
  return matcher.range(c.op, operand);
}

function isEmpty(field: JqlField): Filter {
  return field.emptyColumn ? { kind: 'empty', column: field.emptyColumn } : { kind: 'false' };
}

function not(f: Filter): Filter {
  if (f.kind === 'true') return { kind: 'false' };
  if (f.kind === 'false') return { kind: 'true' };
  return f.kind === 'not' ? f.item : { kind: 'not', item: f };
}

/** An equality as a one-value IN, so that equalities on one column can merge. */
function asIn(f: Filter): Filter {
  return f.kind === 'compare' && f.op === '=' ? { kind: 'in', column: f.column, values: [f.value], negated: false } : f;
}

/** OR of several matches; values on one column become one IN (one index probe). */
function anyOf(parts: Filter[]): Filter {
  if (parts.length === 1) return parts[0]!;
  const ins = parts.map(asIn);
  const first = ins[0];
  if (first?.kind === 'in' && ins.every((p) => p.kind === 'in' && !p.negated && p.column === first.column)) {
    const values = ins.flatMap((p) => (p.kind === 'in' ? p.values : []));
    return { kind: 'in', column: first.column, values: [...new Set(values)], negated: false };
  }
  return { kind: 'or', items: parts };
}

/**
 * "Has a value, and it is none of these": an empty field does not differ from anything (Jira).
 * A negated IN says exactly that (the store compares NULL as false).
 */
function differs(field: JqlField, match: Filter): Filter {
  const asList = asIn(match);
  if (asList.kind === 'in' && !asList.negated) return { ...asList, negated: true };
  return field.emptyColumn ? { kind: 'and', items: [not(isEmpty(field)), not(match)] } : not(match);
}

function contains(field: JqlField, name: string, operand: Operand): Filter {
  if (operand.kind !== 'value') {
    throw jqlError(`The operator '~' on the '${name}' field needs a text value in quotes, such as ${name} ~ "login error".`);
  }
  const words = wordsOf(operand.value);
  if (words.length === 0) throw jqlError(`The text '${quote(operand.value)}' for the field '${name}' has no words to search for.`);
  // SQLite refuses LIKE patterns over 50 000 bytes; no real word comes near this.
  if (words.some((w) => w.length > MAX_WORD))
    throw jqlError(`The text '${quote(operand.value)}' for the field '${name}' has a word longer than ${MAX_WORD} characters.`);
  const columns = field.text ?? [];
  const perWord = words.map((w): Filter => {
    const each = columns.map((col) => containsWord(col, w));
    return each.length === 1 ? each[0]! : { kind: 'or', items: each };
  });
  return perWord.length === 1 ? perWord[0]! : { kind: 'and', items: perWord };
}
