import type { Schema, Z } from './define.js';

/**
 * The results' schemas (each command's `--json` value, each tool's structuredContent). Loose where
 * the value is the tracker's own JSON (it carries more than jst reads); exact where jst makes it.
 */
// One declarative table of every command's --json schema; split, it would only be harder to compare.
// eslint-disable-next-line max-lines-per-function
function build(z: Z) {
  const str = z.string();
  const strs = z.array(z.string());
  const nullable = <S extends Schema>(s: S) => z.nullable(s);

  /** The REST JSON of an issue (GET /issue/{key}), as `jst issue view --json` prints it. */
  const ISSUE_OUTPUT = z.looseObject({ id: str, key: str, fields: z.looseObject({}) });

  /** The short view of an issue (ARCHITECTURE §13 "Results sized for a model"). */
  const ISSUE_SUMMARY_OUTPUT = z.object({
    key: str,
    summary: str,
    status: str,
    type: str,
    assignee: nullable(str),
    parent: nullable(z.object({ key: str, summary: str })),
    subtasks: z.array(z.object({ key: str, summary: str, status: str })),
    markers: z.array(z.object({ id: str, line: str, author: str, created: nullable(str) })),
    verdict: nullable(
      z.object({ kind: z.enum(['approved', 'changes-requested']), line: str, summary: str, from: str, created: nullable(str), body: str, commentId: str }),
    ),
    comments: z.number(),
  });

  const SEARCH_ISSUE_SHORT = z.object({ key: str, summary: str, status: str, assignee: nullable(str), parent: nullable(str) });
  const SEARCH_OUTPUT = z.object({ issues: z.array(z.union([SEARCH_ISSUE_SHORT, z.looseObject({ key: str })])), nextPageToken: z.optional(str) });

  /** comment_list: each comment's full text, without its ADF (the CLI's --json is the REST JSON). */
  const COMMENT_LIST_OUTPUT = z.object({
    key: str,
    comments: z.array(z.object({ id: str, author: str, created: nullable(str), text: str })),
  });

  const HEALTH_OUTPUT = z.looseObject({ role: str, rows: z.array(z.looseObject({ name: str, status: str, detail: str })) });

  const PLAN_OUTPUT = z.object({
    keys: strs,
    branches: strs,
    worktrees: strs,
    report: str,
    handOff: strs,
    dryRun: z.boolean(),
    alreadyPlanned: z.boolean(),
    plannedAt: z.optional(str),
    abandoned: z.optional(z.boolean()),
    pushed: z.optional(strs),
  });

  const START_OUTPUT = z.looseObject({
    key: str,
    summary: str,
    type: str,
    status: str,
    previousStatus: str,
    transitioned: z.boolean(),
    branch: str,
    worktree: str,
    acceptanceCriteria: strs,
    warnings: strs,
    nextSteps: strs,
    verdict: nullable(z.looseObject({ kind: str, line: str, from: str, body: str })),
    taskMemory: z.array(z.object({ created: nullable(str), text: str })),
  });

  const NOTE_OUTPUT = z.object({ key: str, commentId: str, text: str });

  const PR_BASE_OUTPUT = z.object({ key: str, branch: str, base: str, source: str, tried: strs });

  const PR_OUTPUT = z.looseObject({
    key: str,
    branch: str,
    base: str,
    commits: z.number(),
    pullRequest: z.looseObject({ number: z.number(), url: str, state: str, created: z.boolean() }),
    status: str,
    transitioned: z.boolean(),
    warnings: strs,
    next: strs,
  });

  const PR_ENTRY = z.looseObject({ key: str, branch: str, base: str, number: nullable(z.number()), url: nullable(str), state: str });
  const REVIEW_BRIEF_OUTPUT = z.looseObject({
    key: str,
    summary: str,
    status: str,
    track: z.enum(['single-step', 'multistep']),
    prs: z.array(PR_ENTRY),
    parentPr: nullable(z.looseObject({ allMerged: z.boolean(), opened: z.boolean() })),
    warnings: strs,
    next: strs,
  });

  const VERDICT_OUTPUT = z.looseObject({
    key: str,
    verdict: str,
    pullRequest: z.looseObject({ number: z.number(), url: str }),
    rerun: z.boolean(),
    posted: z.looseObject({}),
    status: str,
    warnings: strs,
    next: strs,
  });

  const DONE_OUTPUT = z.looseObject({ moved: strs, alreadyDone: strs, declined: strs, status: str, warnings: strs, next: strs });

  /** What a refusal carries (the CLI's `--json` error), with the question when one is left open. */
  const ERROR_OUTPUT = z.object({
    error: z.object({ code: str, exitCode: z.number(), message: str, question: z.optional(str), command: z.optional(str) }),
  });
  return {
    ISSUE_OUTPUT,
    ISSUE_SUMMARY_OUTPUT,
    SEARCH_OUTPUT,
    COMMENT_LIST_OUTPUT,
    HEALTH_OUTPUT,
    PLAN_OUTPUT,
    START_OUTPUT,
    NOTE_OUTPUT,
    PR_BASE_OUTPUT,
    PR_OUTPUT,
    REVIEW_BRIEF_OUTPUT,
    VERDICT_OUTPUT,
    DONE_OUTPUT,
    ERROR_OUTPUT,
  };
}

let built: ReturnType<typeof build> | undefined;
/** The schemas are built once, by the first face that asks (the tool face; the CLI never does). */
const schemas = (z: Z) => (built ??= build(z));
export const ISSUE_OUTPUT = (z: Z): Schema => schemas(z).ISSUE_OUTPUT;
export const ISSUE_SUMMARY_OUTPUT = (z: Z): Schema => schemas(z).ISSUE_SUMMARY_OUTPUT;
export const SEARCH_OUTPUT = (z: Z): Schema => schemas(z).SEARCH_OUTPUT;
export const COMMENT_LIST_OUTPUT = (z: Z): Schema => schemas(z).COMMENT_LIST_OUTPUT;
export const HEALTH_OUTPUT = (z: Z): Schema => schemas(z).HEALTH_OUTPUT;
export const PLAN_OUTPUT = (z: Z): Schema => schemas(z).PLAN_OUTPUT;
export const START_OUTPUT = (z: Z): Schema => schemas(z).START_OUTPUT;
export const NOTE_OUTPUT = (z: Z): Schema => schemas(z).NOTE_OUTPUT;
export const PR_BASE_OUTPUT = (z: Z): Schema => schemas(z).PR_BASE_OUTPUT;
export const PR_OUTPUT = (z: Z): Schema => schemas(z).PR_OUTPUT;
export const REVIEW_BRIEF_OUTPUT = (z: Z): Schema => schemas(z).REVIEW_BRIEF_OUTPUT;
export const VERDICT_OUTPUT = (z: Z): Schema => schemas(z).VERDICT_OUTPUT;
export const DONE_OUTPUT = (z: Z): Schema => schemas(z).DONE_OUTPUT;
export const ERROR_OUTPUT = (z: Z): Schema => schemas(z).ERROR_OUTPUT;
