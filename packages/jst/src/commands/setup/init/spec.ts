import { defineCommand, field } from '../../define.js';

const setting = (flag: string, help: string) => field({ schema: (z) => z.optional(z.string()), cli: { flag, help } });

export const initCommand = defineCommand({
  name: 'init',
  summary: 'write .jst/team.env, .jst/local.env (0600) and .jst/.gitignore',
  help: 'Tokens are read from TRACKER_ASSIGNER_TOKEN, TRACKER_EXECUTOR_TOKEN, TRACKER_REVIEWER_TOKEN and CODEHOST_PAT_TOKEN\nin the environment, or asked for on a terminal; never from flags.',
  examples: [
    'jst init',
    'jst init --project-key ABC --site acme.atlassian.net --worktrees-dir /home/me/worktrees --assigner-email a@acme.test --executor-email e@acme.test --reviewer-email r@acme.test',
  ],
  role: 'none',
  json: 'none',
  fields: {
    force: { schema: (z) => z.optional(z.boolean()), cli: { flag: '--force', help: 'overwrite existing files' } },
    projectKey: setting('--project-key <key>', 'PROJECT_KEY'),
    site: setting('--site <host>', 'TRACKER_ACCOUNT_URL'),
    gateway: setting('--gateway <url>', 'TRACKER_GATEWAY_URL'),
    worktreesDir: setting('--worktrees-dir <path>', 'WORKTREES_DIR (absolute)'),
    baseBranch: setting('--base-branch <name>', 'DEFAULT_BASE_BRANCH'),
    productionBranch: setting('--production-branch <name>', 'PRODUCTION_BRANCH'),
    codehostApi: setting('--codehost-api <url>', 'CODEHOST_API_URL'),
    assignerEmail: setting('--assigner-email <email>', 'TRACKER_ASSIGNER_EMAIL'),
    executorEmail: setting('--executor-email <email>', 'TRACKER_EXECUTOR_EMAIL'),
    reviewerEmail: setting('--reviewer-email <email>', 'TRACKER_REVIEWER_EMAIL'),
  },
  effects: { readOnly: false, destructive: true, idempotent: false, openWorld: false },
  run: async (ctx, i) => (await import('./run.js')).init(ctx, i),
});
