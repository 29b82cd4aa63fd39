import { READ, defineCommand } from '../../define.js';

export const projectStatusesCommand = defineCommand({
  name: 'project statuses',
  summary: 'the statuses of a project, per issue type',
  examples: ['jst --role assigner project statuses ABC'],
  role: 'chosen',
  json: 'piped',
  fields: { key: { schema: (z) => z.string(), cli: { arg: '<key>' } } },
  effects: READ,
  run: async (ctx, i, face) => (await import('./run.js')).projectStatuses(ctx, face.role, i.key),
});
