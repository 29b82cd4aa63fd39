import { READ, defineCommand } from '../../define.js';

export const projectListCommand = defineCommand({
  name: 'project list',
  summary: 'every project visible to the role (key and name)',
  examples: ['jst --role assigner project list'],
  role: 'chosen',
  json: 'piped',
  fields: { query: { schema: (z) => z.optional(z.string()), cli: { flag: '--query <text>', help: 'filter by key or name' } } },
  effects: READ,
  run: async (ctx, i, face) => (await import('./run.js')).projectList(ctx, face.role, { query: i.query }),
});
