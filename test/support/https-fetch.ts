import { request } from 'node:https';
import { readFileSync } from 'node:fs';

/**
 * A `fetch` that trusts one certificate authority file, for in-process clients (Octokit) of a
 * server under `--tls`: Node reads NODE_EXTRA_CA_CERTS only when a process starts, and its own
 * fetch takes no authority. Enough of fetch for a REST client: a method, headers, a string or
 * byte body, the answer whole (no streaming, no redirects followed).
 */
export function fetchTrusting(caFile: string): typeof fetch {
  const ca = readFileSync(caFile, 'utf8');
  return async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    const headers = new Headers(init.headers);
    const body = init.body === undefined || init.body === null ? undefined : typeof init.body === 'string' ? init.body : Buffer.from(init.body as ArrayBuffer);
    return new Promise<Response>((resolve, reject) => {
      const req = request(url, { method: init.method ?? 'GET', headers: Object.fromEntries(headers.entries()), ca }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          const out = new Headers();
          for (const [k, v] of Object.entries(res.headers)) {
            if (v === undefined) continue;
            for (const one of Array.isArray(v) ? v : [v]) out.append(k, one);
          }
          const nobody = status === 204 || status === 304 || (init.method ?? 'GET') === 'HEAD';
          const response = new Response(nobody ? null : Buffer.concat(chunks), { status, statusText: res.statusMessage ?? '', headers: out });
          Object.defineProperty(response, 'url', { value: url.href });
          resolve(response);
        });
      });
      req.on('error', reject);
      init.signal?.addEventListener('abort', () => req.destroy(new Error('aborted')));
      req.end(body);
    });
  };
}
