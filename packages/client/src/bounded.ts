/**
 * The bounds of every call jst makes (issue 14 item 5): a deadline for the whole call (connect,
 * headers and body) and a cap on the bytes of an answer. The tracker client uses them through its
 * transport; a code-host client reuses `readBounded` on a `fetch` body the same way.
 */

/** Well above any real Jira page (a search page of 5,000 issues is a few MiB) and far below a heap. */
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;
export const DEFAULT_TIMEOUT_MS = 30_000;

/** The setting that governs each bound, so a message can say how to change it. */
export const LIMIT_SETTINGS = { timeout: 'JST_TIMEOUT_MS', size: 'JST_MAX_RESPONSE_BYTES' } as const;

/** A call stopped by one of the bounds: one line that names the bound and its setting. */
export class CallLimitError extends Error {
  constructor(
    readonly method: string,
    readonly url: string,
    readonly limit: keyof typeof LIMIT_SETTINGS,
    readonly value: number,
  ) {
    super(
      limit === 'timeout'
        ? `${method} ${url} got no complete answer within ${value} ms (${LIMIT_SETTINGS.timeout}): the server is stalled or slow; check it, or raise ${LIMIT_SETTINGS.timeout}`
        : `${method} ${url} answered more than ${formatBytes(value)} (${LIMIT_SETTINGS.size}), so the answer was not read: ask for less (fields, maxResults), or raise ${LIMIT_SETTINGS.size}`,
    );
    this.name = 'CallLimitError';
  }
}

/** Thrown by `readBounded` when the body passes `maxBytes`; the caller turns it into a CallLimitError. */
export class BodyTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the answer is larger than ${formatBytes(maxBytes)}`);
    this.name = 'BodyTooLargeError';
  }
}

/**
 * Reads a body (a node:http IncomingMessage or a fetch Response's body: both are async iterables
 * of bytes) into one Buffer, refusing as soon as it passes `maxBytes`, before it is held whole.
 * A declared Content-Length over the cap is refused before a byte is read.
 */
export async function readBounded(body: AsyncIterable<Uint8Array>, maxBytes: number, declaredLength?: string | null): Promise<Buffer> {
  if (declaredLength && Number(declaredLength) > maxBytes) throw new BodyTooLargeError(maxBytes);
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body) {
    total += chunk.byteLength;
    if (total > maxBytes) throw new BodyTooLargeError(maxBytes);
    chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  }
  return Buffer.concat(chunks, total);
}

function formatBytes(n: number): string {
  return n % (1024 * 1024) === 0 ? `${n / (1024 * 1024)} MiB` : `${n} bytes`;
}
