import type { Expr, Operand, Operator, Query, SortItem } from './ast.js';
import { jqlError, jqlSyntaxError, quote } from './errors.js';
import { functionSpec } from './functions.js';
import { tokenize, type Token } from './lexer.js';

/**
 * Recursive-descent parser for JQL. Grammar (keywords case-insensitive; NOT binds tighter than
 * AND, AND tighter than OR):
 *
 *   query    := [or] [ORDER BY sort (',' sort)*] EOF
 *   or       := and (OR and)*
 *   and      := not (AND not)*
 *   not      := NOT not | '(' or ')' | clause
 *   clause   := field operator operand
 *   operator := = | != | ~ | !~ | < | <= | > | >= | IN | NOT IN | IS | IS NOT
 *   operand  := value | EMPTY | NULL | function | '(' item (',' item)* ')'   (lists only after IN)
 *   function := name '(' [value (',' value)*] ')'
 *   sort     := field [ASC | DESC]
 */
export function parseJql(input: string): Query {
  return new Parser(tokenize(input)).query();
}

const OPERATORS = "The valid operators are '=', '!=', '<', '>', '<=', '>=', '~', '!~', 'IN', 'NOT IN', 'IS' and 'IS NOT'.";
/** Words that cannot be a field or an unquoted value (Jira reserves them). */
const KEYWORDS = new Set(['AND', 'OR', 'NOT', 'IN', 'IS', 'ORDER', 'EMPTY', 'NULL']);
const HISTORY_OPERATORS = new Set(['WAS', 'CHANGED']);
/** Parentheses and NOTs nest at most this deep (parsing and compiling recurse once per level). */
export const MAX_NESTING = 100;
/** Values one query may name in all (each may cost a database lookup when compiled). */
export const MAX_VALUES = 1000;

class Parser {
  private i = 0;
  private depth = 0;
  private values = 0;
  constructor(private readonly tokens: Token[]) {}

  query(): Query {
    const where = this.atOrderBy() || this.peek().kind === 'eof' ? null : this.or();
    const orderBy = this.atOrderBy() ? this.orderBy() : [];
    const t = this.peek();
    if (t.kind !== 'eof') {
      if (this.isWord(t, 'ORDER')) throw this.unexpected("'BY'", this.peek(1));
      throw this.unexpected("either 'OR' or 'AND'", t);
    }
    return { where, orderBy };
  }

  private or(): Expr {
    const items = [this.and()];
    while (this.peek().kind === 'or' || this.isWord(this.peek(), 'OR')) {
      this.next();
      items.push(this.and());
    }
    return items.length === 1 ? items[0]! : { kind: 'or', items };
  }

  private and(): Expr {
    const items = [this.not()];
    while (this.peek().kind === 'and' || this.isWord(this.peek(), 'AND')) {
      this.next();
      items.push(this.not());
    }
    return items.length === 1 ? items[0]! : { kind: 'and', items };
  }

  private not(): Expr {
    const t = this.peek();
    const nests = t.kind === 'not' || this.isWord(t, 'NOT') || t.kind === 'lparen';
    if (nests && ++this.depth > MAX_NESTING) {
      throw jqlSyntaxError(`The query nests parentheses and NOT more than ${MAX_NESTING} levels deep.`, t.pos);
    }
    try {
      if (t.kind === 'not' || this.isWord(t, 'NOT')) {
        this.next();
        return { kind: 'not', expr: this.not() };
      }
      if (t.kind === 'lparen') {
        this.next();
        const inner = this.or();
        const close = this.next();
        if (close.kind !== 'rparen') throw this.unexpected("')'", close);
        return inner;
      }
      return this.clause();
    } finally {
      if (nests) this.depth--;
    }
  }

  private clause(): Expr {
    const field = this.field();
    const op = this.operator();
    return { kind: 'clause', field: field.value, op, operand: this.operand(op), pos: field.pos };
  }

  private field(): Token {
    const t = this.next();
    if (t.kind === 'string' || (t.kind === 'word' && !KEYWORDS.has(t.value.toUpperCase()))) return t;
    throw this.unexpected('a field name', t);
  }

  private operator(): Operator {
    const t = this.next();
    if (t.kind === 'op') return t.value as Operator;
    if (this.isWord(t, 'IN')) return 'in';
    if (this.isWord(t, 'NOT') && this.isWord(this.peek(), 'IN')) {
      this.next();
      return 'not in';
    }
    if (this.isWord(t, 'IS')) {
      if (this.isWord(this.peek(), 'NOT')) {
        this.next();
        return 'is not';
      }
      return 'is';
    }
    if (t.kind === 'word' && HISTORY_OPERATORS.has(t.value.toUpperCase())) {
      throw jqlSyntaxError(`The history operator '${t.value.toUpperCase()}' is not supported by this tracker. ${OPERATORS}`, t.pos);
    }
    throw jqlSyntaxError(`${this.expecting('operator', t)} ${OPERATORS}`, t.kind === 'eof' ? undefined : t.pos);
  }

  private operand(op: Operator): Operand {
    const t = this.peek();
    if (op === 'is' || op === 'is not') {
      this.next();
      if (this.isWord(t, 'EMPTY') || this.isWord(t, 'NULL')) return { kind: 'empty', pos: t.pos };
      throw this.unexpected("either 'EMPTY' or 'NULL'", t);
    }
    if (op === 'in' || op === 'not in') {
      if (t.kind === 'lparen') return this.list();
      if (t.kind === 'word' && this.peek(1).kind === 'lparen') return this.item();
      this.next();
      throw this.unexpected("'(' (a list of values) or a function", t);
    }
    if (t.kind === 'lparen') {
      throw jqlSyntaxError(`The operator '${op.toUpperCase()}' does not take a list of values; use IN (...) for a list.`, t.pos);
    }
    return this.item();
  }

  private list(): Operand {
    const open = this.next();
    const items = [this.item()];
    for (;;) {
      const t = this.next();
      if (t.kind === 'rparen') return { kind: 'list', items, pos: open.pos };
      if (t.kind !== 'comma') throw this.unexpected("either ',' or ')'", t);
      items.push(this.item());
    }
  }

  /** One value, EMPTY/NULL, or a function call. */
  private item(): Operand {
    const t = this.next();
    if (++this.values > MAX_VALUES) throw jqlSyntaxError(`The query names more than ${MAX_VALUES} values; split it into several searches.`, t.pos);
    if (t.kind === 'string') return { kind: 'value', value: t.value, pos: t.pos };
    if (t.kind === 'word') {
      const upper = t.value.toUpperCase();
      if (upper === 'EMPTY' || upper === 'NULL') return { kind: 'empty', pos: t.pos };
      if (this.peek().kind === 'lparen') return this.call(t);
      if (!KEYWORDS.has(upper)) return { kind: 'value', value: t.value, pos: t.pos };
      throw jqlSyntaxError(
        `${this.expecting('either a value, list or function', t)} You must surround '${t.text}' in quotation marks to use it as a value.`,
        t.pos,
      );
    }
    throw this.unexpected('either a value, list or function', t);
  }

  private call(name: Token): Operand {
    const spec = functionSpec(name.value);
    if (!spec) throw jqlError(`Unable to find JQL function '${quote(name.value)}()'. (line ${name.pos.line}, character ${name.pos.column})`);
    this.next();
    const args: string[] = [];
    if (this.peek().kind === 'rparen') this.next();
    else {
      for (;;) {
        const a = this.next();
        if (a.kind !== 'word' && a.kind !== 'string') throw this.unexpected('a function argument', a);
        args.push(a.value);
        const sep = this.next();
        if (sep.kind === 'rparen') break;
        if (sep.kind !== 'comma') throw this.unexpected("either ',' or ')'", sep);
      }
    }
    if (args.length > spec.maxArgs) {
      throw jqlError(
        `Function '${spec.name}' expects at most ${spec.maxArgs} argument(s) but received ${args.length}. (line ${name.pos.line}, character ${name.pos.column})`,
      );
    }
    return { kind: 'function', name: spec.name, args, pos: name.pos };
  }

  private orderBy(): SortItem[] {
    this.next();
    const by = this.next();
    if (!this.isWord(by, 'BY')) throw this.unexpected("'BY'", by);
    const items: SortItem[] = [];
    for (;;) {
      const field = this.field();
      const dir = this.peek();
      const direction = this.isWord(dir, 'ASC') ? 'asc' : this.isWord(dir, 'DESC') ? 'desc' : null;
      if (direction) this.next();
      items.push({ field: field.value, direction, pos: field.pos });
      const t = this.peek();
      if (t.kind === 'eof') return items;
      if (t.kind !== 'comma') throw this.unexpected(direction ? "','" : "either 'ASC', 'DESC' or ','", t);
      this.next();
    }
  }

  private atOrderBy(): boolean {
    return this.isWord(this.peek(), 'ORDER') && this.isWord(this.peek(1), 'BY');
  }

  private isWord(t: Token, keyword: string): boolean {
    return t.kind === 'word' && t.value.toUpperCase() === keyword;
  }

  private peek(ahead = 0): Token {
    return this.tokens[Math.min(this.i + ahead, this.tokens.length - 1)]!;
  }

  private next(): Token {
    const t = this.peek();
    if (this.i < this.tokens.length - 1) this.i++;
    return t;
  }

  private expecting(what: string, t: Token): string {
    return t.kind === 'eof' ? `Expecting ${what} before the end of the query.` : `Expecting ${what} but got '${quote(t.text)}'.`;
  }

  private unexpected(what: string, t: Token) {
    return jqlSyntaxError(this.expecting(what, t), t.kind === 'eof' ? undefined : t.pos);
  }
}
