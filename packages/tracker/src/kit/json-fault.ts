/**
 * Where JSON text first breaks the grammar: line, column and the setting path being read, for an
 * error message that quotes none of the text. JSON.parse's own message quotes the text around
 * the fault, which in a seed file may be a token (ARCHITECTURE §4: no secret in an error).
 */
export interface JsonFault {
  line: number;
  column: number;
  path: string;
}

class Stop extends Error {
  constructor(
    readonly at: number,
    readonly path: string,
  ) {
    super('JSON syntax fault');
  }
}

/** A setting-like name: short, letters (and `_`, `-`) only. A token has digits or is longer. */
const SAFE_KEY = /^[A-Za-z_][A-Za-z_-]{0,23}$/;

/** A key as it may appear in a message: a setting-like name, or `?` (a key could be anything, even a pasted secret). */
export const shownKey = (key: string): string => (SAFE_KEY.test(key) ? key : '?');

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** The first syntax fault of `text`, or undefined when the text is valid JSON (or too deep to scan). */
// One recursive-descent scanner: its small helpers share the cursor `i`, so they live inside it.
// eslint-disable-next-line max-lines-per-function
export function findJsonFault(text: string): JsonFault | undefined {
  let i = 0;
  const stop = (path: string): never => {
    throw new Stop(i, path);
  };
  const space = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const string = (path: string): string => {
    const start = ++i;
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 0x22) return text.slice(start, i++);
      if (c < 0x20) stop(path);
      if (c === 0x5c) {
        i++;
        if (text[i] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) stop(path);
          i += 4;
        } else if (!'"\\/bfnrt'.includes(text[i] ?? 'x')) stop(path);
      }
      i++;
    }
    return stop(path);
  };
  const value = (path: string): void => {
    space();
    const c = text[i];
    if (c === '{') {
      i++;
      space();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        space();
        if (text[i] !== '"') stop(path);
        const inner = `${path}.${shownKey(string(path))}`;
        space();
        if (text[i] !== ':') stop(inner);
        i++;
        value(inner);
        space();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        stop(path);
      }
    }
    if (c === '[') {
      i++;
      space();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (let k = 0; ; k++) {
        value(`${path}[${k}]`);
        space();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        stop(path);
      }
    }
    if (c === '"') {
      string(path);
      return;
    }
    for (const word of ['true', 'false', 'null'])
      if (text.startsWith(word, i)) {
        i += word.length;
        return;
      }
    NUMBER.lastIndex = i;
    if (NUMBER.test(text)) {
      i = NUMBER.lastIndex;
      return;
    }
    stop(path);
  };
  try {
    if (text.charCodeAt(0) === 0xfeff) i = 1;
    value('$');
    space();
    if (i < text.length) stop('$');
    return undefined;
  } catch (e) {
    if (!(e instanceof Stop)) return undefined; // nested too deep for this scan: no position, still no text
    const before = text.slice(0, e.at);
    const line = before.split('\n').length;
    return { line, column: e.at - before.lastIndexOf('\n'), path: e.path };
  }
}
