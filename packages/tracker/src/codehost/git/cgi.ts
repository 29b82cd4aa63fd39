/**
 * The head of a CGI answer (`git http-backend` writes `Status: 403 Forbidden`, `Content-Type: …`,
 * a blank line, then the body), read from the first bytes of its output.
 */

export interface CgiHead {
  status: number;
  headers: Array<[string, string]>;
  body: Buffer;
}

/** Headers of git http-backend's answers passed on to the client; anything else stays inside. */
const PASSED = new Set(['content-type', 'cache-control', 'expires', 'pragma', 'last-modified', 'content-length']);

/** The CGI head once the blank line has arrived, null while more bytes are needed. Throws on a malformed head. */
export function parseCgiHead(buf: Buffer): CgiHead | null {
  let end = -1;
  let sepLen = 0;
  for (let i = 0; i < buf.length; i++) {
    if (buf[i] !== 10) continue;
    if (buf[i + 1] === 10) {
      end = i;
      sepLen = 2;
      break;
    }
    if (buf[i + 1] === 13 && buf[i + 2] === 10) {
      end = i;
      sepLen = 3;
      break;
    }
  }
  if (end < 0) {
    if (buf.length > 16_384) throw new Error('git http-backend sent a header block over 16 KiB');
    return null;
  }
  const text = buf.subarray(0, end).toString('latin1');
  let status = 200;
  const headers: Array<[string, string]> = [];
  for (const rawLine of text.split('\n')) {
    const line = rawLine.replace(/\r$/, '');
    if (line === '') continue;
    const colon = line.indexOf(':');
    if (colon <= 0) throw new Error('git http-backend sent a malformed header line');
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'status') {
      const code = Number(/^\d{3}/.exec(value)?.[0]);
      if (!Number.isInteger(code) || code < 100 || code > 599) throw new Error('git http-backend sent a malformed Status');
      status = code;
    } else if (PASSED.has(name)) {
      headers.push([name, value]);
    }
  }
  return { status, headers, body: buf.subarray(end + sepLen) };
}
