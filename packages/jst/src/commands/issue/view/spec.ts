import { ISSUE_OUTPUT, ISSUE_SUMMARY_OUTPUT } from '../../outputs.js';
import { commaList, fieldList, issueKey } from '../../fields.js';
import { READ, defineCommand } from '../../define.js';

export const issueViewCommand = defineCommand({
  name: 'issue view',
  summary: 'one issue: its fields, description and comments (ADF rendered as text)',
  examples: ['jst --role executor issue view ABC-1 --fields executor', 'jst --role reviewer issue view ABC-1 --fields summary,status --json'],
  role: 'chosen',
  json: 'piped',
  fields: {
    key: { schema: (z) => z.optional(issueKey(z)), description: 'e.g. ABC-1; default: the key in the branch of the worktree in cwd', cli: { arg: '<key>' } },
    fields: fieldList('a comma list or an array of field names, or the presets executor | reviewer', 'comma list, or the presets executor | reviewer'),
    raw: { schema: (z) => z.optional(z.boolean()), description: 'the REST JSON of the issue (as jst issue view --json) instead of the short view' },
  },
  tool: {
    name: 'issue_view',
    roles: ['assigner', 'executor', 'reviewer'],
    title: 'View an issue',
    description:
      "jst issue view KEY as this role. Default: the issue as text (description start, latest comments) plus a small object (key, summary, status, assignee, parent, sub-tasks, marker comments, and the reviewer's latest verdict when it asks for changes). raw: true returns the REST JSON. Without key: the issue of the worktree in cwd.",
  },
  output: (z) => z.union([ISSUE_SUMMARY_OUTPUT(z), ISSUE_OUTPUT(z)]),
  effects: READ,
  run: async (ctx, i, face) => {
    const { currentKey, shortView } = await import('./short-view.js');
    const key = i.key || (await currentKey(ctx));
    const fields = commaList(i.fields);
    if (face.tool && !i.raw) return shortView(ctx, face.role, key, fields);
    return (await import('./run.js')).issueViewOutcome(ctx, face.role, key, { fields });
  },
});
