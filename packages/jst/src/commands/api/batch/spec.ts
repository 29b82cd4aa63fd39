import { defineCommand } from '../../define.js';

export const batchCommand = defineCommand({
  name: 'batch',
  summary: 'JSON-lines requests on stdin ({"method","path","body"}), answers on stdout, one connection',
  examples: ['printf \'{"method":"GET","path":"/myself"}\\n\' | jst --role assigner batch'],
  role: 'chosen',
  json: 'none',
  fields: {},
  effects: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  run: async (ctx, _i, face) => (await import('./run.js')).batch(ctx, face.role),
});
