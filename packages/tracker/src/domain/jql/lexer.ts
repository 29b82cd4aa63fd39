import { jqlSyntaxError, quote, type Pos } from './errors.js';

/**
 * JQL tokens. Keywords (AND, OR, NOT, IN, IS, EMPTY, NULL, ORDER, BY, ASC, DESC) are words here;
 * the parser recognises them case-insensitively, so a quoted "AND" stays a value. The symbols
 * `&&`/`&`, `||`/`|` and a lone `!` are Jira's spellings of AND, OR and NOT.
 */
export type TokenKind = 'word' | 'string' | 'op' | 'lparen' | 'rparen' | 'comma' | 'and' | 'or' | 'not' | 'eof';

export interface Token {
  kind: TokenKind;
  /** The value: unescaped text of a string, the word itself, or the operator. */
  value: string;
  /** As written in the query, for error messages. */
  text: string;
  pos: Pos;
}

/** Characters Jira reserves: outside quotes they are an error, not part of a word. */
const RESERVED = new Set(['{', '}', '*', '%', '^', '$', '#', '?', ';', '[', ']', '`', '\\']);
/** Characters that end a word without being part of it. */
const DELIMITERS = new Set(['(', ')', ',', '=', '!', '<', '>', '~', '"', "'", '&', '|']);
const ESCAPES: Record<string, string> = { '"': '"', "'": "'", '\\': '\\', n: '\n', t: '\t', r: '\r', ' ': ' ' };

const isSpace = (c: string) => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f';

/** Splits a query into tokens, always ending with one `eof` token. */
export function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const posAt = (index: number): Pos => ({ line, column: index - lineStart + 1 });
  const push = (kind: TokenKind, start: number, end: number, value = input.slice(start, end)) =>
    tokens.push({ kind, value, text: input.slice(start, end), pos: posAt(start) });

  while (i < input.length) {
    const c = input[i]!;
    if (isSpace(c)) {
      if (c === '\n') {
        line++;
        lineStart = i + 1;
      }
      i++;
      continue;
    }
    const next = input[i + 1];
    if (c === '(') {
      push('lparen', i, ++i);
      continue;
    }
    if (c === ')') {
      push('rparen', i, ++i);
      continue;
    }
    if (c === ',') {
      push('comma', i, ++i);
      continue;
    }
    if (c === '&' || c === '|') {
      const end = next === c ? i + 2 : i + 1;
      push(c === '&' ? 'and' : 'or', i, end);
      i = end;
      continue;
    }
    if (c === '!' || c === '<' || c === '>') {
      const two = next === '=' || (c === '!' && next === '~');
      if (c === '!' && !two) {
        push('not', i, ++i);
        continue;
      }
      const end = two ? i + 2 : i + 1;
      push('op', i, end);
      i = end;
      continue;
    }
    if (c === '=' || c === '~') {
      push('op', i, ++i);
      continue;
    }
    if (c === '"' || c === "'") {
      const start = i;
      const startPos = posAt(i);
      let value = '';
      i++;
      for (;;) {
        if (i >= input.length) {
          throw jqlSyntaxError(`The quoted string '${quote(input.slice(start + 1))}' has not been completed.`, startPos);
        }
        const d = input[i]!;
        if (d === c) {
          i++;
          break;
        }
        if (d === '\\') {
          const [text, length] = unescape(input, i, posAt(i));
          value += text;
          i += length;
          continue;
        }
        if (d === '\n') {
          line++;
          lineStart = i + 1;
        }
        value += d;
        i++;
      }
      tokens.push({ kind: 'string', value, text: input.slice(start, i), pos: startPos });
      continue;
    }
    if (RESERVED.has(c)) {
      const code = c.charCodeAt(0).toString(16).padStart(4, '0');
      throw jqlSyntaxError(
        `The character '${c}' is a reserved JQL character. You must enclose it in a string or use the escape '\\u${code}' instead.`,
        posAt(i),
      );
    }
    const start = i;
    while (i < input.length && !isSpace(input[i]!) && !DELIMITERS.has(input[i]!) && !RESERVED.has(input[i]!)) i++;
    push('word', start, i);
  }
  tokens.push({ kind: 'eof', value: '', text: '', pos: posAt(i) });
  return tokens;
}

/** One escape sequence inside a quoted string: its text and how many characters it spans. */
function unescape(input: string, at: number, pos: Pos): [string, number] {
  const e = input[at + 1];
  if (e === undefined) throw jqlSyntaxError('The quoted string ends with an unfinished escape sequence.', pos);
  const simple = ESCAPES[e];
  if (simple !== undefined) return [simple, 2];
  if (e === 'u') {
    const hex = input.slice(at + 2, at + 6);
    if (/^[0-9a-fA-F]{4}$/.test(hex)) return [String.fromCharCode(parseInt(hex, 16)), 6];
  }
  const shown = e === 'u' ? `u${input.slice(at + 2, at + 6)}` : e;
  throw jqlSyntaxError(`The escape sequence '\\${shown}' in a quoted string is not valid.`, pos);
}
