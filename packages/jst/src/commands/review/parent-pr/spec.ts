import { REVIEW_BRIEF_OUTPUT } from '../../outputs.js';
import { issueKey } from '../../fields.js';
import { defineCommand } from '../../define.js';

/** No CLI command of its own: `jst review KEY --open-parent-pr` (commands/review/brief/spec.ts). */
export const parentPrCommand = defineCommand({
  name: 'review parent-pr',
  summary: "open the parent's pull request once every sub-task pull request is merged",
  examples: ['jst review ABC-1 --open-parent-pr'],
  role: 'reviewer',
  json: 'flag',
  cli: false,
  fields: { key: { schema: (z) => issueKey(z), description: 'the parent issue, e.g. ABC-1' } },
  tool: {
    name: 'parent_pr',
    roles: ['reviewer'],
    title: "Open the parent's pull request",
    description:
      "jst review KEY --open-parent-pr --json: once every sub-task pull request of the parent is merged, opens (or finds) the parent's pull request into its base, moves the parent to In Review and posts its Run report; the result is the review brief with that pull request. Refused (isError) while a sub-task pull request is not merged.",
  },
  output: REVIEW_BRIEF_OUTPUT,
  effects: { readOnly: false, destructive: false, idempotent: true, openWorld: true },
  run: async (ctx, i, face) => (await import('../../../phase/review-brief.js')).reviewBriefOutcome(ctx, face.role, { key: i.key, openParentPr: true }),
});
