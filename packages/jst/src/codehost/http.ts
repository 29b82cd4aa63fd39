import { BodyTooLargeError, CallLimitError, readBounded, TrackerNetworkError, Transport } from '@jst/client';
import { retryAfterMs } from '@jst/protocol';
import { JstError } from '../config/index.js';
import { EXIT } from '../core/errors.js';

/** The slice of `fetch` the code-host client uses; the healthcheck's tests inject their own. */
export type FetchLike = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string; signal?: AbortSignal; redirect?: 'manual'; maxBytes?: number; timeoutMs?: number },
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

/** One keep-alive Transport per process for the code host (its agents are per scheme). */
let shared: Transport | undefined;

/**
 * The code host's default FetchLike: node:http(s) through @jst/client's Transport, as the tracker
 * client calls. Global fetch would load undici, ~30–40 ms of a short jst process's start on a small
 * VM, in every process that talks to the code host. Redirects are not followed (node:http never
 * does: the call sees the 3xx, as with `redirect: 'manual'`); the deadline and the byte cap are the
 * caller's (`timeoutMs`, `maxBytes`), and an abort of `signal` ends the call at once.
 */
export const nodeFetch: FetchLike = async (url, init) => {
  shared ??= new Transport();
  const { signal } = init;
  const sent = shared
    .send({
      method: init.method,
      url,
      headers: init.headers,
      body: init.body,
      timeoutMs: init.timeoutMs ?? DEFAULT_LIMITS.timeoutMs,
      maxResponseBytes: init.maxBytes ?? DEFAULT_LIMITS.maxBytes,
    })
    .catch((e: unknown) => {
      // The tracker's words name the tracker's settings: the code host's message is the caller's, with what the network said.
      throw e instanceof TrackerNetworkError ? new Error(e.detail) : e;
    });
  const res = signal
    ? await Promise.race([
        sent,
        new Promise<never>((_, reject) => {
          if (signal.aborted) reject(new Error('aborted'));
          signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
        }),
      ])
    : await sent;
  return {
    status: res.status,
    headers: {
      get(name: string): string | null {
        const v = res.headers[name.toLowerCase()];
        return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
      },
    },
    text: () => Promise.resolve(res.text),
  };
};

/** Closes the shared Transport's idle sockets (a CLI about to exit). */
export function closeCodehostTransport(): void {
  shared?.close();
  shared = undefined;
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
    const res = await doFetch(url, { ...init, signal: abort.signal, redirect: 'manual', maxBytes: limits.maxBytes, timeoutMs: limits.timeoutMs });
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
    if (error instanceof CallLimitError && error.limit === 'size')
      throw new CodehostError(
        'too_large',
        null,
        `${label} answered more than ${limits.maxBytes} bytes`,
        "The answer was not read: check CODEHOST_API_URL points at the code host's REST API",
      );
    if (abort.signal.aborted || (error instanceof CallLimitError && error.limit === 'timeout'))
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
