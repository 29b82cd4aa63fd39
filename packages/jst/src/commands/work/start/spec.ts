import { START_OUTPUT } from '../../outputs.js';
import { words } from '../../fields.js';
import { defineCommand } from '../../define.js';

export const startCommand = defineCommand({
  name: 'start',
  summary: 'phase 2, the executor: start work on the issue of this worktree (the key comes from the branch)',
  help: 'Runs inside a worktree made by jst plan, always as the executor (--role executor is accepted, no other role).\nExit codes: 0 started, 1 refused by the tracker or a rule (not assigned to the executor, no transition to STATUS_IN_PROGRESS, a conflict merging the parent branch), 2 not in an issue worktree or a configuration error, 3 an issue with sub-tasks without --on-parent (not on a terminal).\nWith branch.<b>.parentbranch set it fetches origin and merges origin/<parent> first; then runs .jst/bootstrap.sh when present.\nAn issue back from review shows the reviewer\'s "CHANGES REQUESTED — " verdict (who, and what they asked) before the task memory.',
  examples: ['cd ~/worktrees/worktree-ABC-2 && jst start', 'jst start "begin with the parser; the UI can wait"', 'jst start --json'],
  role: 'executor',
  json: 'flag',
  fields: {
    notes: {
      schema: (z) => z.optional(z.union([z.string(), z.array(z.string())])),
      description: 'notes for this piece of work, saved as a task memory comment (as note does; not again when the latest note says the same)',
      cli: { arg: '[notes...]', help: 'notes saved as a task memory comment (as jst note; not again when the latest note says the same)' },
    },
    onParent: {
      schema: (z) => z.optional(z.boolean()),
      description: "the person's explicit yes to work on a parent issue itself (an issue with sub-tasks)",
      cli: { flag: '--on-parent', help: 'confirm starting work on an issue that has sub-tasks (asked on a terminal)' },
    },
  },
  tool: {
    name: 'start',
    roles: ['executor'],
    title: 'Phase 2: start work',
    description:
      "jst start --json in the issue's worktree (set cwd to it): the key from the branch, the parent branch merged in, the issue to In Progress, the branch on origin, the PR base, the acceptance criteria, the reviewer's verdict when it asks for changes, and earlier task memory. On a parent (an issue with sub-tasks) the person is asked first (elicitation); onParent is their yes given beforehand.",
  },
  output: START_OUTPUT,
  // Moves the issue to In Progress and pushes the branch once; a rerun changes nothing more.
  effects: { readOnly: false, destructive: false, idempotent: true, openWorld: true },
  run: async (ctx, i, face) => (await import('./run.js')).startOutcome(ctx, face.role, { notes: words(i.notes), onParent: i.onParent }),
});
