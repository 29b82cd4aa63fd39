import { READ, defineCommand } from '../../define.js';

export const userSearchCommand = defineCommand({
  name: 'user search',
  summary: 'accounts matching a name or an e-mail address (GET /user/search): account ID, name, e-mail',
  help: 'The account IDs are what JQL (assignee = <accountId>) and the REST interface take; an e-mail address is shown only for\nthe account it belongs to (spec §2). Exit codes: 0 (also when nothing matches: an empty list), 1 the tracker said no,\n2 usage (an empty query).',
  examples: ['jst --role assigner user search executor@acme.test', 'jst --role reviewer user search Ada --json'],
  role: 'chosen',
  json: 'piped',
  fields: {
    query: { schema: (z) => z.string(), cli: { arg: '<query>', help: 'part of a display name, or an e-mail address' } },
  },
  effects: READ,
  run: async (ctx, i, face) => (await import('./run.js')).userSearch(ctx, face.role, i.query),
});
