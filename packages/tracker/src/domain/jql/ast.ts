import type { Pos } from './errors.js';

/** The syntax tree of one JQL query, as the parser builds it and the compiler reads it. */

export type Operator = '=' | '!=' | '~' | '!~' | '<' | '<=' | '>' | '>=' | 'in' | 'not in' | 'is' | 'is not';

export type Operand =
  | { kind: 'value'; value: string; pos: Pos }
  | { kind: 'empty'; pos: Pos }
  | { kind: 'function'; name: string; args: string[]; pos: Pos }
  | { kind: 'list'; items: Operand[]; pos: Pos };

export type Expr =
  { kind: 'and' | 'or'; items: Expr[] } | { kind: 'not'; expr: Expr } | { kind: 'clause'; field: string; op: Operator; operand: Operand; pos: Pos };

export interface SortItem {
  field: string;
  direction: 'asc' | 'desc' | null;
  pos: Pos;
}

export interface Query {
  /** null when the query has no restriction at all (only an ORDER BY, or nothing). */
  where: Expr | null;
  orderBy: SortItem[];
}

const printValue = (v: string) => `"${v.replace(/["\\]/g, (c) => `\\${c}`)}"`;

function printOperand(o: Operand): string {
  switch (o.kind) {
    case 'value':
      return printValue(o.value);
    case 'empty':
      return 'EMPTY';
    case 'function':
      return `${o.name}(${o.args.map(printValue).join(', ')})`;
    case 'list':
      return `(${o.items.map(printOperand).join(', ')})`;
  }
}

function printExpr(e: Expr): string {
  switch (e.kind) {
    case 'and':
    case 'or':
      return `(${e.items.map(printExpr).join(e.kind === 'and' ? ' AND ' : ' OR ')})`;
    case 'not':
      return `NOT ${printExpr(e.expr)}`;
    case 'clause':
      return `${printValue(e.field.toLowerCase())} ${e.op.toUpperCase()} ${printOperand(e.operand)}`;
  }
}

/**
 * One spelling per meaning (case of keywords and field names, quoting, spacing, parentheses made
 * explicit), so a page token stays valid for the same query however it is written.
 */
export function canonicalJql(q: Query): string {
  const where = q.where ? printExpr(q.where) : '';
  const order = q.orderBy.map((s) => `${printValue(s.field.toLowerCase())} ${(s.direction ?? '').toUpperCase()}`.trim());
  return order.length > 0 ? `${where} ORDER BY ${order.join(', ')}`.trim() : where;
}
