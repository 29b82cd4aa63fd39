import * as http from 'node:http';
import type { Agent, IncomingHttpHeaders } from 'node:http';
import { TrackerNetworkError } from './errors.js';

export interface HttpRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | undefined;
  timeoutMs: number;
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
    return new Promise<HttpResponse>((resolve, reject) => {
      const headers: Record<string, string> = { ...req.headers };
      if (req.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(req.body));
      const r = mod.request(url, { method: req.method, headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', (e) => reject(new TrackerNetworkError(req.method, redactUrl(url), e.message)));
      });
      r.setTimeout(req.timeoutMs, () => r.destroy(new Error(`no answer within ${req.timeoutMs} ms`)));
      r.on('error', (e: NodeJS.ErrnoException) => reject(new TrackerNetworkError(req.method, redactUrl(url), e.code ? `${e.code} (${e.message})` : e.message)));
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

/** A URL as it may appear in a message: never with user info. */
export function redactUrl(url: URL): string {
  const copy = new URL(url.toString());
  copy.username = '';
  copy.password = '';
  return copy.toString();
}
