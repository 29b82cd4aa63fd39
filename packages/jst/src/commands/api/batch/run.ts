import { createInterface } from 'node:readline';
import { notJsonError } from '@jst/client';
import type { Role } from '../../../config/index.js';
import type { Context } from '../../../core/context.js';
import { EXIT } from '../../../core/errors.js';
import { printed, type Outcome } from '../../../core/output.js';

/**
 * `jst --role R batch`: JSON lines on stdin, `{"method","path","body"?}` each, answered in order
 * with `{"status","body"}` lines on stdout over one keep-alive connection, so a script or an agent
 * pays for one process instead of one per call. A bad line is answered with status 0 and an error.
 * A streaming command: each answer is written through `ctx.io` as it comes.
 */
export async function batch(ctx: Context, role: Role): Promise<Outcome<undefined>> {
  const client = ctx.client(role);
  let failures = 0;
  const rl = createInterface({ input: ctx.io.stdin, crlfDelay: Infinity });
  let n = 0;
  for await (const text of rl) {
    n++;
    if (text.trim() === '') continue;
    let req: { method?: unknown; path?: unknown; body?: unknown; id?: unknown };
    try {
      req = JSON.parse(text) as typeof req;
    } catch (e) {
      failures++;
      ctx.io.stdout.write(`${JSON.stringify({ line: n, status: 0, error: `not JSON: ${(e as Error).message}` })}\n`);
      continue;
    }
    if (typeof req.method !== 'string' || typeof req.path !== 'string' || !req.path.startsWith('/')) {
      failures++;
      ctx.io.stdout.write(
        `${JSON.stringify({ line: n, ...(req.id !== undefined ? { id: req.id } : {}), status: 0, error: 'each line needs "method" and a "path" starting with /' })}\n`,
      );
      continue;
    }
    const res = await client.raw(req.method, req.path, req.body);
    const ok = res.status >= 200 && res.status < 300 && !res.notJson;
    if (!ok) failures++;
    const error = ok || !res.notJson ? {} : { error: notJsonError(req.method.toUpperCase(), req.path, res).message };
    ctx.io.stdout.write(
      `${JSON.stringify({ ...(req.id !== undefined ? { id: req.id } : {}), status: res.status, ...(res.body !== undefined ? { body: res.body } : {}), ...error })}\n`,
    );
  }
  return printed(failures === 0 ? EXIT.ok : EXIT.failed);
}
