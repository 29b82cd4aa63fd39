import type { FastifyInstance } from 'fastify';
import { ApiError } from '../domain/errors.js';

/** Deepest nesting of a JSON body; ADF at its own limit (100 levels) needs about 210. */
export const MAX_JSON_DEPTH = 512;

const BLANK = /^\s*$/;

/**
 * Our own JSON parser: an empty body reads as "no body" (curl clients send the header on
 * DELETE too), and every failure becomes a 400 in the vendor's shape. text/plain is not accepted
 * either (415, as for any non-JSON body). The RegExp is tested against the normalised header,
 * e.g. `application/json; charset="utf-8"`: only UTF-8 is accepted. Bodies over the app's
 * `bodyLimit` never reach it (413, ./errors.ts).
 */
export function installJsonBody(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(/^application\/([\w.+-]+\+)?json(; charset="utf-?8")?$/i, { parseAs: 'string' }, (_req, body, done) => {
    const text = body as string;
    // Blank (no copy of the body, unlike trim(): the anchored test stops at the first other character).
    if (BLANK.test(text)) return done(null, undefined);
    try {
      // JSON.parse nests without limit, but JSON.stringify (storing a document, sending a reply)
      // recurses and overflows the stack a few thousand levels down: refuse such bodies up front.
      if (text.length > 2 * MAX_JSON_DEPTH && nestsDeeperThan(text, MAX_JSON_DEPTH)) {
        throw new ApiError(400, [`The request body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels.`]);
      }
      // U+0000 cannot be stored in PostgreSQL text; it is refused on every store alike.
      done(null, text.includes('\\u0000') ? JSON.parse(text, refuseNul) : JSON.parse(text));
    } catch (e) {
      if (e instanceof ApiError) return done(e, undefined);
      // Never echo the parser's message: it quotes the body, which may hold a secret (ARCHITECTURE §4).
      const at = /at position (\d+)/.exec((e as Error).message)?.[1];
      done(
        new ApiError(400, [
          `The request body is not valid JSON${at === undefined ? '' : ` (error at position ${at})`}. Send a JSON object with Content-Type: application/json.`,
        ]),
        undefined,
      );
    }
  });
}

/** Whether JSON text nests arrays/objects deeper than `limit` (brackets inside strings do not count). */
function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // a string: skip to its closing quote
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

function refuseNul(key: string, value: unknown): unknown {
  if ((typeof value === 'string' && value.includes('\0')) || key.includes('\0')) {
    throw new ApiError(400, ['The request body contains a NUL character (\\u0000), which no field accepts.']);
  }
  return value;
}
