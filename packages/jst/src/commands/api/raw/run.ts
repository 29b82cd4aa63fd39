import { notJsonError } from '@jst/client';
import { JstError, type Role } from '../../../config/index.js';
import type { Context } from '../../../core/context.js';
import { EXIT } from '../../../core/errors.js';
import { printed, terminalText, type Outcome } from '../../../core/output.js';
import { readBody } from '../../../phase/input.js';

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD'];

/**
 * `jst --role R raw METHOD PATH [BODY]` (ARCHITECTURE §3): one authenticated call to
 * `{api_base}<path>`. Body to stdout (JSON pretty-printed); 0 on 2xx, 1 on an HTTP error with the
 * status line and body on stderr, 2 on a usage or configuration error.
 */
export async function raw(ctx: Context, role: Role, method: string, path: string, bodyArg?: string): Promise<Outcome> {
  const m = method.toUpperCase();
  if (!METHODS.includes(m)) throw new JstError({ code: 'USAGE', problem: `unknown HTTP method "${method}"`, hint: `Use one of ${METHODS.join(', ')}` });
  if (!path.startsWith('/'))
    throw new JstError({
      code: 'USAGE',
      problem: `PATH must start with / (got "${path}")`,
      hint: 'It is relative to {api_base}, e.g. /myself or /issue/ABC-1?fields=summary',
    });
  const body = bodyArg === undefined ? undefined : await readBody(ctx.io, bodyArg);
  const res = await ctx.client(role).raw(m, path, body);
  const out = res.body === undefined ? '' : typeof res.body === 'string' ? res.body : JSON.stringify(res.body, null, 2);
  if (res.status >= 200 && res.status < 300) {
    // A 2xx that is not JSON came from something other than the tracker: a failure, not a body to pass on.
    if (res.notJson) throw notJsonError(m, path, res);
    return { json: res.body, text: out ? `${out}\n` : '', code: EXIT.ok };
  }
  ctx.io.stderr.write(terminalText(ctx.redact(`HTTP ${res.status} ${reason(res.status)}\n${out ? `${out}\n` : ''}`)));
  return printed(EXIT.failed);
}

function reason(status: number): string {
  const names: Record<number, string> = {
    400: 'Bad Request',
    401: 'Unauthorized',
    403: 'Forbidden',
    404: 'Not Found',
    405: 'Method Not Allowed',
    409: 'Conflict',
    410: 'Gone',
    413: 'Payload Too Large',
    415: 'Unsupported Media Type',
    429: 'Too Many Requests',
    500: 'Internal Server Error',
    503: 'Service Unavailable',
  };
  return names[status] ?? '';
}
