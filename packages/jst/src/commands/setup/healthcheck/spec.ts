import { HEALTH_OUTPUT } from '../../outputs.js';
import { READ, defineCommand } from '../../define.js';

export const healthcheckCommand = defineCommand({
  name: 'healthcheck',
  summary: 'the status check: configuration, logins, branches, platform',
  help: 'Exit codes: 0 no row FAILs, 1 a row FAILs, 2 usage.\nThe text form is the default, also when piped; --json prints {"role", "rows": [{"name", "status", "detail"}]}.',
  examples: ['jst healthcheck --role assigner', 'jst healthcheck --role executor --json', 'jst healthcheck --role executor --context'],
  role: 'chosen',
  json: 'flag',
  fields: {
    context: {
      schema: (z) => z.optional(z.boolean()),
      cli: {
        flag: '--context',
        help: 'also the context rows issue_key, parent_branch, working_tree and agents (status PASS, WARN or INFO = does not apply; never change the exit code)',
      },
      tool: false,
    },
  },
  tool: {
    name: 'healthcheck',
    roles: ['assigner', 'executor', 'reviewer'],
    title: 'Status check',
    description: 'jst healthcheck --role <this role> --json: configuration, logins, branches, platform, one row each. isError when a row FAILs.',
  },
  output: HEALTH_OUTPUT,
  // Reads only; a cloudId it learns is cached in .jst/cloud-id.json, which changes no state a person sees.
  effects: READ,
  run: async (ctx, i, face) => (await import('./run.js')).healthcheckOutcome(ctx, face.role, { context: i.context }),
});
