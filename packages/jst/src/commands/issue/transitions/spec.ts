import { READ, defineCommand } from '../../define.js';

export const issueTransitionsCommand = defineCommand({
  name: 'issue transitions',
  summary: "the transitions available from the issue's current status",
  examples: ['jst --role executor issue transitions ABC-1'],
  role: 'chosen',
  json: 'piped',
  fields: { key: { schema: (z) => z.string(), cli: { arg: '<key>' } } },
  effects: READ,
  run: async (ctx, i, face) => (await import('./run.js')).issueTransitions(ctx, face.role, i.key),
});
