import { defineCommand } from '../commands/define.js';
import { printed } from '../core/output.js';

/** `jst mcp`: the MCP face as a command of the CLI (ARCHITECTURE §13); it loads the server (serve.ts, its own bundle) when run. */
export const mcpCommand = defineCommand({
  name: 'mcp',
  summary: "serve the role's tools to a coding agent: a Model Context Protocol server on stdio (agents/README.md)",
  // The tool list is printed from the specs by program.ts, so it cannot fall behind them.
  help: "Each tool calls the same code as the command of that name; a refusal is a tool result with isError.\nCredentials: the role's own from .jst/ (found from the folder the server starts in), as for every command.\nExit codes: 0 when the client closes stdin, 2 an unknown or missing --role or an unknown name in --tools.",
  examples: [
    'jst mcp --role executor',
    'jst mcp --role reviewer --read-only',
    'jst mcp --role executor --tools issue_view,note',
    'claude mcp add jst-executor -- jst mcp --role executor',
    'codex mcp add jst-executor -- jst mcp --role executor',
  ],
  role: 'chosen',
  json: 'none',
  fields: {
    readOnly: { schema: (z) => z.optional(z.boolean()), cli: { flag: '--read-only', help: 'list only the tools that change nothing (readOnlyHint)' } },
    tools: { schema: (z) => z.optional(z.string()), cli: { flag: '--tools <names>', help: 'list only these tools (comma list)' } },
  },
  effects: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  run: async (ctx, i, face) => {
    const { serveMcp } = await import('./serve.js');
    return printed(await serveMcp(face.role, { cwd: ctx.cwd, env: ctx.env, io: ctx.io, readOnly: Boolean(i.readOnly), tools: i.tools }));
  },
});
