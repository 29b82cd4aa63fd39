import { READ, defineCommand } from '../spec.js';
import { whoami } from '../read.js';

export const whoamiCommand = defineCommand({
  name: 'whoami',
  summary: 'who the role\'s token belongs to (GET /myself)',
  examples: ['jst --role executor whoami'],
  role: 'chosen', json: 'piped', fields: {}, effects: READ,
  run: (ctx, _i, face) => whoami(ctx, face.role, { json: face.json }),
});
