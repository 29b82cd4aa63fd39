import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One injected answer, given to the first request that `method` and `path` (when set) match. */
export interface Fault {
  /** e.g. 'POST'; unset = any method. */
  method?: string;
  /** Matched against the path under `/api/v3` (with its query); unset = any path. */
  path?: RegExp;
  status: number;
  headers?: Record<string, string>;
  /** The body as sent; default a GitHub-shaped error object. */
  body?: string;
}

export interface CodehostFaults {
  /** CODEHOST_API_URL through the injector: `http://127.0.0.1:PORT/api/v3`. */
  api: string;
  /** Queues answers; each is used once, by the first request it matches. */
  next(...faults: Fault[]): void;
  /** The faults not yet used (a test asserts 0: the call it aimed at was made). */
  pending(): number;
  /** `METHOD path` of every request seen, answered by a fault or passed through. */
  seen: string[];
  /** Drops the faults still queued. */
  clear(): void;
  close(): Promise<void>;
}

/**
 * A fault injector in front of the real code host (jst-tracker's embedded one, not a stand-in):
 * the answers queued with `next` are given instead of the code host's, each to the first request
 * it matches, and every other request goes through to the code host unchanged (a redirect too, as
 * it is: not followed). It gives what a real host does not on demand: a 429 with Retry-After, a
 * rate-limit 403, a redirect, an answer of the wrong shape, a huge or hostile message.
 */
export async function faultsBefore(target: string): Promise<CodehostFaults> {
  let queue: Fault[] = [];
  const seen: string[] = [];
  const s = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const method = req.method ?? 'GET';
      const url = req.url ?? '/';
      const path = url.replace(/^\/api\/v3/, '');
      seen.push(`${method} ${path}`);
      const i = queue.findIndex((f) => (f.method === undefined || f.method === method) && (f.path === undefined || f.path.test(path)));
      if (i >= 0) {
        const [fault] = queue.splice(i, 1) as [Fault];
        res.writeHead(fault.status, { 'Content-Type': 'application/json; charset=utf-8', ...fault.headers });
        res.end(fault.body ?? JSON.stringify({ message: 'injected fault', documentation_url: 'https://docs.github.com/rest' }));
        return;
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers))
        if (typeof v === 'string' && k !== 'host' && k !== 'connection' && k !== 'content-length') headers[k] = v;
      const body = Buffer.concat(chunks);
      fetch(`${target}${url}`, { method, headers, ...(body.length > 0 ? { body } : {}), redirect: 'manual' }).then(
        async (answer) => {
          const text = Buffer.from(await answer.arrayBuffer());
          const out: Record<string, string> = { 'Content-Type': answer.headers.get('content-type') ?? 'application/json' };
          const location = answer.headers.get('location');
          if (location) out.location = location;
          res.writeHead(answer.status, out);
          res.end(text);
        },
        (e: unknown) => {
          res.writeHead(502);
          res.end(String(e));
        },
      );
    });
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  return {
    api: `${url}/api/v3`,
    next: (...faults) => {
      queue.push(...faults);
    },
    pending: () => queue.length,
    seen,
    clear: () => {
      queue = [];
    },
    close: () =>
      new Promise((r) => {
        s.closeAllConnections();
        s.close(() => r());
      }),
  };
}
