import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** The largest message (one line of stdin) `jst mcp` reads: the SDK's own stdio bound. */
export const MCP_MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/** JSON-RPC 2.0's error codes (§5.1) that the transport answers itself. */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

type Id = string | number | null;

/**
 * MCP's stdio transport (one JSON-RPC message per line) for `jst mcp`, in place of the SDK's
 * StdioServerTransport, which drops a malformed line without a word and closes for good on a line
 * over its buffer limit. Here every line that is not a valid message gets the error reply JSON-RPC
 * 2.0 §5 asks for, and the server goes on reading:
 * - a line over `maxBytes`: -32600, id null, the limit named; it is skipped to its end without being kept;
 * - not JSON: -32700 Parse error, id null;
 * - a batch (a JSON array; MCP 2025-06-18 removed batching): -32600, id null;
 * - a request or notification of the wrong shape (`"params": null`, no method…): -32600 with the
 *   request's id when it has a usable one (a string or a number), else null.
 * A malformed response (an answer to one of the server's own questions) is reported to `onerror`
 * only: a reply to a reply would have no request to belong to.
 */
export class LineTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  // The SDK's Transport interface declares onmessage generic; an implementation must match it.
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters
  onmessage?: (<T extends JSONRPCMessage>(message: T) => void) | undefined;

  private parts: Buffer[] = [];
  private size = 0;
  /** Inside a line over the limit: its bytes are dropped up to the next newline. */
  private skipping = false;
  private closed = false;
  private readonly onData = (chunk: Buffer) => {
    this.read(chunk);
  };
  private readonly onEnd = () => {
    void this.close();
  };
  private readonly onError = (e: Error) => {
    this.onerror?.(e);
  };

  constructor(
    private readonly input: NodeJS.ReadableStream = process.stdin,
    private readonly output: NodeJS.WritableStream = process.stdout,
    private readonly maxBytes: number = MCP_MAX_MESSAGE_BYTES,
  ) {}

  start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('end', this.onEnd);
    this.input.on('error', this.onError);
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.write(message);
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.input.off('error', this.onError);
    this.parts = [];
    this.onclose?.();
    return Promise.resolve();
  }

  private read(chunk: Buffer): void {
    let from = 0;
    for (;;) {
      const newline = chunk.indexOf(10, from);
      this.take(chunk.subarray(from, newline < 0 ? chunk.length : newline));
      if (newline < 0) return;
      this.endLine();
      from = newline + 1;
    }
  }

  private take(part: Buffer): void {
    if (this.skipping || part.length === 0) return;
    if (this.size + part.length > this.maxBytes) {
      this.skipping = true;
      this.parts = [];
      this.size = 0;
      this.refuse(
        null,
        INVALID_REQUEST,
        `Invalid Request: the message is longer than the limit of ${this.maxBytes} bytes (one line of stdin); it was skipped. Send less in one message.`,
      );
      return;
    }
    this.parts.push(part);
    this.size += part.length;
  }

  private endLine(): void {
    if (this.skipping) {
      this.skipping = false;
      return;
    }
    const line = Buffer.concat(this.parts, this.size).toString('utf8').replace(/\r$/, '');
    this.parts = [];
    this.size = 0;
    if (line.trim() !== '') this.handle(line);
  }

  private handle(line: string): void {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (e) {
      this.refuse(null, PARSE_ERROR, `Parse error: the line is not JSON (${(e as Error).message}). Send one JSON-RPC message per line.`);
      return;
    }
    if (Array.isArray(value)) {
      this.refuse(
        null,
        INVALID_REQUEST,
        'Invalid Request: a batch (a JSON array) is not accepted: MCP 2025-06-18 removed JSON-RPC batching. Send each message on a line of its own.',
      );
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (parsed.success) {
      try {
        this.onmessage?.(parsed.data);
      } catch (e) {
        // The lines after this one in the same read are still served.
        this.onerror?.(e instanceof Error ? e : new Error(String(e)));
      }
      return;
    }
    const object = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
    const problem = object
      ? (whatIsWrong(object) ??
        parsed.error.issues
          .map((i) => `${i.path.join('.') || 'the message'}: ${i.message}`)
          .slice(0, 3)
          .join('; '))
      : 'a message is a JSON object';
    if (object && !('method' in object) && ('result' in object || 'error' in object)) {
      this.onerror?.(new Error(`A malformed response was dropped: ${problem}`));
      return;
    }
    this.refuse(usableId(object?.id), INVALID_REQUEST, `Invalid Request: not a JSON-RPC 2.0 request or notification as MCP defines them (${problem}).`);
  }

  private refuse(id: Id, code: number, message: string): void {
    void this.write({ jsonrpc: '2.0', id, error: { code, message } });
  }

  private write(message: unknown): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.output.once('drain', resolve);
    });
  }
}

/** The first rule of JSON-RPC 2.0 §4 (and MCP's object params) that `m` breaks, in words. */
function whatIsWrong(m: Record<string, unknown>): string | undefined {
  if (m.jsonrpc !== '2.0') return '"jsonrpc" must be "2.0"';
  if (!('method' in m)) return 'a request or notification needs "method"';
  if (typeof m.method !== 'string') return '"method" must be a string';
  if ('id' in m && usableId(m.id) === null) return '"id" must be a string or a number';
  if ('params' in m && (typeof m.params !== 'object' || m.params === null || Array.isArray(m.params)))
    return `"params" must be an object when present, not ${m.params === null ? 'null' : Array.isArray(m.params) ? 'an array' : typeof m.params}`;
  return undefined;
}

/** A request's id as JSON-RPC 2.0 §4 allows it (a string or a number); anything else answers as null. */
function usableId(id: unknown): Id {
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}
