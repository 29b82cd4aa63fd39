import { DONE_OUTPUT } from '../../outputs.js';
import { defineCommand } from '../../define.js';
import { phaseHelp } from '../../phase-help.js';

export const doneCommand = defineCommand({
  name: 'done',
  summary: 'move approved issues from STATUS_IN_REVIEW to STATUS_DONE, each after an explicit yes',
  help: phaseHelp(
    'reviewer',
    "1 refused (not in review, no APPROVED verdict from the reviewer's account, a key declined on the prompt, a verdict asking for changes given while it ran) or the tracker said no, 2 usage, 3 a yes is missing (not on a terminal): nothing moved.\nAn issue already done is left as it is (success).",
  ),
  examples: ['jst done ABC-2 --yes ABC-2', 'jst done ABC-2 ABC-3 --yes ABC-2 ABC-3', 'jst done ABC-2   # asks on a terminal'],
  role: 'reviewer',
  json: 'flag',
  fields: {
    keys: {
      schema: (z) => z.array(z.string()).check(z.minLength(1)),
      description: 'the issues, e.g. ["ABC-2"]',
      cli: { arg: '<keys...>', help: 'the issues' },
    },
    yes: {
      schema: (z) => z.optional(z.array(z.string())),
      cli: { flag: '--yes <key...>', help: 'the explicit yes for each key (required when not on a terminal)' },
      tool: false,
    },
  },
  tool: {
    name: 'done',
    roles: ['reviewer'],
    title: 'Done',
    description:
      "jst done KEY… --json: approved issues in review move to Done, each only after the person's explicit yes for that key, asked through elicitation; a client without elicitation gets back the exact jst done command the person runs in a terminal, and nothing moves.",
  },
  output: DONE_OUTPUT,
  // Done is the end of the workflow: what a person undoes by hand.
  effects: { readOnly: false, destructive: true, idempotent: true, openWorld: true },
  run: async (ctx, i, face) => (await import('./run.js')).doneOutcome(ctx, face.role, { keys: i.keys, yes: i.yes }),
});
