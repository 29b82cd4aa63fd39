import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_MAX_MESSAGE_BYTES } from '../../packages/jst/src/mcp/transport.js';
import { JST_BIN } from '../support/jst-cli.js';
import { testEnv } from '../support/mcp.js';

type Reply = { jsonrpc: string; id: string | number | null; result?: { tools?: unknown[] }; error?: { code: number; message: string } };

/** `jst mcp` driven by raw lines on its stdin: what a client that gets the protocol wrong sends. */
class RawSession {
  private buffer = '';
  private readonly replies: Reply[] = [];
  private waiters: (() => void)[] = [];
  stderr = '';
  readonly exited: Promise<number | null>;

  constructor(readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (c: string) => {
      this.buffer += c;
      let nl: number;
      while ((nl = this.buffer.indexOf('\n')) >= 0) {
        this.replies.push(JSON.parse(this.buffer.slice(0, nl)) as Reply);
        this.buffer = this.buffer.slice(nl + 1);
      }
      for (const w of this.waiters.splice(0)) w();
    });
    child.stderr.on('data', (c: Buffer) => {
      this.stderr += c.toString('utf8');
    });
    this.exited = new Promise((resolve) => child.on('exit', resolve));
  }

  write(line: string): Promise<void> {
    return new Promise((resolve, reject) => this.child.stdin.write(`${line}\n`, (e) => (e ? reject(e) : resolve())));
  }

  /** The next reply whose id is `id` (null for the replies to messages whose id could not be read). */
  async reply(id: string | number | null): Promise<Reply> {
    for (;;) {
      const i = this.replies.findIndex((r) => r.id === id);
      if (i >= 0) return this.replies.splice(i, 1)[0]!;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  private nextId = 100;
  /** A well-formed tools/list: the server still serves. */
  async toolsListed(): Promise<number> {
    const id = this.nextId++;
    await this.write(JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list' }));
    const r = await this.reply(id);
    expect(r.error, JSON.stringify(r.error)).toBeUndefined();
    return r.result!.tools!.length;
  }
}

describe('jst mcp answers every malformed message as JSON-RPC 2.0 §5 asks, and keeps serving (ARCHITECTURE §13)', () => {
  let dir: string;
  let s: RawSession;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'jst-mcp-protocol-'));
    s = new RawSession(spawn(process.execPath, [JST_BIN, 'mcp', '--role', 'executor'], { cwd: dir, env: testEnv(dir) }));
    await s.write(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      }),
    );
    expect((await s.reply(1)).result).toBeDefined();
    await s.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    expect(await s.toolsListed()).toBeGreaterThan(0);
  });
  afterAll(async () => {
    s?.child.stdin.end();
    await s?.exited;
    rmSync(dir, { recursive: true, force: true });
  });

  it('a line that is not JSON: -32700 Parse error with id null', async () => {
    await s.write('{"jsonrpc": "2.0", "method": "tools/list", "id": 3');
    const r = await s.reply(null);
    expect(r.error!.code).toBe(-32700);
    expect(r.error!.message).toMatch(/^Parse error: the line is not JSON/);
    expect(await s.toolsListed()).toBeGreaterThan(0);
    // A bad line and a good one in the same write: both answered, in order.
    await s.write(`not json\r\n${JSON.stringify({ jsonrpc: '2.0', id: 'same-write', method: 'tools/list' })}`);
    expect((await s.reply(null)).error!.code).toBe(-32700);
    expect((await s.reply('same-write')).result!.tools!.length).toBeGreaterThan(0);
  });

  it('a batch (MCP 2025-06-18 removed batching), and an empty one: -32600 Invalid Request with id null', async () => {
    for (const batch of ['[{"jsonrpc":"2.0","id":4,"method":"tools/list"},{"jsonrpc":"2.0","id":5,"method":"tools/list"}]', '[]']) {
      await s.write(batch);
      const r = await s.reply(null);
      expect(r.error!.code).toBe(-32600);
      expect(r.error!.message).toContain('a batch (a JSON array) is not accepted: MCP 2025-06-18 removed JSON-RPC batching');
      expect(await s.toolsListed()).toBeGreaterThan(0);
    }
  });

  it('"params": null with an id: -32600 Invalid Request carrying that id, the rule named', async () => {
    await s.write('{"jsonrpc":"2.0","id":"req-6","method":"tools/list","params":null}');
    const r = await s.reply('req-6');
    expect(r.error).toEqual({
      code: -32600,
      message: 'Invalid Request: not a JSON-RPC 2.0 request or notification as MCP defines them ("params" must be an object when present, not null).',
    });
    expect(await s.toolsListed()).toBeGreaterThan(0);
  });

  it('other invalid requests: -32600, with the id when it is a string or a number, else null', async () => {
    await s.write('{"jsonrpc":"1.0","id":7,"method":"tools/list"}');
    expect((await s.reply(7)).error!.message).toContain('"jsonrpc" must be "2.0"');
    await s.write('{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}');
    expect((await s.reply(null)).error!.message).toContain('"id" must be a string or a number');
    await s.write('42');
    expect((await s.reply(null)).error).toMatchObject({ code: -32600, message: expect.stringContaining('a message is a JSON object') });
    expect(await s.toolsListed()).toBeGreaterThan(0);
  });

  it('an unknown method: -32601 Method not found with its id', async () => {
    await s.write('{"jsonrpc":"2.0","id":8,"method":"no/such/method"}');
    expect((await s.reply(8)).error!.code).toBe(-32601);
    expect(await s.toolsListed()).toBeGreaterThan(0);
  });

  it('a malformed response gets no reply (nothing to answer to): it is noted on stderr', async () => {
    await s.write('{"jsonrpc":"2.0","id":9,"result":null}');
    expect(await s.toolsListed()).toBeGreaterThan(0);
    await expect.poll(() => s.stderr).toContain('jst mcp: A malformed response was dropped');
  });

  it(`a message over ${MCP_MAX_MESSAGE_BYTES} bytes: -32600 with id null naming the limit, skipped without being kept, and the next line served`, async () => {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 10, method: 'tools/list', params: { pad: 'a'.repeat(MCP_MAX_MESSAGE_BYTES) } });
    await s.write(big);
    const r = await s.reply(null);
    expect(r.error).toEqual({
      code: -32600,
      message: `Invalid Request: the message is longer than the limit of ${MCP_MAX_MESSAGE_BYTES} bytes (one line of stdin); it was skipped. Send less in one message.`,
    });
    expect(await s.toolsListed()).toBeGreaterThan(0);
    expect(s.stderr).not.toMatch(/ReadBuffer|at .*\.js:\d+/);
  });
});

describe("jst mcp with the MCP SDK's own client: an oversized message does not end the session", () => {
  it('the client sends a notification over the limit, then lists and calls tools as before', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jst-mcp-sdk-'));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [JST_BIN, 'mcp', '--role', 'executor'],
      cwd: dir,
      env: testEnv(dir),
      stderr: 'pipe',
    });
    const client = new Client({ name: 'jst-test', version: '1.0.0' });
    try {
      await client.connect(transport);
      const before = (await client.listTools()).tools.length;
      await transport.send({ jsonrpc: '2.0', method: 'notifications/message', params: { pad: 'a'.repeat(MCP_MAX_MESSAGE_BYTES + 1) } });
      expect((await client.listTools()).tools.length).toBe(before);
      const r = await client.callTool({ name: 'healthcheck', arguments: {} });
      expect(r.content).toBeDefined();
    } finally {
      await client.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
