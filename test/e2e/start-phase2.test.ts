import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJst } from '../support/jst-cli.js';
import { git } from '../support/repo.js';
import { startTestTracker, type TestTracker } from '../support/tracker.js';
import { MULTISTEP, SINGLE, planWorld, type PlanWorld } from './plan-fixture.js';

interface Planned {
  w: PlanWorld;
  keys: string[];
  branches: string[];
  worktrees: string[];
}

/** ARCHITECTURE §11 `jst start` additions: the stale-branch merge, its conflict, bootstrap, task memory. */
describe('jst start: the parent branch merged in, bootstrap (ARCHITECTURE §11)', () => {
  let t: TestTracker;
  const worlds: PlanWorld[] = [];
  const statusOf = async (key: string): Promise<string> => (await t.as('assigner').get(`/issue/${key}?fields=status`)).body.fields.status.name;
  const commit = (wt: string, file: string, text: string) => {
    writeFileSync(join(wt, file), text);
    git(wt, 'add', file);
    git(wt, 'commit', '--quiet', '-m', `edit ${file}`);
  };
  async function planned(plan: unknown): Promise<Planned> {
    const w = planWorld(t);
    worlds.push(w);
    const r = await w.plan(['--plan', w.planFile(plan), '--json']);
    expect(r.code, r.stderr).toBe(0);
    return { w, ...(JSON.parse(r.stdout) as Omit<Planned, 'w'>) };
  }

  beforeAll(async () => {
    t = await startTestTracker('sqlite');
  });
  afterAll(async () => {
    for (const w of worlds) w.repo.cleanup();
    await t?.close();
  });

  describe('with branch.<b>.parentbranch set', () => {
    let m: Planned;
    beforeAll(async () => {
      m = await planned({ ...MULTISTEP, steps: MULTISTEP.steps.slice(0, 2) });
    });

    it('a stale sub-task branch: git fetch origin, then origin/<parent> is merged in before anything else', async () => {
      const [, sub] = m.keys as [string, string];
      const [pb] = m.branches as [string];
      const [pw, sw] = m.worktrees as [string, string];
      commit(pw, 'shared.txt', 'from the parent\n');
      git(pw, 'push', '--quiet', 'origin', pb);
      const r = await runJst(['start', '--json'], { cwd: sw });
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).sync).toEqual({ parent: pb, ref: `origin/${pb}`, outcome: 'merged' });
      expect(r.stderr).toContain('→ git fetch origin');
      expect(readFileSync(join(sw, 'shared.txt'), 'utf8')).toBe('from the parent\n');
      expect(git(sw, 'merge-base', '--is-ancestor', `origin/${pb}`, 'HEAD')).toBe('');
      expect(await statusOf(sub)).toBe('In Progress');
    });

    it('a conflict aborts the merge, names the files and what to do, and changes nothing else (exit 1: no transition, no push)', async () => {
      const [, , sub] = m.keys as [string, string, string];
      const [pb, , sb] = m.branches as [string, string, string];
      const [pw, , sw] = m.worktrees as [string, string, string];
      commit(sw, 'clash.txt', "the sub-task's line\n");
      commit(pw, 'clash.txt', "the parent's line\n");
      git(pw, 'push', '--quiet', 'origin', pb);
      const head = git(sw, 'rev-parse', 'HEAD');
      const r = await runJst(['start'], { cwd: sw });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`merging origin/${pb} into ${sb} conflicts in clash.txt; the merge was aborted`);
      expect(r.stderr).toContain(`git merge origin/${pb}`);
      expect(r.stderr).toContain('→ git merge --abort');
      expect(git(sw, 'rev-parse', 'HEAD')).toBe(head);
      expect(git(sw, 'status', '--porcelain', '--', 'clash.txt')).toBe('');
      expect(existsSync(join(git(sw, 'rev-parse', '--git-dir'), 'MERGE_HEAD'))).toBe(false);
      expect(await statusOf(sub)).toBe('To Do');
      expect(m.w.originHas(sb)).toBe(false);
    });
  });

  it('a parent branch never pushed: the local ref is merged in', async () => {
    const m = await planned({ ...MULTISTEP, steps: MULTISTEP.steps.slice(0, 1) });
    const [pb, sb] = m.branches as [string, string];
    const [pw, sw] = m.worktrees as [string, string];
    git(m.w.repo.repo, 'push', '--quiet', 'origin', '--delete', pb);
    commit(pw, 'local-only.txt', 'not pushed\n');
    const r = await runJst(['start', '--json'], { cwd: sw });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).sync).toEqual({ parent: pb, ref: pb, outcome: 'merged' });
    expect(readFileSync(join(sw, 'local-only.txt'), 'utf8')).toBe('not pushed\n');
    expect(m.w.originHas(sb)).toBe(true);
  });

  it('with parentbranch unset it says the branch may be stale, and merges nothing', async () => {
    const s = await planned(SINGLE);
    git(s.w.repo.repo, 'config', '--unset', `branch.${s.branches[0]}.parentbranch`);
    const r = await runJst(['start', '--json'], { cwd: s.worktrees[0]! });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).sync).toBeNull();
    expect(r.stderr).toContain(`${s.branches[0]} may be stale`);
    expect(r.stderr).not.toContain('git merge');
  });

  it('.jst/bootstrap.sh runs from the worktree root with the five JST_* variables; its failure is reported, not fatal', async () => {
    const s = await planned(SINGLE);
    const wt = s.worktrees[0]!;
    writeFileSync(join(wt, '.jst', 'bootstrap.sh'), 'pwd > boot.out\nenv | grep ^JST_ | sort >> boot.out\necho booted\nexit 0\n');
    const r = await runJst(['start', '--json'], { cwd: wt });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).bootstrap).toMatchObject({ ok: true, exitCode: 0 });
    expect(r.stderr).toContain('booted');
    expect(readFileSync(join(wt, 'boot.out'), 'utf8').split('\n').filter(Boolean)).toEqual([
      wt,
      `JST_BRANCH=${s.branches[0]}`,
      `JST_ISSUE_KEY=${s.keys[0]}`,
      'JST_PARENT_BRANCH=development',
      'JST_PROJECT_KEY=ABC',
      `JST_WORKTREE_DIR=${wt}`,
    ]);

    writeFileSync(join(wt, '.jst', 'bootstrap.sh'), 'exit 7\n');
    const f = await runJst(['start', '--json'], { cwd: wt });
    expect(f.code, f.stderr).toBe(0);
    const out = JSON.parse(f.stdout);
    expect(out.bootstrap).toMatchObject({ ok: false, exitCode: 7 });
    expect(out.warnings.join('\n')).toContain('bootstrap.sh failed (exit 7)');
  });
});
