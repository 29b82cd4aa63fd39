import { PR_BASE_OUTPUT } from '../../outputs.js';
import { READ, defineCommand } from '../../define.js';
import { phaseHelp } from '../../phase-help.js';

export const prBaseCommand = defineCommand({
  name: 'pr-base',
  summary: 'the PR base of this issue branch and where it came from: <base>\t<source>',
  help: phaseHelp(
    'executor',
    '1 unresolved (what was tried is listed), 2 not in an issue worktree.\nOrder: branch.<b>.parentbranch, the "PR target branch:" comment, the parent\'s branch (a sub-task), DEFAULT_BASE_BRANCH (top-level only).',
  ),
  examples: ['jst pr-base', 'jst pr-base --json'],
  role: 'executor',
  json: 'flag',
  fields: {},
  tool: {
    name: 'pr_base',
    roles: ['executor'],
    title: 'PR base',
    description: "jst pr-base --json in the issue's worktree: the base of its pull request and where it came from (an error lists what was tried).",
  },
  output: PR_BASE_OUTPUT,
  effects: READ,
  run: async (ctx, _i, face) => (await import('./run.js')).prBaseOutcome(ctx, face.role),
});
