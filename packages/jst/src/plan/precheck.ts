import { join } from 'node:path';
import { textToAdf } from '@jst/adf';
import { TrackerHttpError, type TrackerClient } from '@jst/client';
import { TRACKER_SUMMARY_MAX, TRACKER_TEXT_FIELD_MAX } from '../core/limits.js';
import { issueDescription } from './description.js';
import { SUBTASK_TYPE, TASK_TYPE, type PlanInput, type WorkItem } from './plan-types.js';
import { refused } from '../core/terminal-prompt.js';
import { assignmentReport } from './report.js';
import { featureBranch, hotfixBranch } from './slug.js';

/** A control character (C0, DEL, C1): a summary is one line of plain text. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const NUL = '\u0000';

const codePoint = (c: string) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * What is wrong with a summary for the tracker (null = nothing): a line break (the tracker's 400
 * "contains newline characters"), any other control character, or more than the tracker's 255
 * characters (counted as the tracker counts them, UTF-16 code units).
 */
export function summaryProblem(summary: string): string | null {
  const bad = CONTROL.exec(summary)?.[0];
  if (bad === '\n' || bad === '\r') return 'it contains a line break, and the tracker refuses a summary with newline characters: a summary is one line';
  if (bad !== undefined) return `it contains the control character ${codePoint(bad)}: a summary is one line of plain text`;
  if (summary.length > TRACKER_SUMMARY_MAX) return `it is ${summary.length} characters long, more than the tracker's ${TRACKER_SUMMARY_MAX}`;
  return null;
}

/** The plan file's name for an item's field: `summary` for the top level, `steps[1].summary` for a step. */
const key = (step: number | null, field: string) => (step === null ? field : `steps[${step}].${field}`);
const shown = (s: string) => JSON.stringify(s.length > 60 ? `${s.slice(0, 60)}…` : s);

/** Stands in for the keys, run id and paths a real run learns only as it creates them: longer than any real one. */
const placeholderKey = (project: string, n: number) => `${project}-${String(99_999_990 + n)}`;
const PLACEHOLDER_MARKER = `jst${'0'.repeat(12)}sub9999`;

/**
 * ARCHITECTURE §7 "every check that can fail runs before the first issue is created": what the
 * tracker would refuse in the plan's own text is refused here, exit 2, naming the step, its field
 * and the rule, so a run never stops halfway on a 400 it could have foreseen.
 */
export function checkPlanText(plan: PlanInput, o: { project: string; worktreesDir: string; siteUrl: string }): void {
  const items: { step: number | null; item: WorkItem; role: 'single' | 'parent' | 'subtask' }[] = [
    { step: null, item: plan, role: plan.steps.length ? 'parent' : 'single' },
    ...plan.steps.map((item, i) => ({ step: i, item, role: 'subtask' as const })),
  ];
  const nulIn = (field: string, text: string) => {
    if (text.includes(NUL))
      throw refused(
        `"${field}" in the plan contains a NUL character (U+0000), which the tracker refuses in any field; nothing was created`,
        'Remove it from the plan and rerun',
      );
  };
  nulIn('request', plan.request);
  nulIn('priority', plan.priority);
  for (const { step, item, role } of items) {
    const problem = summaryProblem(item.summary);
    if (problem !== null) {
      throw refused(
        `"${key(step, 'summary')}" ${shown(item.summary)} cannot be an issue summary: ${problem}; nothing was created`,
        `Fix "${key(step, 'summary')}" in the plan (a longer text belongs in "scope") and rerun`,
      );
    }
    nulIn(key(step, 'scope'), item.scope);
    item.acceptanceCriteria.forEach((c, i) => nulIn(`${key(step, 'acceptanceCriteria')}[${i}]`, c));
    const size = JSON.stringify(issueDescription(plan, item, role, PLACEHOLDER_MARKER)).length;
    if (size > TRACKER_TEXT_FIELD_MAX) {
      throw refused(
        `the description of ${step === null ? 'the top-level issue' : `steps[${step}]`} ${shown(item.summary)} would be ${size} characters of ADF, more than the tracker's ${TRACKER_TEXT_FIELD_MAX} (it holds the request, "${key(step, 'scope')}", "${key(step, 'acceptanceCriteria')}"${role === 'parent' ? " and every step's summary" : ''}); nothing was created`,
        'Shorten those texts in the plan, or split the work into more steps, then rerun',
      );
    }
  }
  checkReportSize(plan, o);
}

/** spec §1 rule 12: the Assignment report is one comment, so it too must fit the tracker's text limit. */
function checkReportSize(plan: PlanInput, o: { project: string; worktreesDir: string; siteUrl: string }): void {
  const hotfix = plan.path === 'hotfix';
  const leaves = [plan, ...plan.steps].map((item, i) => {
    const k = placeholderKey(o.project, i);
    const branch = hotfix ? hotfixBranch(k, item.summary) : featureBranch(k, item.summary);
    return {
      key: k,
      summary: item.summary,
      branch,
      worktree: join(o.worktreesDir, `worktree-${k}`),
      prTarget: branch,
      role: i === 0 ? (plan.steps.length ? ('parent' as const) : ('single' as const)) : ('subtask' as const),
    };
  });
  const report = assignmentReport({ plan, leaves, siteUrl: o.siteUrl, base: 'x'.repeat(40), defaultBase: 'x'.repeat(40), production: 'x'.repeat(40) });
  const size = JSON.stringify(textToAdf(report)).length;
  if (size > TRACKER_TEXT_FIELD_MAX) {
    throw refused(
      `the Assignment report of this plan would be about ${size} characters of ADF, more than the tracker's ${TRACKER_TEXT_FIELD_MAX} for one comment (${plan.steps.length} steps); nothing was created`,
      'Plan fewer steps in one run (or shorter summaries), then rerun',
    );
  }
}

/**
 * The issue types this plan creates must be ones the assigner may create in the project, read from
 * the tracker's create metadata (GET /issue/createmeta/{project}/issuetypes) before anything is
 * created. A tracker that does not serve that list (404) is not asked again: the create answers.
 */
export async function issueTypesGate(client: TrackerClient, project: string, multistep: boolean): Promise<void> {
  let names: string[];
  try {
    const page = await client.call<{ issueTypes?: { name?: unknown }[] }>('GET', `/issue/createmeta/${encodeURIComponent(project)}/issuetypes?maxResults=100`);
    names = (page.issueTypes ?? []).map((t) => t.name).filter((n): n is string => typeof n === 'string');
  } catch (e) {
    if (e instanceof TrackerHttpError && e.status === 404) return;
    throw e;
  }
  const needed = multistep ? [TASK_TYPE, SUBTASK_TYPE] : [TASK_TYPE];
  const missing = needed.filter((n) => !names.some((t) => t.toLowerCase() === n.toLowerCase()));
  if (missing.length) {
    throw refused(
      `the assigner may not create issues of type ${missing.map((n) => `"${n}"`).join(' and ')} in ${project} (the tracker's create metadata lists ${names.length ? names.map((n) => `"${n}"`).join(', ') : 'none'}); nothing was created`,
      `jst plan creates a "${TASK_TYPE}"${multistep ? ` and a "${SUBTASK_TYPE}" per step` : ''}: give the assigner account the right to create them in ${project} (or plan without steps), then rerun`,
    );
  }
}
