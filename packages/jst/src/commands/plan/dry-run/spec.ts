import { FROM_BRANCH, PLAN_OBJECT } from '../../fields.js';
import { PLAN_OUTPUT } from '../../outputs.js';
import { defineCommand } from '../../define.js';

/** No CLI command of its own: `jst plan --plan FILE --dry-run` (plan/plan). */
export const planDryRunCommand = defineCommand({
  name: 'plan dry-run',
  summary: 'phase 1 as a dry run: every check, every call and git command printed, nothing created',
  examples: ['jst plan --plan plan.json --dry-run'],
  role: 'none',
  json: 'flag',
  cli: false,
  fields: { plan: PLAN_OBJECT, fromBranch: FROM_BRANCH },
  tool: {
    name: 'plan_dry_run',
    roles: ['assigner'],
    title: 'Phase 1: dry run',
    description: 'jst plan --plan FILE --dry-run --json: every check runs, every call and git command is printed (as progress), nothing is created.',
  },
  output: PLAN_OUTPUT,
  effects: { readOnly: true, destructive: false, idempotent: true, openWorld: true },
  run: async (ctx, i, face) =>
    (await import('../../../plan/phase1.js')).planOutcome(ctx, { request: [], planData: i.plan, fromBranch: i.fromBranch, dryRun: true, tool: face.tool }),
});
