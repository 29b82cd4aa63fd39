import { READ, defineCommand } from '../../define.js';

export const whoamiCommand = defineCommand({
  name: 'whoami',
  summary: "who the role's token belongs to (GET /myself)",
  examples: ['jst --role executor whoami'],
  role: 'chosen',
  json: 'piped',
  fields: {},
  effects: READ,
  run: async (ctx, _i, face) => (await import('./run.js')).whoami(ctx, face.role),
});
