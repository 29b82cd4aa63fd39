import { READ, defineCommand } from '../spec.js';
import { issueTransitions } from '../read.js';

export const issueTransitionsCommand = defineCommand({
  name: 'issue transitions',
  summary: 'the transitions available from the issue\'s current status',
  examples: ['jst --role executor issue transitions ABC-1'],
  role: 'chosen', json: 'piped',
  fields: { key: { schema: (z) => z.string(), cli: { arg: '<key>' } } },
  effects: READ,
  run: (ctx, i, face) => issueTransitions(ctx, face.role, i.key, { json: face.json }),
});
