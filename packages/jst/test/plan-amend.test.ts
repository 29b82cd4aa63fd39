import { describe, expect, it } from 'vitest';
import { issuesNeverMade, planDifference } from '../src/plan/amend.js';
import type { JournalData, StepRecord } from '../src/plan/plan-journal.js';
import type { PlanInput } from '../src/plan/plan-types.js';
import { summaryProblem } from '../src/plan/precheck.js';

const PLAN: PlanInput = {
  request: 'r',
  summary: 'Parent',
  scope: 's',
  acceptanceCriteria: ['a'],
  priority: 'High',
  path: 'planned',
  steps: [
    { summary: 'One', scope: 's1', acceptanceCriteria: ['a1'] },
    { summary: 'Two', scope: 's2', acceptanceCriteria: ['a2'] },
  ],
};
const journal = (steps: Record<string, StepRecord>): JournalData => ({ runId: 'abc', planHash: 'h', startedAt: 't', plan: PLAN, steps });
const done = (key: string): StepRecord => ({ state: 'done', result: { key } });
const step = (i: number, change: Partial<PlanInput['steps'][number]>) => ({ ...PLAN, steps: PLAN.steps.map((s, j) => (j === i ? { ...s, ...change } : s)) });

describe('ARCHITECTURE §7: which corrected plan may finish an unfinished run', () => {
  it('before any issue is made, anything but the request may change', () => {
    expect(planDifference(journal({}), { ...PLAN, priority: 'Low', path: 'hotfix', steps: [] })).toBeNull();
    expect(planDifference(journal({}), { ...PLAN, request: 'other' })).toMatch(/"request" differs/);
  });

  it('once the parent is made, its fields, the priority, the path and having steps are fixed; steps not made are free', () => {
    const j = journal({ 'top:issue': done('ABC-1') });
    expect(planDifference(j, step(0, { summary: 'Changed' }))).toBeNull();
    expect(planDifference(j, { ...PLAN, steps: [...PLAN.steps, { summary: 'Three', scope: 's', acceptanceCriteria: ['x'] }] })).toBeNull();
    expect(planDifference(j, { ...PLAN, steps: [PLAN.steps[0]!] })).toBeNull();
    expect(planDifference(j, { ...PLAN, summary: 'Other' })).toMatch(/"summary" differs/);
    expect(planDifference(j, { ...PLAN, acceptanceCriteria: ['b'] })).toMatch(/"acceptanceCriteria" differs/);
    expect(planDifference(j, { ...PLAN, priority: 'Low' })).toMatch(/"priority" differs .*, and the top-level issue is already created with it$/);
    expect(planDifference(j, { ...PLAN, markdown: true })).toMatch(/"markdown" differs/);
    expect(planDifference(j, { ...PLAN, steps: [] })).toMatch(/every step was removed/);
  });

  it('a made sub-task keeps its place and fields; one the tracker refused (4xx) made nothing and may change', () => {
    const j = journal({ 'top:issue': done('ABC-1'), 'sub1:issue': done('ABC-2'), 'sub2:issue': { state: 'failed', error: '400', refused: true } });
    expect(planDifference(j, step(0, { scope: 'other' }))).toMatch(/"steps\[0\]\.scope" differs \(was "One"\)/);
    expect(planDifference(j, { ...PLAN, steps: [] })).toMatch(/every step was removed/);
    expect(planDifference(j, step(1, { summary: 'Two, one line' }))).toBeNull();
    // A create that failed another way (a timeout) may have landed: its fields are fixed.
    const timedOut = journal({ 'top:issue': done('ABC-1'), 'sub1:issue': done('ABC-2'), 'sub2:issue': { state: 'failed', error: 'timeout' } });
    expect(planDifference(timedOut, step(1, { summary: 'Changed' }))).toMatch(/"steps\[1\]\.summary" differs/);
  });

  it('a create cut off before it landed (no issue carries its marker) made nothing', async () => {
    const j = journal({ 'top:issue': done('ABC-1'), 'sub1:issue': { state: 'started' } });
    const asked: string[] = [];
    const absent = await issuesNeverMade(j, async (m) => {
      asked.push(m);
      return null;
    });
    expect(asked).toEqual(['jstabcsub1']);
    expect(planDifference(j, step(0, { summary: 'Changed' }), absent)).toBeNull();
    const landed = await issuesNeverMade(j, async () => 'ABC-2');
    expect(planDifference(j, step(0, { summary: 'Changed' }), landed)).toMatch(/"steps\[0\]\.summary" differs/);
  });
});

describe('ARCHITECTURE §7: a summary the tracker would refuse is named before anything is created', () => {
  it('line breaks, control characters and more than 255 characters; 255 and Unicode are fine', () => {
    expect(summaryProblem('a\nb')).toMatch(/line break/);
    expect(summaryProblem('a\rb')).toMatch(/line break/);
    expect(summaryProblem('a\tb')).toMatch(/U\+0009/);
    expect(summaryProblem('a\u0085b')).toMatch(/U\+0085/);
    expect(summaryProblem('x'.repeat(256))).toMatch(/256 characters long, more than the tracker's 255/);
    expect(summaryProblem('x'.repeat(255))).toBeNull();
    expect(summaryProblem('Crème brûlée 🍮 export')).toBeNull();
  });
});
