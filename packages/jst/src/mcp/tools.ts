import { z } from 'zod';
import { doneOutcome } from '../commands/done.js';
import { healthcheckOutcome } from '../commands/healthcheck.js';
import { noteOutcome } from '../commands/note.js';
import { prBaseOutcome } from '../commands/pr-base.js';
import { prOutcome } from '../commands/pr.js';
import { issueViewOutcome, searchOutcome } from '../commands/read.js';
import { reviewBriefOutcome } from '../commands/review.js';
import { startOutcome } from '../commands/start.js';
import { reviewVerdictOutcome } from '../commands/verdict.js';
import { JstError, type Role } from '../config/index.js';
import type { Context } from '../context.js';
import * as git from '../git/index.js';
import type { Outcome } from '../output.js';
import { planOutcome } from '../plan/run.js';
import { issueKeyFromBranch } from '../phase/handover.js';

/**
 * The tools of `jst mcp` (ARCHITECTURE §13): each is a name, the roles that see it, an input
 * schema mirroring the CLI's options in camelCase, and a call of the same command function the
 * CLI calls. No rule lives here; only the translation of arguments.
 */
export interface ToolSpec {
  name: string;
  roles: readonly Role[];
  title: string;
  description: string;
  readOnly: boolean;
  input: z.ZodRawShape;
  run(ctx: Context, role: Role, args: Record<string, unknown>): Promise<Outcome>;
}

const ALL: readonly Role[] = ['assigner', 'executor', 'reviewer'];

/** Every tool takes `cwd` (ARCHITECTURE §13): a folder of the server's repository or one of its worktrees. */
export const CWD = z.string().optional().describe('Working folder for this call (default: the server\'s): a folder of the same repository or one of its worktrees');

/** `--markdown`: the text is CommonMark, stored as ADF nodes; without it the text stays literal (spec §2). */
const MARKDOWN = z.boolean().optional().describe('read the text as Markdown (CommonMark + tables, strikethrough); default: literal text');

const fields = z.union([z.string(), z.array(z.string())]).optional();
const list = (v: unknown) => (Array.isArray(v) ? v.join(',') : typeof v === 'string' ? v : undefined);

/** The plan-file object of ARCHITECTURE §7; the command itself checks it (unknown keys, open questions). */
const item = { summary: z.string().optional(), scope: z.string().optional(), acceptanceCriteria: z.union([z.string(), z.array(z.string())]).optional() };
const PLAN = z.looseObject({
  request: z.string().optional().describe('what the person asked for'),
  ...item,
  priority: z.string().optional().describe('e.g. Highest, High, Medium, Low'),
  path: z.enum(['planned', 'hotfix']).optional(),
  steps: z.array(z.looseObject(item)).optional().describe('present and non-empty = multistep (a parent and one sub-task per step)'),
}).describe('The plan-file object (jst plan --plan FILE): request, summary, scope, acceptanceCriteria, priority, path, steps');

/** issue_view without a key: the issue of the worktree's branch, read as `jst start` reads it. */
async function currentKey(ctx: Context): Promise<string> {
  const branch = await git.currentBranch(ctx.cwd, { env: ctx.env }).catch(() => null);
  const parsed = branch ? issueKeyFromBranch(branch) : null;
  if (!parsed) {
    throw new JstError({
      code: 'MCP_NO_KEY',
      problem: `no key was given and ${branch ? `the branch ${branch} is not an issue branch (feature/<KEY>-… or hotfix/<KEY>-…)` : `${ctx.cwd} is on no branch`}`,
      hint: 'Pass key, or set cwd to the issue\'s worktree',
    });
  }
  return parsed.key;
}

export const TOOLS: readonly ToolSpec[] = [
  {
    name: 'healthcheck', roles: ALL, readOnly: true, title: 'Status check',
    description: 'jst healthcheck --role <this role> --json: configuration, logins, branches, platform (ARCHITECTURE §6). isError when a row FAILs.',
    input: {},
    run: (ctx, role) => healthcheckOutcome(ctx, role),
  },
  {
    name: 'issue_view', roles: ALL, readOnly: true, title: 'View an issue',
    description: 'jst issue view KEY --json as this role. Without key: the issue of the current worktree\'s branch. fields: a comma list or array, or the presets executor | reviewer.',
    input: { key: z.string().optional().describe('e.g. ABC-1; default: the key in the worktree\'s branch'), fields },
    run: async (ctx, role, a) => issueViewOutcome(ctx, role, typeof a.key === 'string' && a.key ? a.key : await currentKey(ctx), { fields: list(a.fields) }),
  },
  {
    name: 'search', roles: ALL, readOnly: true, title: 'Search issues (JQL)',
    description: 'jst search JQL --json as this role: POST /search/jql; all follows nextPageToken to the end.',
    input: {
      jql: z.string().describe('e.g. assignee = currentUser() AND status = "To Do"'),
      fields: fields.describe('default key,summary,status'),
      max: z.number().int().positive().optional().describe('page size (default 50)'),
      all: z.boolean().optional(),
    },
    run: (ctx, role, a) => searchOutcome(ctx, role, a.jql as string, { fields: list(a.fields), max: a.max === undefined ? undefined : String(a.max), all: a.all === true }),
  },
  {
    name: 'plan', roles: ['assigner'], readOnly: false, title: 'Phase 1: plan',
    description: 'jst plan --plan FILE --json with the plan-file object: creates the issues, branches, worktrees and comments. Open questions come back as an error listing them; the person\'s decisions (an unusual start branch, a missing worktrees folder, a diverged base, the hotfix yes) are asked through elicitation. Sends one progress notification per step.',
    input: { plan: PLAN },
    run: (ctx, _role, a) => planOutcome(ctx, { request: [], planData: a.plan }),
  },
  {
    name: 'plan_dry_run', roles: ['assigner'], readOnly: true, title: 'Phase 1: dry run',
    description: 'jst plan --plan FILE --dry-run --json: every check runs, every call and git command is printed (as progress), nothing is created.',
    input: { plan: PLAN },
    run: (ctx, _role, a) => planOutcome(ctx, { request: [], planData: a.plan, dryRun: true }),
  },
  {
    name: 'start', roles: ['executor'], readOnly: false, title: 'Phase 2: start work',
    description: 'jst start --json in the issue\'s worktree (set cwd to it): the key from the branch, the parent branch merged in, the issue to In Progress, the branch on origin, the PR base, the acceptance criteria and earlier task memory. On a parent (an issue with sub-tasks) the person is asked first (elicitation); onParent is their yes given beforehand (--on-parent).',
    input: {
      notes: z.union([z.string(), z.array(z.string())]).optional().describe('free-form notes for this piece of work'),
      onParent: z.boolean().optional().describe('the person\'s explicit yes to work on a parent issue itself (--on-parent)'),
    },
    run: (ctx, _role, a) => startOutcome(ctx, { notes: Array.isArray(a.notes) ? a.notes.map(String) : typeof a.notes === 'string' ? [a.notes] : [], onParent: a.onParent === true, json: true }),
  },
  {
    name: 'note', roles: ['executor'], readOnly: false, title: 'Task memory',
    description: 'jst note TEXT --json in the issue\'s worktree: a "Task memory" comment on its issue, printed again by the next start.',
    input: { text: z.string().describe('the note'), markdown: MARKDOWN },
    run: (ctx, _role, a) => noteOutcome(ctx, { words: [a.text as string], markdown: a.markdown === true }),
  },
  {
    name: 'pr_base', roles: ['executor'], readOnly: true, title: 'PR base',
    description: 'jst pr-base --json in the issue\'s worktree: the base of its pull request and where it came from (an error lists what was tried).',
    input: {},
    run: (ctx) => prBaseOutcome(ctx),
  },
  {
    name: 'pr', roles: ['executor'], readOnly: false, title: 'Open the pull request',
    description: 'jst pr --json in the issue\'s worktree: refuses a dirty tree or no commits; pushes, opens (or finds) the pull request into pr_base, moves the issue to In Review, posts the Run report. Sends one progress notification per step.',
    input: {
      title: z.string().optional().describe('default "<KEY>: <summary>"'),
      body: z.string().optional().describe('the pull request body (also added to the Run report)'),
      markdown: MARKDOWN,
      draft: z.boolean().optional(),
    },
    run: (ctx, _role, a) => prOutcome(ctx, { title: a.title as string | undefined, body: a.body as string | undefined, markdown: a.markdown === true, draft: a.draft === true }),
  },
  {
    name: 'review_brief', roles: ['reviewer'], readOnly: true, title: 'Review brief',
    description: 'jst review [KEY] --json: the track, the pull requests to review with their states, and whether you already left a verdict. Without key: the issue of the worktree in cwd.',
    input: { key: z.string().optional().describe('e.g. ABC-1; default: the key in the worktree\'s branch') },
    run: (ctx, _role, a) => reviewBriefOutcome(ctx, { key: a.key as string | undefined }),
  },
  {
    name: 'review_verdict', roles: ['reviewer'], readOnly: false, title: 'Review verdict',
    description: 'jst review KEY --approve|--request-changes --summary S --json: one review "APPROVED — S" or "CHANGES REQUESTED — S" on the pull request, the same report on the issue, a tally on the parent; changes requested moves the issue back to In Progress. A rerun with the same verdict posts nothing. The verdict is the person\'s: confirm it with them first.',
    input: {
      key: z.string().describe('e.g. ABC-2'),
      verdict: z.enum(['approve', 'request-changes']),
      summary: z.string().describe('one line: the verdict\'s first line after the dash'),
      body: z.string().optional().describe('the rest of the review'),
      markdown: MARKDOWN,
    },
    run: (ctx, _role, a) => reviewVerdictOutcome(ctx, { key: a.key as string, kind: a.verdict === 'approve' ? 'approved' : 'changes-requested', summary: a.summary as string, body: a.body as string | undefined, markdown: a.markdown === true }),
  },
  {
    name: 'done', roles: ['reviewer'], readOnly: false, title: 'Done',
    description: 'jst done KEY… --json: approved issues in review move to Done, each only after the person\'s explicit yes for that key, asked through elicitation; a client without elicitation gets the question back and nothing moves.',
    input: { keys: z.array(z.string()).min(1).describe('the issues, e.g. ["ABC-2"]') },
    run: (ctx, _role, a) => doneOutcome(ctx, { keys: a.keys as string[] }),
  },
];

export function toolsOf(role: Role): ToolSpec[] {
  return TOOLS.filter((t) => t.roles.includes(role));
}
