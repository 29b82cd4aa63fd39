import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { assertErrorCollection, assertMatchesVendorSchema } from '../../../../test/support/openapi.js';

/**
 * A pass-through HTTP proxy in front of a tracker that checks every reply a third-party client
 * receives against the vendor's OpenAPI (as test/support/tracker.ts `send` does for our own
 * requests), for clients whose traffic cannot be hooked from inside (python `jira`, jira-client).
 * The Host header goes through unchanged, so `self` links name the proxy and follow-up calls made
 * from them are checked too.
 */
export interface VendorProxy {
  url: string;
  checked: number;
  violations: string[];
  calls: string[];
  close(): Promise<void>;
}

export async function vendorProxy(target: string): Promise<VendorProxy> {
  const upstream = new URL(target);
  const state = { checked: 0, violations: [] as string[], calls: [] as string[] };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const out = httpRequest(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
        (up: IncomingMessage) => {
          const body: Buffer[] = [];
          up.on('data', (c: Buffer) => body.push(c));
          up.on('end', () => {
            const text = Buffer.concat(body).toString('utf8');
            const url = `http://${req.headers.host}${req.url}`;
            state.calls.push(`${req.method} ${new URL(url).pathname} ${up.statusCode}`);
            check(state, req.method ?? 'GET', url, up.statusCode ?? 0, text, String(up.headers['content-type'] ?? ''));
            res.writeHead(up.statusCode ?? 502, up.headers).end(text);
          });
        },
      );
      out.on('error', (e) => res.writeHead(502).end(String(e)));
      out.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get checked() {
      return state.checked;
    },
    violations: state.violations,
    calls: state.calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function check(state: { checked: number; violations: string[] }, method: string, url: string, status: number, text: string, type: string): void {
  if (text === '' || !type.startsWith('application/json')) return;
  state.checked++;
  try {
    const body: unknown = JSON.parse(text);
    if (status >= 400) assertErrorCollection(body);
    else assertMatchesVendorSchema(method, url, status, body);
  } catch (e) {
    state.violations.push(`${method} ${url}: ${(e as Error).message}`);
  }
}
