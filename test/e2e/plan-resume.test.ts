import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { walkText } from '@jst/adf';
import { startTestTracker, type TestTracker } from '../support/tracker.js';
import { planWorld } from './plan-fixture.js';

/**
 * Issue 6 "Safety": a run killed with SIGKILL after any journal write (before or after any step)
 * is finished by a rerun with no second issue, branch, worktree, comment or push.
 * JST_LONG=1 runs the three-sub-task plan (44 kill points) instead of the one-sub-task plan.
 */
const SUBTASKS = process.env.JST_LONG === '1' ? 3 : 1;

const planFor = (tag: string) => ({
  request: `Kill test ${tag}`,
  summary: `Resume ${tag} parent`,
  scope: 'scope',
  acceptanceCriteria: ['done'],
  priority: 'Medium',
  steps: Array.from({ length: SUBTASKS }, (_, i) => ({ summary: `Resume ${tag} step ${i + 1}`, scope: 's', acceptanceCriteria: ['ok'] })),
});

describe('ARCHITECTURE §7 journal: kill -9 between every pair of steps, then rerun', () => {
  let t: TestTracker;
  beforeAll(async () => {
    t = await startTestTracker('sqlite');
  });
  afterAll(async () => {
    await t?.close();
  });

  const texts = (c: any) => [...walkText(c.body)].join('\n');
  const search = async (jql: string) =>
    (await t.as('assigner').post('/search/jql', { jql, fields: ['summary', 'parent'], maxResults: 100 })).body.issues as any[];

  it(`every kill point of a multistep plan with ${SUBTASKS} sub-task(s) is finished by a rerun, nothing doubled`, async () => {
    const writes = 2 * (5 + 5 * SUBTASKS + 2);
    for (let at = 1; at <= writes; at++) {
      const tag = `kt${at}x${Date.now().toString(36)}`;
      const w = planWorld(t);
      const file = w.planFile(planFor(tag));
      const killed = await w.plan(['--plan', file], { JST_FAULT_KILL_AT: String(at) });
      expect(killed.code, `kill at ${at}: ${killed.stderr}`).not.toBe(0);
      expect(existsSync(join(w.repo.repo, '.jst', 'plan-journal.json')), `journal after kill at ${at}`).toBe(true);
      const rerun = await w.plan(['--plan', file, '--json']);
      expect(rerun.code, `rerun after kill at ${at}: ${rerun.stderr}`).toBe(0);
      const out = JSON.parse(rerun.stdout);

      // Issues: exactly one parent and one per step, whatever the kill point.
      const issues = await search(`project = ABC AND summary ~ "${tag}"`);
      expect(issues, `issues after kill at ${at}`).toHaveLength(1 + SUBTASKS);
      expect(new Set(out.keys).size).toBe(1 + SUBTASKS);
      // Branches and worktrees: one each, in place.
      const branches = w
        .git('branch', '--list', 'feature/*')
        .trim()
        .split('\n')
        .map((b) => b.replace(/^[*+ ]+/, ''));
      expect(branches.sort(), `branches after kill at ${at}`).toEqual([...out.branches].sort());
      expect(w.git('worktree', 'list').trim().split('\n')).toHaveLength(2 + SUBTASKS);
      expect(w.originHas(out.branches[0])).toBe(true);
      for (const b of out.branches.slice(1)) expect(w.originHas(b)).toBe(false);
      // Comments: one PR target comment per leaf, one report on the parent.
      for (const [i, key] of out.keys.entries()) {
        const cs = (await t.as('assigner').get(`/issue/${key}/comment`)).body.comments.map(texts);
        expect(
          cs.filter((c: string) => c.startsWith('PR target branch:')),
          `target comments on ${key}, kill at ${at}`,
        ).toHaveLength(1);
        expect(cs.filter((c: string) => c.startsWith('Assignment report'))).toHaveLength(i === 0 ? 1 : 0);
      }
      expect(existsSync(join(w.repo.repo, '.jst', 'plan-journal.json'))).toBe(false);
      w.repo.cleanup();
    }
  }, 600_000);

  it('an unfinished run for another request is a stop (exit 2), naming the journal', async () => {
    const w = planWorld(t);
    const killed = await w.plan(['--plan', w.planFile(planFor('other1'))], { JST_FAULT_KILL_AT: '3' });
    expect(killed.code).not.toBe(0);
    const r = await w.plan(['--plan', w.planFile(planFor('other2'))]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('plan-journal.json');
    // With no request at all, the recorded run is resumed.
    const resume = await w.plan(['--json']);
    expect(resume.code, resume.stderr).toBe(0);
    expect(resume.stderr).toMatch(/Resuming the unfinished plan run/);
    w.repo.cleanup();
  });
});
