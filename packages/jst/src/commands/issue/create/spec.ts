import { ADDS, defineCommand, field } from '../../define.js';

const text = (flag: string, help: string) => field({ schema: (z) => z.optional(z.string()), cli: { flag, help } });
const required = (flag: string, help: string) => field({ schema: (z) => z.string(), cli: { flag, help, required: true } });

export const issueCreateCommand = defineCommand({
  name: 'issue create',
  summary: 'create a Task or a Subtask (description as literal text, Markdown or ADF)',
  examples: [
    'jst --role assigner issue create --type Task --summary "Add login" --assignee executor --description-file scope.txt',
    'jst --role assigner issue create --type Subtask --parent ABC-1 --summary "Form" --assignee executor',
    'jst --role assigner issue create --type Task --summary "Add login" --description-file scope.md --markdown',
  ],
  role: 'chosen',
  json: 'flag',
  fields: {
    type: required('--type <type>', 'Task or Subtask'),
    summary: required('--summary <text>', 'one line'),
    parent: text('--parent <key>', 'the parent of a Subtask'),
    project: text('--project <key>', 'default: PROJECT_KEY from .jst/team.env'),
    assignee: text('--assignee <who>', 'EMAIL, @me, or executor (the executor e-mail from .jst/local.env)'),
    descriptionFile: text('--description-file <file>', 'plain text: one paragraph per non-empty line, nothing interpreted'),
    adfFile: text('--adf-file <file>', 'an ADF document (JSON)'),
    description: text('--description <dash>', '- reads plain text from stdin'),
    markdown: {
      schema: (z) => z.optional(z.boolean()),
      cli: { flag: '--markdown', help: 'the description text is Markdown (headings, lists, code, tables…) made into ADF nodes; without it text stays literal' },
    },
  },
  effects: { ...ADDS, idempotent: false },
  run: async (ctx, i, face) => (await import('./run.js')).issueCreate(ctx, face.role, i),
});
