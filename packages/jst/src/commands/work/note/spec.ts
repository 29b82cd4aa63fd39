import { NOTE_OUTPUT } from '../../outputs.js';
import { bodyFile, markdown, MARKDOWN_HELP, words } from '../../fields.js';
import { ADDS, defineCommand } from '../../define.js';
import { phaseHelp } from '../../phase-help.js';

export const noteCommand = defineCommand({
  name: 'note',
  summary: 'the executor\'s task memory: a "Task memory" comment on this worktree\'s issue',
  help: phaseHelp('executor', '1 the tracker said no, 2 usage or not in an issue worktree.'),
  examples: ['jst note "parser done; the UI still needs the error states"', 'jst note --body-file notes.md --markdown'],
  role: 'executor',
  json: 'flag',
  fields: {
    text: { schema: (z) => z.string(), description: 'the note', cli: { arg: '[text...]', help: 'the note', parse: (v) => words(v as string[]).join(' ') } },
    bodyFile: bodyFile('read the note from a file'),
    markdown: markdown(MARKDOWN_HELP),
  },
  tool: {
    name: 'note',
    roles: ['executor'],
    title: 'Task memory',
    description: 'jst note TEXT --json in the issue\'s worktree: a "Task memory" comment on its issue, printed again by the next start.',
  },
  output: NOTE_OUTPUT,
  effects: { ...ADDS, idempotent: false },
  run: async (ctx, i, face) =>
    (await import('./run.js')).noteOutcome(ctx, face.role, { words: i.text ? [i.text] : [], bodyFile: i.bodyFile, markdown: i.markdown }),
});
