import { READ, defineCommand } from '../../define.js';

export const commentListCommand = defineCommand({
  name: 'comment list',
  summary: 'every comment of an issue (all pages), or those whose first line is a marker',
  examples: ['jst --role executor comment list ABC-1 --marker "Assignment report"'],
  role: 'chosen',
  json: 'piped',
  fields: {
    key: { schema: (z) => z.string(), cli: { arg: '<key>' } },
    marker: { schema: (z) => z.optional(z.string()), cli: { flag: '--marker <text>', help: 'only comments whose text starts with it' } },
  },
  effects: READ,
  run: async (ctx, i, face) => (await import('./run.js')).commentList(ctx, face.role, i.key, { marker: i.marker }),
});
