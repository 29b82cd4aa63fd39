import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Role } from '../config/index.js';
import type { Io } from '../core/context.js';
import { EXIT } from '../core/errors.js';
import { VERSION } from '../version.js';
import { callTool, closeSession, openSession, type CallChannel, type ToolResult } from './call.js';
import { parseArgs, toolsOf } from './tools.js';
import { LineTransport } from './transport.js';

/** How long a question may wait for the person (elicitation); the SDK's default of 60 s is an agent's pace, not a person's. */
const QUESTION_TIMEOUT_MS = 30 * 60_000;

export interface ServeOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The one port the server talks through: JSON-RPC on stdin and stdout, its log on stderr. */
  io: Io;
  /** `--read-only`: only the tools whose readOnlyHint is true. */
  readOnly?: boolean;
  /** `--tools a,b`: only those named. */
  tools?: string | undefined;
}

/**
 * `jst mcp --role R [--read-only] [--tools a,b]` (ARCHITECTURE §13): an MCP server on stdio that
 * lists only R's tools, each with its input and output schema and annotations from the command's
 * spec. The SDK's low-level server: the tool list is ours (mcp/tools.ts), so the output schema can
 * admit a refusal's structured content as well as the result. Loaded only by this command (its own
 * bundle, dist/mcp.cjs). Runs until the client closes stdin; a malformed or oversized message gets
 * a JSON-RPC error reply and the server goes on (transport.ts).
 */
export async function serveMcp(role: Role, o: ServeOptions): Promise<number> {
  const tools = toolsOf(role, o);
  const byName = new Map(tools.map((t) => [t.name, t]));
  const session = openSession(o.cwd, o.env, (line) => {
    o.io.stderr.write(`${line}\n`);
  });
  // The low-level Server on purpose: our tools come with JSON Schemas made from each command's one
  // declaration (and an outputSchema), which McpServer would want as its own zod shapes.
  // eslint-disable-next-line @typescript-eslint/no-deprecated
  const server = new Server(
    { name: `jst-${role}`, title: `jst (${role})`, version: VERSION },
    {
      capabilities: { tools: { listChanged: false } },
      instructions: `jst's ${role} tools. Every rule is enforced by the tools; a result with isError carries the refusal and the next step. Never answer a question meant for the person: the hotfix yes and the yes before Done are theirs.`,
    },
  );
  const listed = tools.map((t) => ({
    name: t.name,
    title: t.spec.tool!.title,
    description: t.spec.tool!.description,
    inputSchema: t.inputSchema,
    outputSchema: t.outputSchema,
    annotations: t.annotations,
  }));
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
  server.setRequestHandler(CallToolRequestSchema, async (req, extra): Promise<ToolResult> => {
    const tool = byName.get(req.params.name);
    if (!tool)
      return {
        content: [{ type: 'text', text: `MCP error -32602: Tool ${req.params.name} not found (this server's tools: ${[...byName.keys()].join(', ')})` }],
        isError: true,
      };
    const token = req.params._meta?.progressToken;
    const channel: CallChannel = {
      canElicit: () => server.getClientCapabilities()?.elicitation !== undefined,
      elicit: (message, requestedSchema) =>
        server.elicitInput({ mode: 'form', message, requestedSchema }, { relatedRequestId: extra.requestId, timeout: QUESTION_TIMEOUT_MS }),
      progress:
        token === undefined
          ? undefined
          : (progress, message) => extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress, message } }),
    };
    const args = req.params.arguments ?? {};
    return callTool(
      session,
      channel,
      typeof args.cwd === 'string' ? args.cwd : undefined,
      async (ctx) => {
        const { cwd: _cwd, ...input } = parseArgs(tool, args);
        return tool.spec.run(ctx, input, { role: fixedRole(tool.spec.role) ?? role, json: true, tool: tool.name });
      },
      tool.name,
    );
  });
  // Our own stdio framing: every malformed line is answered and the server keeps serving (transport.ts).
  // The CLI's io is the process's own streams (core/context.ts processIo), which the transport reads and drains.
  const transport = new LineTransport(o.io.stdin, o.io.stdout as NodeJS.WritableStream);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  server.onerror = (e) => {
    session.log(`jst mcp: ${e.message}`);
  };
  await server.connect(transport);
  await closed;
  closeSession(session);
  return EXIT.ok;
}

const fixedRole = (r: string): Role | undefined => (r === 'assigner' || r === 'executor' || r === 'reviewer' ? r : undefined);
