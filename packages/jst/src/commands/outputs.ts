import * as z from 'zod/mini';

/**
 * The results' schemas (each command's `--json` value, each tool's structuredContent). Loose where
 * the value is the tracker's own JSON (it carries more than jst reads); exact where jst makes it.
 */
const str = z.string();
const strs = z.array(z.string());
const nullable = <S extends z.ZodMiniType>(s: S) => z.nullable(s);

/** The REST JSON of an issue (GET /issue/{key}), as `jst issue view --json` prints it. */
export const ISSUE_OUTPUT = z.looseObject({ id: str, key: str, fields: z.looseObject({}) });

/** The short view of an issue (ARCHITECTURE §13 "Results sized for a model"). */
export const ISSUE_SUMMARY_OUTPUT = z.object({
  key: str, summary: str, status: str, type: str, assignee: nullable(str),
  parent: nullable(z.object({ key: str, summary: str })),
  subtasks: z.array(z.object({ key: str, summary: str, status: str })),
  markers: z.array(z.object({ id: str, line: str, author: str, created: nullable(str) })),
  verdict: nullable(z.object({ kind: z.enum(['approved', 'changes-requested']), line: str, summary: str, from: str, created: nullable(str), body: str, commentId: str })),
  comments: z.number(),
});

const SEARCH_ISSUE_SHORT = z.object({ key: str, summary: str, status: str, assignee: nullable(str), parent: nullable(str) });
export const SEARCH_OUTPUT = z.object({ issues: z.array(z.union([SEARCH_ISSUE_SHORT, z.looseObject({ key: str })])), nextPageToken: z.optional(str) });

export const HEALTH_OUTPUT = z.looseObject({ role: str, rows: z.array(z.looseObject({ name: str, status: str, detail: str })) });

export const PLAN_OUTPUT = z.object({
  keys: strs, branches: strs, worktrees: strs, report: str, handOff: strs, dryRun: z.boolean(),
  alreadyPlanned: z.boolean(), plannedAt: z.optional(str),
});

export const START_OUTPUT = z.looseObject({
  key: str, summary: str, type: str, status: str, previousStatus: str, transitioned: z.boolean(),
  branch: str, worktree: str, acceptanceCriteria: strs, warnings: strs, nextSteps: strs,
  verdict: nullable(z.looseObject({ kind: str, line: str, from: str, body: str })),
  taskMemory: z.array(z.object({ created: nullable(str), text: str })),
});

export const NOTE_OUTPUT = z.object({ key: str, commentId: str, text: str });

export const PR_BASE_OUTPUT = z.object({ key: str, branch: str, base: str, source: str, tried: strs });

export const PR_OUTPUT = z.looseObject({
  key: str, branch: str, base: str, commits: z.number(),
  pullRequest: z.looseObject({ number: z.number(), url: str, state: str, created: z.boolean() }),
  status: str, transitioned: z.boolean(), warnings: strs, next: strs,
});

const PR_ENTRY = z.looseObject({ key: str, branch: str, base: str, number: nullable(z.number()), url: nullable(str), state: str });
export const REVIEW_BRIEF_OUTPUT = z.looseObject({
  key: str, summary: str, status: str, track: z.enum(['single-step', 'multistep']), prs: z.array(PR_ENTRY),
  parentPr: nullable(z.looseObject({ allMerged: z.boolean(), opened: z.boolean() })), warnings: strs, next: strs,
});

export const VERDICT_OUTPUT = z.looseObject({
  key: str, verdict: str, pullRequest: z.looseObject({ number: z.number(), url: str }), rerun: z.boolean(),
  posted: z.looseObject({}), status: str, warnings: strs, next: strs,
});

export const DONE_OUTPUT = z.looseObject({ moved: strs, alreadyDone: strs, declined: strs, status: str, warnings: strs, next: strs });

/** What a refusal carries (the CLI's `--json` error), with the question when one is left open. */
export const ERROR_OUTPUT = z.object({
  error: z.object({ code: str, exitCode: z.number(), message: str, question: z.optional(str), command: z.optional(str) }),
});
