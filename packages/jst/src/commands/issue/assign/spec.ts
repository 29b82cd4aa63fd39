import { defineCommand } from '../../define.js';

export const issueAssignCommand = defineCommand({
  name: 'issue assign',
  summary: 'assign an issue by e-mail (@me, executor, none to unassign), confirmed by reading it back',
  examples: [
    'jst --role assigner issue assign ABC-1 executor@acme.test',
    'jst --role executor issue assign ABC-1 @me',
    'jst --role assigner issue assign ABC-1 none',
  ],
  role: 'chosen',
  json: 'piped',
  fields: {
    key: { schema: (z) => z.string(), cli: { arg: '<key>' } },
    who: { schema: (z) => z.string(), cli: { arg: '<who>', help: 'EMAIL, @me, executor or none' } },
  },
  effects: { readOnly: false, destructive: true, idempotent: true, openWorld: true },
  run: async (ctx, i, face) => (await import('./run.js')).issueAssign(ctx, face.role, i.key, i.who),
});
