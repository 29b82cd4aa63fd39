import { defineCommand } from '../../define.js';

export const issueTransitionCommand = defineCommand({
  name: 'issue transition',
  summary: "move an issue to a status, by the destination's name",
  examples: ['jst --role executor issue transition ABC-1 --to "In Progress"'],
  role: 'chosen',
  json: 'piped',
  fields: {
    key: { schema: (z) => z.string(), cli: { arg: '<key>' } },
    to: { schema: (z) => z.string(), cli: { flag: '--to <status>', help: 'destination status name, matched literally', required: true } },
  },
  effects: { readOnly: false, destructive: true, idempotent: true, openWorld: true },
  run: async (ctx, i, face) => (await import('./run.js')).issueTransition(ctx, face.role, i.key, i.to),
});
