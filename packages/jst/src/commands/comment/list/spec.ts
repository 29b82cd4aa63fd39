import { issueKey } from '../../fields.js';
import { COMMENT_LIST_OUTPUT } from '../../outputs.js';
import { READ, defineCommand } from '../../define.js';

export const commentListCommand = defineCommand({
  name: 'comment list',
  summary: 'every comment of an issue (all pages), or those whose first line is a marker',
  examples: ['jst --role executor comment list ABC-1 --marker "Assignment report"'],
  role: 'chosen',
  json: 'piped',
  fields: {
    key: { schema: (z) => issueKey(z), description: 'the issue, e.g. ABC-1', cli: { arg: '<key>' } },
    marker: {
      schema: (z) => z.optional(z.string()),
      description: 'only the comments whose text starts with this, e.g. "Task memory" or "CHANGES REQUESTED"',
      cli: { flag: '--marker <text>', help: 'only comments whose text starts with it' },
    },
  },
  tool: {
    name: 'comment_list',
    roles: ['assigner', 'executor', 'reviewer'],
    title: 'List comments',
    description:
      'jst comment list KEY as this role: every comment of the issue, each with its whole text (issue_view shows only the latest few, cut short), oldest first; marker keeps those starting with it (e.g. every "Task memory" note, or the reviewer\'s verdicts).',
  },
  output: COMMENT_LIST_OUTPUT,
  effects: READ,
  run: async (ctx, i, face) => {
    const { commentList, commentRows } = await import('./run.js');
    const out = await commentList(ctx, face.role, i.key, { marker: i.marker });
    return face.tool ? commentRows(i.key, out) : out;
  },
});
