import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setting, without } from '../support/repo.js';
import { startTestTracker, type TestTracker } from '../support/tracker.js';
import { HOTFIX, MULTISTEP, SINGLE, planWorld, type PlanWorld } from './plan-fixture.js';

describe('jst plan gates and paths (spec §1 rules 1-8)', () => {
  let t: TestTracker;
  const worlds: PlanWorld[] = [];
  const world = (o?: Parameters<typeof planWorld>[1]) => {
    const w = planWorld(t, o);
    worlds.push(w);
    return w;
  };
  /** Nothing was created: no issue in ABC beyond what existed, no new branch, no worktree. */
  const issueCount = async () => (await t.as('assigner').post('/search/jql', { jql: 'project = ABC', maxResults: 5000 })).body.issues.length as number;
  const expectNothingCreated = async (w: PlanWorld, before: number) => {
    expect(await issueCount()).toBe(before);
    expect(w.git('branch', '--list', 'feature/*', 'hotfix/*').trim()).toBe('');
    expect(w.git('worktree', 'list').trim().split('\n')).toHaveLength(1);
  };
  beforeAll(async () => {
    t = await startTestTracker('sqlite');
  });
  afterAll(async () => {
    await t?.close();
    worlds.forEach((w) => w.repo.cleanup());
  });

  it('spec §1 rule 3: an empty request is asked for before anything runs (non-interactive: exit 3, no healthcheck)', async () => {
    const w = world();
    const r = await w.plan([]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/request/i);
    expect(r.stderr).not.toContain('healthcheck');
  });

  it('spec §1 rule 9: jst plan acts as the assigner; --role assigner is accepted, any other role is exit 2 with nothing created', async () => {
    const w = world();
    const before = await issueCount();
    for (const role of ['executor', 'reviewer']) {
      const r = await w.plan(['--role', role, '--plan', w.planFile(SINGLE)]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('jst plan always runs as the assigner');
    }
    await expectNothingCreated(w, before);
    expect((await w.plan(['--role', 'assigner', '--plan', w.planFile(SINGLE), '--dry-run'])).code).toBe(0);
  });

  it('spec §1 rule 1: it refuses inside a linked worktree (exit 2)', async () => {
    const w = world();
    const wt = join(w.repo.worktreesDir, 'side');
    w.git('worktree', 'add', '-b', 'side', wt, 'development');
    const { copyJstDir } = await import('../support/repo.js');
    copyJstDir(w.repo.repo, wt);
    const before = await issueCount();
    const { runJst } = await import('../support/jst-cli.js');
    const r = await runJst(['plan', '--plan', w.planFile(SINGLE)], { cwd: wt });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/main checkout/);
    expect(await issueCount()).toBe(before);
  });

  it('spec §1 rule 1: outside any git checkout it refuses (exit 2) and says so, not "detached HEAD"', async () => {
    const w = world();
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'jst-not-a-repo-'));
    try {
      const { copyJstDir } = await import('../support/repo.js');
      copyJstDir(w.repo.repo, dir);
      const before = await issueCount();
      const { runJst } = await import('../support/jst-cli.js');
      const r = await runJst(['plan', '--plan', w.planFile(SINGLE)], { cwd: dir });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/not inside a git checkout/);
      expect(r.stderr).not.toMatch(/detached/);
      expect(await issueCount()).toBe(before);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('spec §1 rule 2: on a feature/ or hotfix/ branch or a detached HEAD it refuses (exit 2)', async () => {
    for (const setup of [
      (w: PlanWorld) => w.git('checkout', '-q', '-b', 'feature/ABC-9-x'),
      (w: PlanWorld) => w.git('checkout', '-q', '-b', 'hotfix/ABC-9-y'),
      (w: PlanWorld) => w.git('checkout', '-q', '--detach'),
    ]) {
      const w = world();
      setup(w);
      const before = await issueCount();
      const r = await w.plan(['--plan', w.planFile(SINGLE)]);
      expect(r.code, r.stderr).toBe(2);
      expect(await issueCount()).toBe(before);
    }
  });

  it('spec §1 rule 2: on any other branch it asks (non-interactive: exit 3, also with --yes); --from-branch <it> proceeds from the base', async () => {
    const w = world();
    w.git('checkout', '-q', '-b', 'experiments');
    const before = await issueCount();
    const r = await w.plan(['--plan', w.planFile(SINGLE)]);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain('experiments');
    expect(r.stderr).toContain('--from-branch experiments');
    await expectNothingCreated(w, before);
    // issue 14 item 7: --yes skips only the final confirmation; it never accepts an unusual branch.
    const yes = await w.plan(['--plan', w.planFile(SINGLE), '--yes']);
    expect(yes.code, yes.stderr).toBe(3);
    await expectNothingCreated(w, before);
    const wrong = await w.plan(['--plan', w.planFile(SINGLE), '--from-branch', 'other']);
    expect(wrong.code, wrong.stderr).toBe(2);
    expect(wrong.stderr).toContain('--from-branch other does not name the current branch experiments');
    await expectNothingCreated(w, before);
    const ok = await w.plan(['--plan', w.planFile(SINGLE), '--from-branch', 'experiments', '--json']);
    expect(ok.code, ok.stderr).toBe(0);
    const out = JSON.parse(ok.stdout);
    expect(w.git('config', `branch.${out.branches[0]}.parentbranch`).trim()).toBe('development');
  });

  it('spec §1 rule 4: a missing worktrees folder is a stop and a question; the folder is never created', async () => {
    const w = world();
    rmSync(w.repo.worktreesDir, { recursive: true });
    const before = await issueCount();
    const r = await w.plan(['--plan', w.planFile(SINGLE)]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(w.repo.worktreesDir);
    await expectNothingCreated(w, before);
    const { existsSync } = await import('node:fs');
    expect(existsSync(w.repo.worktreesDir)).toBe(false);
    mkdirSync(w.repo.worktreesDir);
  });

  it('spec §1 rule 5: a plan file missing scope, acceptance criteria or priority ends with exit 3 naming them', async () => {
    const w = world();
    const before = await issueCount();
    const r = await w.plan(['--plan', w.planFile({ request: 'x', summary: 'y' })]);
    expect(r.code).toBe(3);
    for (const f of ['scope', 'acceptanceCriteria', 'priority']) expect(r.stderr).toContain(f);
    await expectNothingCreated(w, before);
  });

  it('spec §1 rule 6: hotfix and steps never mix (exit 2)', async () => {
    const w = world();
    const before = await issueCount();
    const r = await w.plan(['--plan', w.planFile({ ...MULTISTEP, path: 'hotfix' }), '--confirm-hotfix']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/never mix/);
    await expectNothingCreated(w, before);
  });

  it('spec §1 rule 7: urgency words in the request are not the hotfix signal', async () => {
    const w = world();
    const r = await w.plan(['--plan', w.planFile({ ...SINGLE, request: 'URGENT asap blocking: fix the typo', summary: 'Urgent typo fix' }), '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).branches[0]).toMatch(/^feature\//);
  });

  it('spec §1 rule 7: the hotfix path without an explicit yes creates nothing (exit 3)', async () => {
    const w = world();
    const before = await issueCount();
    const r = await w.plan(['--plan', w.planFile(HOTFIX)]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/hotfix/i);
    await expectNothingCreated(w, before);
  });

  it('spec §1 rules 7, 8, 10, 11, 12: hotfix confirmed: cut from origin/main, no pull, parentbranch main, comment confirmed, report says it must reach development', async () => {
    const w = world();
    // origin/main moves ahead of the local main: the hotfix must start from the fetched remote ref.
    const { git } = await import('../support/repo.js');
    const other = join(w.repo.root, 'other');
    git(w.repo.root, 'clone', '-q', '-b', 'main', w.repo.origin, other);
    git(other, '-c', 'user.name=x', '-c', 'user.email=x@x', 'commit', '-q', '--allow-empty', '-m', 'prod fix before');
    git(other, 'push', '-q', 'origin', 'main');
    const remoteMain = git(other, 'rev-parse', 'HEAD').trim();
    const r = await w.plan(['--plan', w.planFile(HOTFIX), '--confirm-hotfix', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    const [key] = out.keys;
    expect(out.branches[0]).toBe(`hotfix/${key}-fix-checkout-crash`);
    expect(w.git('rev-parse', out.branches[0]).trim()).toBe(remoteMain);
    expect(w.git('config', `branch.${out.branches[0]}.parentbranch`).trim()).toBe('main');
    expect(w.originHas(out.branches[0])).toBe(true);
    expect(r.stderr).not.toContain('git pull');
    expect(out.report).toMatch(/must still reach the default base branch development/);
    const cs = (await t.as('assigner').get(`/issue/${key}/comment`)).body.comments;
    expect(cs).toHaveLength(2);
  });

  it('spec §1 rule 7: the hotfix path stops when production_branch reads unset', async () => {
    const w = world({ team: without('PRODUCTION_BRANCH') });
    const before = await issueCount();
    const r = await w.plan(['--plan', w.planFile(HOTFIX), '--confirm-hotfix']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/PRODUCTION_BRANCH is unset/);
    await expectNothingCreated(w, before);
  });

  it('spec §1 rule 7: on the production branch, planned work stops (exit 2); a confirmed hotfix goes ahead', async () => {
    const w = world();
    w.git('checkout', '-q', 'main');
    const before = await issueCount();
    const r = await w.plan(['--plan', w.planFile(SINGLE)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/production branch/);
    await expectNothingCreated(w, before);
    const h = await w.plan(['--plan', w.planFile(HOTFIX), '--confirm-hotfix', '--json']);
    expect(h.code, h.stderr).toBe(0);
  });

  it('spec §1 rule 8: a pull that fails on real divergence is put to the user (non-interactive: exit 3)', async () => {
    const w = world();
    const { git } = await import('../support/repo.js');
    const other = join(w.repo.root, 'other');
    git(w.repo.root, 'clone', '-q', '-b', 'development', w.repo.origin, other);
    git(other, '-c', 'user.name=x', '-c', 'user.email=x@x', 'commit', '-q', '--allow-empty', '-m', 'theirs');
    git(other, 'push', '-q', 'origin', 'development');
    w.git('-c', 'user.name=x', '-c', 'user.email=x@x', 'commit', '-q', '--allow-empty', '-m', 'ours');
    const before = await issueCount();
    const r = await w.plan(['--plan', w.planFile(SINGLE)]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/diverged/);
    await expectNothingCreated(w, before);
  });

  it('healthcheck FAIL rows stop the plan before anything (branch_pair, relative WORKTREES_DIR)', async () => {
    for (const o of [{ team: setting('PRODUCTION_BRANCH', 'development') }, { local: setting('WORKTREES_DIR', 'relative/dir') }]) {
      const w = world(o);
      const before = await issueCount();
      const r = await w.plan(['--plan', w.planFile(SINGLE)]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/FAIL/);
      await expectNothingCreated(w, before);
    }
  });

  it('configured status names must exist literally in the workflow (In progress ≠ In Progress)', async () => {
    const w = world({ team: setting('STATUS_IN_PROGRESS', 'In progress') });
    const before = await issueCount();
    const r = await w.plan(['--plan', w.planFile(SINGLE)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('"In progress"');
    await expectNothingCreated(w, before);
  });

  it('--dry-run prints every call and git command and changes nothing', async () => {
    const w = world();
    const before = await issueCount();
    const head = w.git('rev-parse', 'origin/development').trim();
    const r = await w.plan(['--plan', w.planFile(MULTISTEP), '--dry-run']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/POST .*\/issue {2}Task "CSV export for reports"/);
    expect(r.stderr).toMatch(/git -C .* worktree add -b feature\/ABC-<new 1>-csv-export-for-reports/);
    expect(r.stderr).toMatch(/git -C .* push -u origin feature\//);
    expect(r.stderr).toMatch(/config branch\..*\.parentbranch development/);
    expect(r.stderr.match(/POST .*\/comment/g)).toHaveLength(5);
    await expectNothingCreated(w, before);
    expect(w.git('rev-parse', 'origin/development').trim()).toBe(head);
  });

  it('spec §1 rule 10: a branch on origin with the same slug but another key is no collision (whole names are compared)', async () => {
    const w = world();
    w.git('push', '-q', 'origin', 'development:feature/ABC-77-fix-login-page-typo');
    const r = await w.plan(['--plan', w.planFile(SINGLE), '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).branches[0]).toMatch(/^feature\/ABC-\d+-fix-login-page-typo$/);
    expect(JSON.parse(r.stdout).branches[0]).not.toBe('feature/ABC-77-fix-login-page-typo');
  });
});
