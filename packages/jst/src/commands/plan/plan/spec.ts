import { PLAN_OUTPUT } from '../../outputs.js';
import { FROM_BRANCH, PLAN_OBJECT } from '../../fields.js';
import { defineCommand } from '../../define.js';

export const planCommand = defineCommand({
  name: 'plan',
  summary: 'phase 1, the assigner: plan a request into issues, branches and worktrees',
  help: 'Exit codes: 0 done (or already planned), 1 a tracker or git failure, 2 a gate refused (nothing created), 3 a question needs an answer (non-interactive), 130 cancelled with Ctrl-C at a question.\nEvery summary, description and issue type is checked against the tracker rules before anything is created.\nA run cut off at any point is finished by running jst plan again (the journal is .jst/plan-journal.json), with the same plan or one corrected only in what was not made yet; jst plan --abandon deletes what it made instead (after a yes: --yes off a terminal, else exit 3).\nThe same plan again after it completed answers with the issues it made ("alreadyPlanned": true) and creates nothing; --again plans it anew.',
  examples: [
    'jst plan "Add CSV export to the reports page"',
    'jst plan --plan plan.json --json',
    'jst plan --plan hotfix.json --confirm-hotfix',
    'jst plan --plan plan.json --dry-run',
    'jst plan --plan plan.json --from-branch release-prep',
    'jst plan --plan plan.json --again',
    'jst plan --abandon',
    'jst plan --abandon --yes --json',
  ],
  role: 'assigner',
  json: 'flag',
  fields: {
    request: { schema: (z) => z.optional(z.array(z.string())), cli: { arg: '[request...]', help: 'what to build (asked for when empty)' }, tool: false },
    planFile: {
      schema: (z) => z.optional(z.string()),
      cli: { flag: '--plan <file>', help: 'a plan file (JSON) with the settled answers; runs non-interactively' },
      tool: false,
    },
    plan: PLAN_OBJECT,
    yes: {
      schema: (z) => z.optional(z.boolean()),
      cli: {
        flag: '--yes',
        help: 'do not ask for the final confirmation (never accepts an unusual start branch: see --from-branch); with --abandon, the yes to delete',
      },
      tool: false,
    },
    fromBranch: FROM_BRANCH,
    confirmHotfix: { schema: (z) => z.optional(z.boolean()), cli: { flag: '--confirm-hotfix', help: 'the explicit yes the hotfix path needs' }, tool: false },
    dryRun: { schema: (z) => z.optional(z.boolean()), cli: { flag: '--dry-run', help: 'print every call and git command, change nothing' }, tool: false },
    abandon: {
      schema: (z) => z.optional(z.boolean()),
      description:
        "instead of planning, delete what the unfinished plan run recorded in the journal made (its issues, worktrees, branches), after the person's explicit yes, and forget the run",
      cli: { flag: '--abandon', help: 'delete what the unfinished run in .jst/plan-journal.json made (asks; --yes off a terminal)' },
    },
    again: {
      schema: (z) => z.optional(z.boolean()),
      description: 'plan it anew although the same plan was completed before (otherwise the issues it made are returned and nothing is created)',
      cli: { flag: '--again', help: 'plan anew although the same plan completed before' },
    },
  },
  tool: {
    name: 'plan',
    roles: ['assigner'],
    title: 'Phase 1: plan',
    description:
      "jst plan --plan FILE --json with the plan-file object: creates the issues, branches, worktrees and comments. Open questions come back as an error listing them; an unusual start branch is fromBranch; the hotfix yes is the person's (elicitation, or a refusal naming the jst command they run). The same plan again answers alreadyPlanned: true with the issues it made; again: true plans anew. A run that stopped halfway is finished by the same plan (or one corrected only in what was not made yet), or deleted with abandon: true after the person's yes (plan names the run: its request, if given, must be the recorded run's; answers abandoned: true, listing what was removed). One progress notification per step.",
  },
  output: PLAN_OUTPUT,
  // abandon deletes the issues, worktrees and branches an unfinished run made.
  effects: { readOnly: false, destructive: true, idempotent: true, openWorld: true },
  run: async (ctx, i, face) => {
    const o = {
      request: i.request ?? [],
      plan: i.planFile,
      yes: i.yes,
      fromBranch: i.fromBranch,
      confirmHotfix: i.confirmHotfix,
      dryRun: i.dryRun,
      again: i.again,
      abandon: i.abandon,
      json: face.json,
      ...(face.tool ? { planData: i.plan, tool: face.tool } : {}),
    };
    return (await import('./run.js')).plan(ctx, face.role, o);
  },
});

/** No CLI command of its own: `jst plan --plan FILE --dry-run`, the same command's dry run as a tool. */
export const planDryRunCommand = defineCommand({
  name: 'plan dry-run',
  summary: 'phase 1 as a dry run: every check, every call and git command printed, nothing created',
  examples: ['jst plan --plan plan.json --dry-run'],
  role: 'assigner',
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
    (await import('./run.js')).plan(ctx, face.role, { request: [], planData: i.plan, fromBranch: i.fromBranch, dryRun: true, tool: face.tool }),
});
