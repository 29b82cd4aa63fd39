import type { Draft, PlanInput, WorkItem } from './plan-file.js';
import { openQuestions, settle } from './plan-file.js';
import { matchPriority, type Priorities } from './priority.js';
import { summaryProblem } from './precheck.js';
import { needsAnswer, type Prompt } from '../core/terminal-prompt.js';

/** Sub-tasks of one plan at most (a longer list is a plan file's job). */
const MAX_STEPS = 20;

/**
 * spec §1 rule 5: ask until scope, acceptance criteria and priority are settled; the answers
 * become the issue description. Without a terminal (or with a plan file) an open question ends
 * the run with exit 3, naming every question still open.
 */
export async function clarify(draft: Draft, prompt: Prompt, priorities: Priorities): Promise<PlanInput> {
  if (!prompt.interactive) {
    const open = openQuestions(draft);
    if (open.length) {
      throw needsAnswer(open.map((q) => `${q.field}: ${q.question}`).join('; '), 'Put the answers in the plan file (--plan), or run jst plan on a terminal');
    }
    return settle(draft);
  }
  const d: Draft = { ...draft };
  // The tracker's rules for a summary, asked again at once rather than refused after every answer.
  const oneLine = { check: summaryProblem };
  d.summary ??= await prompt.ask('A one-line summary for the issue?', undefined, oneLine);
  d.scope ??= await prompt.ask('What is in scope (and what is not)?');
  if (!d.acceptanceCriteria?.length) d.acceptanceCriteria = await prompt.askList('What are the acceptance criteria?');
  if (d.priority === undefined) {
    const answer = await prompt.ask(`Priority (${priorities.names.join(', ')})?`, undefined, {
      default: priorities.default,
      check: (a) => (matchPriority(a, priorities) === null ? `one of ${priorities.names.join(', ')}` : null),
    });
    d.priority = matchPriority(answer, priorities)!;
  }
  if (d.path === undefined) {
    // spec §1 rule 7: urgency words in the request are not the signal; only this explicit answer is.
    const hotfix = await prompt.yesNo('Is this an emergency fix of production that must be cut from the production branch (a hotfix)?');
    d.path = hotfix ? 'hotfix' : 'planned';
  }
  if (d.path === 'planned' && d.steps === undefined) {
    const n = Number(
      await prompt.ask('Split into how many sub-tasks? (0 = a single issue)', undefined, {
        default: '0',
        check: (a) => (/^\d+$/.test(a) && Number(a) <= MAX_STEPS ? null : `a whole number from 0 to ${MAX_STEPS}`),
      }),
    );
    d.steps = Array.from({ length: n }, () => ({}));
  }
  const steps: WorkItem[] = [];
  for (const [i, s] of (d.steps ?? []).entries()) {
    steps.push({
      summary: s.summary ?? (await prompt.ask(`Sub-task ${i + 1}: a one-line summary?`, undefined, oneLine)),
      scope: s.scope ?? (await prompt.ask(`Sub-task ${i + 1}: what is in scope?`)),
      acceptanceCriteria: s.acceptanceCriteria?.length ? s.acceptanceCriteria : await prompt.askList(`Sub-task ${i + 1}: its acceptance criteria?`),
    });
  }
  return settle({ ...d, steps });
}
