import { READ, defineCommand } from '../../define.js';

export const tenantCommand = defineCommand({
  name: 'tenant',
  summary: "the site's cloudId and {api_base}",
  examples: ['jst --role assigner tenant --json'],
  role: 'chosen',
  json: 'piped',
  fields: {},
  effects: READ,
  run: async (ctx, _i, face) => (await import('./run.js')).tenant(ctx, face.role),
});
