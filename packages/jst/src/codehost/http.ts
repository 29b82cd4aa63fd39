import { BodyTooLargeError, readBounded } from '@jst/client';
import { retryAfterMs } from '@jst/protocol';
import { JstError } from '../config/index.js';
import { EXIT } from '../core/errors.js';

/** The slice of `fetch` the code-host client uses; the healthcheck's tests inject their own. */
export type FetchLike = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string; signal?: AbortSignal; redirect?: 'manual' },
) => Promise<{
  status: number;
  headers: { get(name: string): string | null };
  body?: ReadableStream<Uint8Array> | null;
  text?(): Promise<string>;
  json?(): Promise<unknown>;
}>;

export interface HttpLimits {
  /** One deadline for the whole call: headers and body (JST_TIMEOUT_MS, default 30 s). */
  timeoutMs: number;
  /** A response body larger than this is refused (default 8 MiB). */
  maxBytes: number;
  /** How many times a `Retry-After` answer is retried (default 2). */
  maxRetries: number;
  /** The longest `Retry-After` wait honoured; a longer one ends the call as rate limited (default 10 s). */
  maxWaitMs: number;
}

export const DEFAULT_LIMITS: HttpLimits = { timeoutMs: 30_000, maxBytes: 8 * 1024 * 1024, maxRetries: 2, maxWaitMs: 10_000 };

export interface HttpAnswer {
  status: number;
  headers: { get(name: string): string | null };
  text: string;
}

/** Why a call failed, in the machine-readable words of `--json` errors (README "Error codes"). */
export type CodehostFailure = 'unauthorized' | 'forbidden' | 'not_found' | 'conflict' | 'rate_limited' | 'timeout' | 'too_large' | 'network' | 'http_error';

/** A code-host call that failed; the message names the call, never the token. */
export class CodehostError extends JstError {
  constructor(
    readonly failure: CodehostFailure,
    readonly status: number | null,
    problem: string,
    hint?: string,
  ) {
    super({ code: `CODEHOST_${failure.toUpperCase()}`, exitCode: EXIT.failed, problem, ...(hint ? { hint } : {}) });
    this.name = 'CodehostError';
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `Retry-After` in seconds or as an HTTP date, in ms; null when absent or unreadable (@jst/protocol, the tracker client's too). */
export { retryAfterMs };

/**
 * The code host's one HTTP function: a deadline over headers and body together, a byte cap on the
 * body, `Retry-After` honoured a bounded number of times with a capped wait. The token is in the
 * headers only and never in a message (`label` is the method and path, without the host's query).
 */
export async function sendBounded(
  doFetch: FetchLike,
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
  label: string,
  limits: HttpLimits,
): Promise<HttpAnswer> {
  for (let attempt = 0; ; attempt++) {
    const answer = await once(doFetch, url, init, label, limits);
    const wait =
      answer.status === 429 || (answer.status === 403 && answer.headers.get('retry-after') !== null) ? retryAfterMs(answer.headers.get('retry-after')) : null;
    if (wait === null || attempt >= limits.maxRetries || wait > limits.maxWaitMs) return answer;
    await sleep(wait);
  }
}

async function once(
  doFetch: FetchLike,
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
  label: string,
  limits: HttpLimits,
): Promise<HttpAnswer> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), limits.timeoutMs);
  try {
    // A redirect is not followed (the token would go along): it ends the call (ARCHITECTURE §11).
    const res = await doFetch(url, { ...init, signal: abort.signal, redirect: 'manual' });
    if (res.status >= 300 && res.status < 400) {
      void res.body?.cancel().catch(() => undefined);
      throw new CodehostError(
        'http_error',
        res.status,
        `${label} answered a redirect (HTTP ${res.status}), which jst does not follow`,
        "Set CODEHOST_API_URL to the code host's REST API address itself (https://api.github.com, or https://HOST/api/v3 for GitHub Enterprise and jst-tracker)",
      );
    }
    const text = await readCapped(res, label, limits.maxBytes);
    return { status: res.status, headers: res.headers, text };
  } catch (error) {
    if (error instanceof CodehostError) throw error;
    if (abort.signal.aborted)
      throw new CodehostError(
        'timeout',
        null,
        `${label} got no complete answer within ${limits.timeoutMs} ms`,
        'Check CODEHOST_API_URL and the network, or raise JST_TIMEOUT_MS',
      );
    const cause = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
    throw new CodehostError('network', null, `${label} could not reach the code host: ${cause}`, 'Check CODEHOST_API_URL and the network');
  } finally {
    clearTimeout(timer);
  }
}

async function readCapped(res: Awaited<ReturnType<FetchLike>>, label: string, maxBytes: number): Promise<string> {
  const tooLarge = () =>
    new CodehostError(
      'too_large',
      res.status,
      `${label} answered more than ${maxBytes} bytes`,
      "The answer was not read: check CODEHOST_API_URL points at the code host's REST API",
    );
  if (res.body) {
    // The tracker client's reader: refused past the cap before the answer is held whole (a web
    // stream is an async iterable; leaving the loop cancels it).
    try {
      return (await readBounded(res.body, maxBytes, res.headers.get('content-length'))).toString('utf8');
    } catch (error) {
      throw error instanceof BodyTooLargeError ? tooLarge() : error;
    }
  }
  const text = res.text ? await res.text() : res.json ? JSON.stringify(await res.json().catch(() => null)) : '';
  if (Buffer.byteLength(text) > maxBytes) throw tooLarge();
  return text;
}
