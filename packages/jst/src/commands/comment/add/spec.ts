import { usageError } from '../../../core/errors.js';
import { ADDS, defineCommand } from '../../define.js';

export const commentAddCommand = defineCommand({
  name: 'comment add',
  summary: 'add a comment (literal text, Markdown or ADF) to an issue',
  examples: [
    'echo "Looks good" | jst --role reviewer comment add ABC-1 -',
    'jst --role assigner comment add ABC-1 --body-file note.txt',
    "printf '**Blocked** on `ABC-2`\\n' | jst --role executor comment add ABC-1 - --markdown",
  ],
  role: 'chosen',
  json: 'flag',
  fields: {
    key: { schema: (z) => z.string(), cli: { arg: '<key>' } },
    dash: { schema: (z) => z.optional(z.string()), cli: { arg: '[dash]', help: '- reads plain text from stdin' } },
    bodyFile: { schema: (z) => z.optional(z.string()), cli: { flag: '--body-file <file>', help: 'plain text: one paragraph per non-empty line' } },
    adfFile: { schema: (z) => z.optional(z.string()), cli: { flag: '--adf-file <file>', help: 'an ADF document (JSON)' } },
    markdown: {
      schema: (z) => z.optional(z.boolean()),
      cli: { flag: '--markdown', help: 'the body text is Markdown made into ADF nodes; without it text stays literal' },
    },
  },
  effects: { ...ADDS, idempotent: false },
  run: async (ctx, i, face) => {
    if (i.dash !== undefined && i.dash !== '-') throw usageError(`unexpected argument "${i.dash}" (use --body-file F, --adf-file F or -)`);
    const { dash, ...o } = i;
    return (await import('./run.js')).commentAdd(ctx, face.role, i.key, { ...o, stdin: dash === '-' });
  },
});
