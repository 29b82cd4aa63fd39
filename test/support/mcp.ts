import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, type CallToolResult, type ElicitRequest, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { JST_BIN, JST_TEST_CACHE } from './jst-cli.js';
import { CODEHOST_READ_TOKEN, CODEHOST_TOKEN, EMAILS, TOKENS } from './seed.js';

/** Every secret of the test fixtures, in every form it could leak in (raw, and inside Basic auth). */
export const TEST_SECRETS: readonly string[] = [
  CODEHOST_TOKEN,
  CODEHOST_READ_TOKEN,
  // As git sends it to the code host (HTTP Basic, the token as the password).
  Buffer.from(`x-access-token:${CODEHOST_TOKEN}`).toString('base64'),
  ...Object.entries(TOKENS).flatMap(([who, token]) => [token, Buffer.from(`${EMAILS[who as keyof typeof EMAILS] ?? ''}:${token}`).toString('base64')]),
];

export interface McpSession {
  client: Client;
  /** Everything the server wrote on stderr so far. */
  stderr(): string;
  /** Every tool result so far, as JSON. */
  results: string[];
  /** Every call so far: the tool's name and its result. */
  calls: { name: string; result: CallToolResult }[];
  /** Every elicitation the server sent, in order. */
  elicitations: ElicitRequest['params'][];
  call(name: string, args?: Record<string, unknown>, o?: { progress?: string[] }): Promise<CallToolResult>;
  close(): Promise<void>;
}

export interface McpOptions {
  cwd: string;
  /** The program and arguments (default: the built jst, `mcp --role <role>`). */
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  /** Declares the elicitation capability and answers every question with this. */
  elicit?: (req: ElicitRequest['params']) => ElicitResult;
}

/** The environment jst runs with in tests (as runJst): no TTY, no colour, a home of its own. */
export const testEnv = (cwd: string, env: Record<string, string> = {}): Record<string, string> => ({
  PATH: process.env.PATH ?? '',
  HOME: cwd,
  XDG_CACHE_HOME: JST_TEST_CACHE,
  NO_COLOR: '1',
  ...env,
});

/** The SDK's own Client over stdio, against a spawned `jst mcp` (or exactly the command given). */
export async function startMcp(role: string, o: McpOptions): Promise<McpSession> {
  const transport = new StdioClientTransport({
    command: o.command ?? process.execPath,
    args: o.args ?? [JST_BIN, 'mcp', '--role', role],
    cwd: o.cwd,
    env: testEnv(o.cwd, o.env),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (c: Buffer) => {
    stderr += c.toString('utf8');
  });
  const client = new Client({ name: 'jst-test', version: '1.0.0' }, { capabilities: o.elicit ? { elicitation: { form: {} } } : {} });
  const elicitations: ElicitRequest['params'][] = [];
  if (o.elicit) {
    const answer = o.elicit;
    client.setRequestHandler(ElicitRequestSchema, (req) => {
      elicitations.push(req.params);
      return answer(req.params);
    });
  }
  await client.connect(transport);
  const results: string[] = [];
  const calls: { name: string; result: CallToolResult }[] = [];
  return {
    client,
    stderr: () => stderr,
    results,
    calls,
    elicitations,
    async call(name, args = {}, c = {}) {
      const progress = c.progress;
      const r = (await client.callTool(
        { name, arguments: args },
        undefined,
        progress
          ? {
              onprogress: (p) => {
                progress.push(p.message ?? '');
              },
            }
          : {},
      )) as CallToolResult;
      results.push(JSON.stringify(r));
      calls.push({ name, result: r });
      return r;
    },
    close: () => client.close(),
  };
}

/** The text of a tool result's first content block. */
export const textOf = (r: CallToolResult): string => (r.content[0] as { type: 'text'; text: string }).text;
