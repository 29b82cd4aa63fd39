import { READ, defineCommand } from '../../define.js';

export const projectExistsCommand = defineCommand({
  name: 'project exists',
  summary: 'exit 0 when the project is visible (exact key), 1 when not',
  examples: ['jst --role assigner project exists ABC && echo visible'],
  role: 'chosen',
  json: 'piped',
  fields: { key: { schema: (z) => z.string(), cli: { arg: '<key>' } } },
  effects: READ,
  run: async (ctx, i, face) => (await import('./run.js')).projectExists(ctx, face.role, i.key),
});
