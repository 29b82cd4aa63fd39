import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Role } from '../config/index.js';
import { EXIT } from '../exit.js';
import { VERSION } from '../version.js';
import { callTool, closeSession, openSession, type CallChannel } from './call.js';
import { CWD, toolsOf } from './tools.js';

/** How long a question may wait for the person (elicitation); the SDK's default of 60 s is an agent's pace, not a person's. */
const QUESTION_TIMEOUT_MS = 30 * 60_000;

/**
 * `jst mcp --role R` (ARCHITECTURE §13): an MCP server on stdio that lists only R's tools. Loaded
 * only by this command (its own bundle, dist/mcp.cjs), so no other command pays for the SDK.
 * Runs until the client closes stdin.
 */
export async function serveMcp(role: Role, o: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<number> {
  const session = openSession(o.cwd ?? process.cwd(), o.env ?? process.env, (line) => { process.stderr.write(`${line}\n`); });
  const server = new McpServer(
    { name: `jst-${role}`, title: `jst (${role})`, version: VERSION },
    { instructions: `jst's ${role} tools. Every rule is enforced by the tools; a result with isError carries the refusal and the next step. Never answer a question meant for the person.` },
  );
  for (const tool of toolsOf(role)) {
    server.registerTool(tool.name, {
      title: tool.title,
      description: tool.description,
      inputSchema: { ...tool.input, cwd: CWD },
      annotations: { readOnlyHint: tool.readOnly, openWorldHint: true },
    }, async (args: Record<string, unknown>, extra) => {
      const token = extra._meta?.progressToken;
      const channel: CallChannel = {
        canElicit: () => server.server.getClientCapabilities()?.elicitation !== undefined,
        elicit: (message, requestedSchema) => server.server.elicitInput({ mode: 'form', message, requestedSchema }, { relatedRequestId: extra.requestId, timeout: QUESTION_TIMEOUT_MS }),
        progress: token === undefined ? undefined : (progress, message) => extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress, message } }),
      };
      return callTool(session, channel, typeof args.cwd === 'string' ? args.cwd : undefined, (ctx) => tool.run(ctx, role, args));
    });
  }
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => { transport.onclose = () => resolve(); });
  process.stdin.once('end', () => { void server.close(); });
  await server.connect(transport);
  await closed;
  closeSession(session);
  return EXIT.ok;
}
