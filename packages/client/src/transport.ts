import * as http from 'node:http';
import type { Agent, IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { finished } from 'node:stream';
import { BodyTooLargeError, CallLimitError, DEFAULT_MAX_RESPONSE_BYTES } from './bounded.js';
import { TrackerNetworkError } from './errors.js';

export interface HttpRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | undefined;
  /** The whole call: connect, headers and body (issue 14 item 5), not only an idle socket. */
  timeoutMs: number;
  /** Default DEFAULT_MAX_RESPONSE_BYTES. */
  maxResponseBytes?: number | undefined;
}

export interface HttpResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/**
 * Plain node:http(s) with a keep-alive agent per scheme: cheaper to load than fetch (which pulls
 * in undici at start-up) and one connection serves a whole batch of calls.
 */
export class Transport {
  private agents = new Map<string, Agent>();

  async send(req: HttpRequest): Promise<HttpResponse> {
    const url = new URL(req.url);
    // http is loaded with the module (a dynamic import would go through the slower ESM loader);
    // TLS only when an https URL is actually called.
    const mod = url.protocol === 'https:' ? await import('node:https') : http;
    let agent = this.agents.get(url.protocol);
    if (!agent) {
      agent = new mod.Agent({ keepAlive: true, maxSockets: 8 });
      this.agents.set(url.protocol, agent);
    }
    // Only a failure names the URL: worked out then, not for every call.
    const shown = () => redactUrl(url);
    const maxBytes = req.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    return new Promise<HttpResponse>((resolve, reject) => {
      const headers: Record<string, string> = { ...req.headers };
      if (req.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(req.body));
      let settled = false;
      const settle = (outcome: () => void) => {
        if (!settled) {
          settled = true;
          clearTimeout(deadline);
          outcome();
        }
      };
      const fail = (e: Error & { code?: string }) =>
        settle(() =>
          reject(
            e instanceof CallLimitError
              ? e
              : e instanceof BodyTooLargeError
                ? new CallLimitError(req.method, shown(), 'size', maxBytes)
                : new TrackerNetworkError(req.method, shown(), e.code ? `${e.code} (${e.message})` : e.message),
          ),
        );
      const r = mod.request(url, { method: req.method, headers, agent }, (res) => {
        readMessage(res, maxBytes).then(
          (body) => settle(() => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: body.toString('utf8') })),
          (e: unknown) => {
            fail(e instanceof Error ? e : new Error(String(e)));
            r.destroy();
          },
        );
      });
      // One timer for the whole call: a server that answers headers and then drips a byte a second
      // never lets an idle-socket timeout fire.
      const deadline = setTimeout(() => {
        fail(new CallLimitError(req.method, shown(), 'timeout', req.timeoutMs));
        r.destroy();
      }, req.timeoutMs);
      r.on('error', fail);
      if (req.body !== undefined) r.write(req.body);
      r.end();
    });
  }

  /** Closes idle keep-alive sockets so a CLI can exit at once. */
  close(): void {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }
}

/**
 * `readBounded` for a node:http answer, read by its events: the same cap (a declared length over it
 * refused before a byte is read, a body refused as soon as it passes it) and the same errors (an
 * answer cut short fails as the stream reports it), without an async iterator's promise per chunk,
 * which was a measurable part of every call of a long-lived `jst mcp`.
 */
function readMessage(res: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = res.headers['content-length'];
    if (declared && Number(declared) > maxBytes) {
      reject(new BodyTooLargeError(maxBytes));
      return;
    }
    const chunks: Buffer[] = [];
    let total = 0;
    res.on('data', (chunk: Buffer) => {
      total += chunk.byteLength;
      if (total > maxBytes) {
        reject(new BodyTooLargeError(maxBytes));
        res.destroy();
        return;
      }
      chunks.push(chunk);
    });
    finished(res, (e) => {
      if (e) reject(e);
      else resolve(Buffer.concat(chunks, total));
    });
  });
}

/** A URL as it may appear in a message: never with user info. */
export function redactUrl(url: URL): string {
  const copy = new URL(url.toString());
  copy.username = '';
  copy.password = '';
  return copy.toString();
}
