import { READ, defineCommand } from '../spec.js';
import { tenant } from '../read.js';

export const tenantCommand = defineCommand({
  name: 'tenant',
  summary: 'the site\'s cloudId and {api_base}',
  examples: ['jst --role assigner tenant --json'],
  role: 'chosen', json: 'piped', fields: {}, effects: READ,
  run: (ctx, _i, face) => tenant(ctx, face.role, { json: face.json }),
});
