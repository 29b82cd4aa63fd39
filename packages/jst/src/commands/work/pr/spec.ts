import { PR_OUTPUT } from '../../outputs.js';
import { bodyFile, markdown, MARKDOWN_HELP } from '../../fields.js';
import { defineCommand } from '../../define.js';
import { phaseHelp } from '../../phase-help.js';

export const prCommand = defineCommand({
  name: 'pr',
  summary: 'push this issue branch, open (or find) its pull request into jst pr-base, move the issue to review, post the Run report',
  help: phaseHelp(
    'executor',
    '1 refused (dirty work tree, no commits beyond the base, wrong status) or the tracker / code host said no, 2 usage, configuration (CODEHOST_PAT_TOKEN, CODEHOST_API_URL, CODEHOST_REPO) or not in an issue worktree.\nRerunning finds the open pull request: no second pull request, and no second Run report for the same round; after the reviewer asked for changes, jst pr pushes the fix and posts the new round’s Run report.',
  ),
  examples: ['jst pr', 'jst pr --title "ABC-2: CSV serialiser" --body-file pr.md --markdown', 'jst pr --draft --json'],
  role: 'executor',
  json: 'flag',
  fields: {
    title: {
      schema: (z) => z.optional(z.string()),
      description: 'default "<KEY>: <summary>"',
      cli: { flag: '--title <text>', help: 'default: "<KEY>: <summary>"' },
    },
    bodyFile: bodyFile('the pull request body (also added to the Run report)'),
    body: { schema: (z) => z.optional(z.string()), description: 'the pull request body (also added to the Run report)' },
    markdown: markdown(MARKDOWN_HELP),
    draft: {
      schema: (z) => z.optional(z.boolean()),
      description: 'open the pull request as a draft',
      cli: { flag: '--draft', help: 'open the pull request as a draft' },
    },
  },
  tool: {
    name: 'pr',
    roles: ['executor'],
    title: 'Open the pull request',
    description:
      "jst pr --json in the issue's worktree: refuses a dirty tree or no commits; pushes, opens (or finds) the pull request into pr_base, moves the issue to In Review, posts the Run report. Sends one progress notification per step.",
  },
  output: PR_OUTPUT,
  effects: { readOnly: false, destructive: false, idempotent: true, openWorld: true },
  run: async (ctx, i, face) =>
    (await import('./run.js')).prOutcome(ctx, face.role, {
      title: i.title,
      body: i.body,
      bodyFile: i.bodyFile,
      markdown: i.markdown,
      draft: i.draft,
    }),
});
