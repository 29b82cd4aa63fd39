import { REVIEW_BRIEF_OUTPUT } from '../../outputs.js';
import { usageError } from '../../../core/errors.js';
import { issueKey, VERDICT_FIELDS } from '../../fields.js';
import { defineCommand, field } from '../../define.js';
import { phaseHelp } from '../../phase-help.js';

const flag = (f: string, help: string) => field({ schema: (z) => z.optional(z.boolean()), cli: { flag: f, help }, tool: false });

/**
 * `jst review`: the brief, or with --approve / --request-changes the verdict (review/verdict/spec.ts),
 * or with --open-parent-pr the parent's pull request (review/parent-pr/spec.ts). Three tools, one CLI verb.
 */
export const reviewCommand = defineCommand({
  name: 'review',
  summary: 'the review brief (track, pull requests, your verdicts), or the verdict with --approve / --request-changes',
  help: phaseHelp(
    'reviewer',
    '1 refused (no open pull request, not in review, sub-task pull requests not merged) or the tracker / code host said no, 2 usage or configuration.\nA rerun with the same verdict posts nothing.',
  ),
  examples: [
    'jst review ABC-1',
    'jst review ABC-1 --open-parent-pr',
    'jst review ABC-2 --approve --summary "Clean, tested"',
    'jst review ABC-3 --request-changes --summary "Quote fields with commas" --body-file review.md --markdown',
  ],
  role: 'reviewer',
  json: 'flag',
  fields: {
    key: {
      schema: (z) => z.optional(issueKey(z)),
      description: 'e.g. ABC-1; default: the key in the branch of the worktree in cwd',
      cli: { arg: '[key]', help: "the issue (default: this worktree's)" },
    },
    openParentPr: flag('--open-parent-pr', "open the parent's pull request once every sub-task pull request is merged"),
    approve: flag('--approve', 'verdict: APPROVED — <summary>'),
    requestChanges: flag('--request-changes', 'verdict: CHANGES REQUESTED — <summary> (the issue goes back to STATUS_IN_PROGRESS)'),
    summary: { ...VERDICT_FIELDS.summary, schema: (z) => z.optional(z.string()), tool: false },
    bodyFile: VERDICT_FIELDS.bodyFile,
    markdown: { ...VERDICT_FIELDS.markdown, tool: false },
  },
  tool: {
    name: 'review_brief',
    roles: ['reviewer'],
    title: 'Review brief',
    description:
      'jst review [KEY] --json: the track, the pull requests to review with their states, and whether you already left a verdict. Without key: the issue of the worktree in cwd.',
  },
  output: REVIEW_BRIEF_OUTPUT,
  effects: { readOnly: true, destructive: false, idempotent: true, openWorld: true },
  run: async (ctx, i, face) => {
    const { key, summary } = i;
    const verdict = i.approve || i.requestChanges || summary !== undefined || i.bodyFile !== undefined || i.markdown;
    if (!verdict) return (await import('../../../phase/review-brief.js')).reviewBriefOutcome(ctx, face.role, { key, openParentPr: i.openParentPr });
    if (i.approve && i.requestChanges) throw usageError('give one verdict: --approve or --request-changes');
    if (!i.approve && !i.requestChanges) throw usageError('--summary, --body-file and --markdown go with a verdict: add --approve or --request-changes');
    if (!key || summary === undefined) throw usageError('a verdict needs the KEY and --summary S: jst review ABC-2 --approve --summary "…"');
    if (i.openParentPr) throw usageError('--open-parent-pr goes with the brief, not with a verdict');
    return (await import('../../../phase/verdict.js')).reviewVerdictOutcome(ctx, face.role, {
      key,
      kind: i.approve ? 'approved' : 'changes-requested',
      summary,
      bodyFile: i.bodyFile,
      markdown: i.markdown,
    });
  },
});
