import type { Context } from '../core/context.js';

/**
 * A next step or a refusal's hint as the one reading it can act on (ARCHITECTURE §13): a tool's
 * inputs for an agent calling `jst mcp`, the CLI's command and flags for a person at a terminal.
 */
export const nextStep = {
  openParentPr: (ctx: Context, key: string) => (ctx.tool ? `parent_pr {"key": "${key}"}` : `jst review ${key} --open-parent-pr`),
  verdict: (ctx: Context, key: string, verdict: 'approve' | 'request-changes') =>
    ctx.tool ? `review_verdict {"key": "${key}", "verdict": "${verdict}", "summary": "…"}` : `jst review ${key} --${verdict} --summary "…"`,
  /** An input's name: the tool's (`summary`) or the CLI's flag (`--summary`). */
  input: (ctx: Context, tool: string, flag: string) => (ctx.tool ? tool : flag),
};
