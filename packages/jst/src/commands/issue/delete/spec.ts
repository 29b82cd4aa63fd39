import { defineCommand } from '../../define.js';

export const issueDeleteCommand = defineCommand({
  name: 'issue delete',
  summary: 'delete an issue (and with --with-subtasks its sub-tasks), after an explicit yes',
  examples: ['jst --role assigner issue delete ABC-7 --yes ABC-7', 'jst --role assigner issue delete ABC-1 --with-subtasks'],
  role: 'chosen',
  json: 'piped',
  fields: {
    key: { schema: (z) => z.string(), cli: { arg: '<key>' } },
    withSubtasks: { schema: (z) => z.optional(z.boolean()), cli: { flag: '--with-subtasks', help: 'also delete its sub-tasks' } },
    yes: { schema: (z) => z.optional(z.string()), cli: { flag: '--yes <key>', help: 'the same key again, to confirm without a prompt' }, tool: false },
  },
  effects: { readOnly: false, destructive: true, idempotent: true, openWorld: true },
  run: async (ctx, i, face) => (await import('./run.js')).issueDelete(ctx, face.role, i.key, i),
});
