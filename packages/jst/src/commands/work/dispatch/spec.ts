import { printed } from '../../../core/output.js';
import { defineCommand } from '../../define.js';

const num = (v: unknown) => Number(v);

/**
 * `jst dispatch` (ARCHITECTURE §15): the loop that hands each worktree to its agent. A CLI command
 * only, not an MCP tool: it runs for as long as the person lets it and starts agents itself, which
 * is not a tool call an agent should make (the spec has no `tool` face, so mcp/tools.ts skips it).
 */
export const dispatchCommand = defineCommand({
  name: 'dispatch',
  summary: "the agent loop: each round, start the team's executor or reviewer agent for every hand-off found on the tracker (ARCHITECTURE §15)",
  help: [
    'Run in the main checkout. Each round searches the tracker (as each role, through /search/jql) for: To Do leaf issues',
    'assigned to the executor whose worktree is known; parents whose sub-tasks are all Done and that have no pull request;',
    "In Review issues with a Run report newer than the reviewer's latest verdict; In Progress issues sent back with",
    'changes requested after their latest Run report. For each it runs AGENT_EXECUTOR_CMD or AGENT_REVIEWER_CMD',
    "(.jst/team.env) through the shell in the issue's worktree, with JST_ISSUE_KEY, JST_ROLE and JST_WORKTREE_DIR set,",
    "output in .jst/dispatch/<KEY>-<round>.log. An issue's round is its hand-off number: 1 + its Run reports + its",
    'verdicts. One agent per issue and round, journalled in .jst/dispatch-journal.json before it starts; a failing',
    'agent, or one running past AGENT_TIMEOUT_MINUTES (default 60; its processes are then stopped), is started once',
    'more on a later round, then left for you. One dispatch per checkout (.jst/dispatch/dispatch.lock; a second is exit 2',
    'naming the pid holding it). Dispatch changes nothing on the tracker or the',
    'code host and never runs jst done: approved issues are listed with the jst done command for you to run.',
    'Progress (one line per start and per exit) on stderr; --json prints one JSON document per round on stdout.',
    'Ctrl-C: no new agents; waits for the running ones. Exit codes: 0 every started agent exited 0, 1 an agent failed',
    'or the tracker said no, 2 usage or configuration (no agent command, not the main checkout, a bad --interval,',
    'another dispatch holding the lock, a misshapen journal).',
  ].join('\n'),
  examples: ['jst dispatch', 'jst dispatch --once --json', 'jst dispatch --dry-run --once', 'jst dispatch --interval 30 --max-agents 1'],
  role: 'none',
  json: 'flag',
  fields: {
    once: {
      schema: (z) => z.optional(z.boolean()),
      cli: { flag: '--once', help: 'run one round: start every hand-off found (--max-agents at a time), wait for them, exit (0 when all exited 0)' },
      tool: false,
    },
    interval: {
      schema: (z) => z.optional(z.number()),
      cli: { flag: '--interval <seconds>', help: 'seconds between rounds (default 60)', parse: num },
      tool: false,
    },
    maxAgents: {
      schema: (z) => z.optional(z.number()),
      cli: { flag: '--max-agents <n>', help: 'agents running at once (default 2)', parse: num },
      tool: false,
    },
    dryRun: {
      schema: (z) => z.optional(z.boolean()),
      cli: { flag: '--dry-run', help: 'one round: print what would start and why; start nothing, write no journal' },
      tool: false,
    },
  },
  // Writes only local files (.jst/dispatch*); the agents it starts do the rest.
  effects: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  // A streaming command: each round and each agent's start and exit are written through ctx.io as they happen.
  run: async (ctx, i, face) =>
    printed(
      await (
        await import('../../../dispatch/loop.js')
      ).dispatchLoop(ctx, {
        once: Boolean(i.once),
        dryRun: Boolean(i.dryRun),
        json: face.json,
        intervalSeconds: i.interval ?? 60,
        maxAgents: i.maxAgents ?? 2,
      }),
    ),
});
