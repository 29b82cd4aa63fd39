import { VERDICT_OUTPUT } from '../../outputs.js';
import { issueKey, VERDICT_FIELDS } from '../../fields.js';
import { defineCommand } from '../../define.js';

/** No CLI command of its own: `jst review KEY --approve|--request-changes --summary S` (commands/review/brief/spec.ts). */
export const reviewVerdictCommand = defineCommand({
  name: 'review verdict',
  summary: "the verdict on an issue's pull request: APPROVED — S or CHANGES REQUESTED — S",
  examples: [
    'jst review ABC-2 --approve --summary "Clean, tested"',
    'jst review ABC-3 --request-changes --summary "Quote fields with commas" --body-file review.md --markdown',
  ],
  role: 'reviewer',
  json: 'flag',
  cli: false,
  fields: {
    key: { schema: (z) => issueKey(z), description: 'e.g. ABC-2' },
    verdict: { schema: (z) => z.enum(['approve', 'request-changes']) },
    ...VERDICT_FIELDS,
  },
  tool: {
    name: 'review_verdict',
    roles: ['reviewer'],
    title: 'Review verdict',
    description:
      'jst review KEY --approve|--request-changes --summary S --json: one review "APPROVED — S" or "CHANGES REQUESTED — S" on the pull request, the same report on the issue, a tally on the parent; changes requested moves the issue back to In Progress. A rerun with the same verdict posts nothing. The verdict is the person\'s: confirm it with them first.',
  },
  output: VERDICT_OUTPUT,
  effects: { readOnly: false, destructive: false, idempotent: true, openWorld: true },
  run: async (ctx, i, face) =>
    (await import('../../../phase/verdict.js')).reviewVerdictOutcome(ctx, face.role, {
      key: i.key,
      kind: i.verdict === 'approve' ? 'approved' : 'changes-requested',
      summary: i.summary,
      body: i.body,
      bodyFile: i.bodyFile,
      markdown: i.markdown,
    }),
});
