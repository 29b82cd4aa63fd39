import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { walkText } from '@jst/adf';
import { startTestTracker, type TestTracker } from '../support/tracker.js';
import { MULTISTEP, SINGLE, planWorld } from './plan-fixture.js';

const texts = (body: unknown) => [...walkText(body)].join('\n');

describe('jst plan, end to end (spec §1 phase 1)', () => {
  let t: TestTracker;
  let ids: Record<string, string>;
  beforeAll(async () => {
    t = await startTestTracker('sqlite');
    ids = {};
    for (const who of ['assigner', 'executor'] as const) ids[who] = (await t.as(who).get('/myself')).body.accountId;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('multistep with three sub-tasks: issues, assignees, reporter, comments, branches, worktrees, config, origin', async () => {
    const w = planWorld(t);
    const r = await w.plan(['--plan', w.planFile(MULTISTEP), '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.keys).toHaveLength(4);
    const [parent, ...subs] = out.keys as string[];

    // spec §1 rule 9: assigner is creator and reporter, executor the assignee, on every issue.
    for (const key of out.keys) {
      const issue = (await t.as('assigner').get(`/issue/${key}?fields=creator,reporter,assignee,issuetype,parent,description`)).body;
      expect(issue.fields.creator.accountId).toBe(ids.assigner);
      expect(issue.fields.reporter.accountId).toBe(ids.assigner);
      expect(issue.fields.assignee.accountId).toBe(ids.executor);
      // spec §1 rule 5: the answers are in the description, headings and lists as ADF nodes.
      const types = issue.fields.description.content.map((n: any) => n.type);
      expect(types).toContain('heading');
      expect(types).toContain('bulletList');
      expect(texts(issue.fields.description)).toContain('Add CSV export to the reports page');
      if (key === parent) expect(issue.fields.issuetype.name).toBe('Task');
      else expect(issue.fields.parent.key).toBe(parent);
    }
    const p = (await t.as('assigner').get(`/issue/${parent}?fields=subtasks`)).body;
    expect(p.fields.subtasks.map((s: any) => s.key)).toEqual(subs);

    // spec §1 rule 10: branches, worktrees, parentbranch and gh-merge-base.
    const parentBranch = out.branches[0];
    expect(parentBranch).toBe(`feature/${parent}-csv-export-for-reports`);
    out.keys.forEach((key: string, i: number) => {
      const branch = out.branches[i];
      const wt = out.worktrees[i];
      expect(wt).toBe(join(w.repo.worktreesDir, `worktree-${key}`));
      expect(statSync(wt).isDirectory()).toBe(true);
      expect(w.git('-C', wt, 'rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe(branch);
      const target = i === 0 ? 'development' : parentBranch;
      expect(w.git('config', `branch.${branch}.parentbranch`).trim()).toBe(target);
      expect(w.git('config', `branch.${branch}.gh-merge-base`).trim()).toBe(target);
      // .jst/ copied, and local.env ignored there.
      expect(readFileSync(join(wt, '.jst', 'team.env'), 'utf8')).toContain('PROJECT_KEY=ABC');
      expect(existsSync(join(wt, '.jst', 'local.env'))).toBe(true);
      expect(w.git('-C', wt, 'status', '--porcelain', '--', '.jst').trim()).not.toContain('local.env');
    });
    // The only push is the top-level branch.
    expect(w.originHas(parentBranch)).toBe(true);
    for (const b of out.branches.slice(1)) expect(w.originHas(b)).toBe(false);
    expect(w.git('config', `branch.${parentBranch}.remote`).trim()).toBe('origin');

    // spec §1 rules 11-12: PR target comments and the Assignment report on the parent.
    for (const [i, key] of subs.entries()) {
      const cs = (await t.as('executor').get(`/issue/${key}/comment`)).body.comments.map((c: any) => texts(c.body));
      expect(cs).toEqual([`PR target branch: ${parentBranch} Worktree: ${out.worktrees[i + 1]}`]);
    }
    const pcs = (await t.as('executor').get(`/issue/${parent}/comment`)).body.comments.map((c: any) => texts(c.body));
    expect(pcs[0]).toBe(`PR target branch: development Worktree: ${out.worktrees[0]}`);
    expect(pcs[1].split('\n')[0]).toBe('Assignment report');
    expect(pcs[1]).toContain(`${t.url.replace('http://', 'http://')}/browse/${parent}`);
    expect(out.report.split('\n')[0]).toBe('Assignment report');
    // spec §1 rule 13: one executor line per worktree.
    expect(out.handOff).toEqual(out.worktrees.map((wt: string) => `cd ${wt} && jst start`));
    // The journal is gone once the run completed.
    expect(existsSync(join(w.repo.repo, '.jst', 'plan-journal.json'))).toBe(false);
    w.repo.cleanup();
  });

  it('single-step: one Task, feature branch off development, pushed, comment and report on it', async () => {
    const w = planWorld(t);
    const r = await w.plan(['--plan', w.planFile(SINGLE)]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('Assignment report');
    const key = /Issue (ABC-\d+)/.exec(r.stdout)![1]!;
    // ARCHITECTURE §7: stdout is the Assignment report, then one hand-off line per worktree, nothing else
    expect(r.stdout.endsWith(`\ncd ${join(w.repo.worktreesDir, `worktree-${key}`)} && jst start\n`)).toBe(true);
    expect(r.stdout.split('\n').filter((l) => /^cd .* && jst start$/.test(l))).toHaveLength(1);
    expect(r.stdout).not.toMatch(/^Hand-off/m);
    const branch = `feature/${key}-fix-login-page-typo`;
    expect(w.originHas(branch)).toBe(true);
    expect(w.git('config', `branch.${branch}.parentbranch`).trim()).toBe('development');
    const cs = (await t.as('assigner').get(`/issue/${key}/comment`)).body.comments.map((c: any) => texts(c.body));
    expect(cs[0]).toBe(`PR target branch: development Worktree: ${join(w.repo.worktreesDir, `worktree-${key}`)}`);
    expect(cs[1].startsWith('Assignment report')).toBe(true);
    expect(r.stderr).toContain('→ healthcheck --role assigner');
    w.repo.cleanup();
  });
});
