import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJst } from '../support/jst-cli.js';
import { createIssue, startTestTracker, type TestTracker } from '../support/tracker.js';
import { MULTISTEP, SINGLE, planWorld, type PlanWorld } from './plan-fixture.js';

interface Planned {
  w: PlanWorld;
  keys: string[];
  branches: string[];
  worktrees: string[];
}

describe('jst start, end to end (phase 2 entry: spec §1 rules 9-13, §3, §4)', () => {
  let t: TestTracker;
  const ids: Record<string, string> = {};
  const worlds: PlanWorld[] = [];

  const start = (cwd: string, args: string[] = []) => runJst(['start', ...args], { cwd });
  const statusOf = async (key: string): Promise<string> => (await t.as('assigner').get(`/issue/${key}?fields=status`)).body.fields.status.name;
  const originBranches = (w: PlanWorld) =>
    w.git('--git-dir', w.repo.origin, 'for-each-ref', '--format=%(refname:short)', 'refs/heads').split('\n').filter(Boolean).sort();
  async function planned(plan: unknown): Promise<Planned> {
    const w = planWorld(t);
    worlds.push(w);
    const r = await w.plan(['--plan', w.planFile(plan), '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as Omit<Planned, 'w'>;
    return { w, keys: out.keys, branches: out.branches, worktrees: out.worktrees };
  }

  beforeAll(async () => {
    t = await startTestTracker('sqlite');
    for (const who of ['assigner', 'executor', 'reviewer'] as const) ids[who] = (await t.as(who).get('/myself')).body.accountId;
  });
  afterAll(async () => {
    for (const w of worlds) w.repo.cleanup();
    await t?.close();
  });

  describe('in a multistep plan', () => {
    let m: Planned;
    beforeAll(async () => {
      m = await planned(MULTISTEP);
    });

    it('spec §3 and §1 rules 10-12: a sub-task moves to In Progress, its PR base is the parent branch, its branch reaches origin with -u, the Assignment report is printed', async () => {
      const [parent, sub] = m.keys as [string, string];
      const [parentBranch, subBranch] = m.branches as [string, string];
      const wt = m.worktrees[1]!;
      expect(await statusOf(sub)).toBe('To Do');
      expect(m.w.originHas(subBranch)).toBe(false);

      const r = await start(wt);
      expect(r.code, r.stderr).toBe(0);
      // spec §3: STATUS_TODO → STATUS_IN_PROGRESS, confirmed by reading the issue again.
      expect(await statusOf(sub)).toBe('In Progress');
      expect(await statusOf(parent)).toBe('To Do');
      // spec §1 rule 11: the PR base comes from the sub-task's `PR target branch:` comment.
      expect(r.stdout).toContain(`PR base: ${parentBranch} (from the "PR target branch:" comment)`);
      expect(r.stdout).toContain(`Worktree: ${wt}`);
      // spec §1 rule 10: the sub-task branch first reaches origin in phase 2, with upstream set.
      expect(m.w.originHas(subBranch)).toBe(true);
      expect(m.w.git('-C', wt, 'rev-parse', '--abbrev-ref', '@{upstream}')).toBe(`origin/${subBranch}`);
      expect(r.stderr).toContain(`→ git push -u origin ${subBranch}`);
      // spec §1 rule 12: the Assignment report is found among the parent's comments.
      expect(r.stdout).toContain(`Assignment report (on ${parent}):`);
      expect(r.stdout).toContain(`Scope decision: multistep, parent ${parent} with 3 sub-tasks`);
      // The issue and its acceptance criteria (the bullet list under the heading).
      expect(r.stdout.split('\n')[0]).toBe(`${sub}  ${MULTISTEP.steps[0]!.summary}`);
      expect(r.stdout).toContain('Type: Subtask   Status: In Progress (was To Do)');
      expect(r.stdout).toContain('Acceptance criteria:\n  - RFC 4180 quoting\n');
      expect(r.stdout).toContain(`Commit, then open a pull request from ${subBranch} into ${parentBranch}, moving ${sub} to "In Review": jst pr`);
      expect(r.stdout).not.toContain('Warnings:');
    });

    it('spec §3: running start twice is fine (already In Progress: no transition, no second push), and --role executor is accepted', async () => {
      const [, sub] = m.keys as [string, string];
      const wt = m.worktrees[1]!;
      const before = originBranches(m.w);
      const r = await runJst(['--role', 'executor', 'start'], { cwd: wt });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain(`✓ ${sub} is already in "In Progress"`);
      expect(r.stderr).not.toContain('→ git push');
      expect(r.stdout).toContain('Type: Subtask   Status: In Progress\n');
      expect(await statusOf(sub)).toBe('In Progress');
      expect(originBranches(m.w)).toEqual(before);
      const again = await runJst(['start', '--role', 'executor'], { cwd: wt });
      expect(again.code, again.stderr).toBe(0);
    });

    it('ARCHITECTURE §11: on a parent (it has sub-tasks) start without --on-parent asks; not on a terminal that is exit 3, nothing moved or pushed', async () => {
      const [parent] = m.keys as [string];
      const before = originBranches(m.w);
      const r = await start(m.worktrees[0]!);
      expect(r.code).toBe(3);
      expect(r.stderr).toContain(`${parent} has sub-tasks`);
      expect(r.stderr).toContain('jst start --on-parent');
      expect(await statusOf(parent)).toBe('To Do');
      expect(originBranches(m.w)).toEqual(before);
    });

    it('spec §1 rule 10: in the parent worktree (confirmed with --on-parent) the PR base is development and nothing more is pushed', async () => {
      const [parent] = m.keys as [string];
      const before = originBranches(m.w);
      const r = await start(m.worktrees[0]!, ['--on-parent']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('PR base: development (from the "PR target branch:" comment)');
      expect(r.stderr).not.toContain('→ git push');
      expect(originBranches(m.w)).toEqual(before);
      expect(await statusOf(parent)).toBe('In Progress');
      // spec §1 rule 12: for the parent the report is its own comment.
      expect(r.stdout).toContain(`Assignment report (on ${parent}):`);
      expect(r.stdout).toContain('Acceptance criteria:\n  - A button downloads the rows as CSV\n  - Columns match the table\n');
    });

    it("ARCHITECTURE §11: start merges the branch's own origin (a parent's merged sub-task pull requests), then its parent", async () => {
      const pb = m.branches[0]!;
      // Someone else's work reaches origin/<parent branch> (as a merged sub-task pull request does).
      const tmp = join(m.w.repo.root, 'elsewhere');
      m.w.git('fetch', '--quiet', 'origin');
      m.w.git('worktree', 'add', '--quiet', '--detach', tmp, `origin/${pb}`);
      writeFileSync(join(tmp, 'merged-subtask.txt'), 'from a sub-task\n');
      m.w.git('-C', tmp, 'add', 'merged-subtask.txt');
      m.w.git('-C', tmp, '-c', 'user.name=Other', '-c', 'user.email=other@example.test', 'commit', '--quiet', '-m', 'a merged sub-task');
      const pushed = m.w.git('-C', tmp, 'rev-parse', 'HEAD');
      m.w.git('-C', tmp, 'push', '--quiet', 'origin', `HEAD:refs/heads/${pb}`);
      const r = await start(m.worktrees[0]!, ['--on-parent']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain(`→ git merge --no-edit origin/${pb}`);
      expect(m.w.git('-C', m.worktrees[0]!, 'merge-base', '--is-ancestor', pushed, 'HEAD')).toBe('');
      expect(m.w.git('-C', m.worktrees[0]!, 'rev-list', '--count', `HEAD..origin/${pb}`)).toBe('0');
    });

    it('--json prints one object with the issue, criteria, PR base, worktree, notes, report and next steps', async () => {
      const [parent, , sub2] = m.keys as [string, string, string];
      const [parentBranch, , branch2] = m.branches as [string, string, string];
      const r = await start(m.worktrees[2]!, ['--json', 'start with the happy path', 'then errors']);
      expect(r.code, r.stderr).toBe(0);
      const out = JSON.parse(r.stdout);
      expect(out).toMatchObject({
        key: sub2,
        summary: MULTISTEP.steps[1]!.summary,
        type: 'Subtask',
        status: 'In Progress',
        previousStatus: 'To Do',
        transitioned: true,
        parent: { key: parent, summary: MULTISTEP.summary },
        subtasks: [],
        branch: branch2,
        worktree: m.worktrees[2],
        base: { branch: parentBranch, source: 'comment', parentbranch: parentBranch },
        acceptanceCriteria: ['Content-Type text/csv'],
        notes: 'start with the happy path then errors',
        assignmentReport: { issue: parent },
        push: { pushed: true, wasOnOrigin: false, upstream: `origin/${branch2}` },
        warnings: [],
      });
      expect(out.assignmentReport.text.split('\n')[0]).toBe('Assignment report');
      expect(out.nextSteps).toContain(`Commit, then open a pull request from ${branch2} into ${parentBranch}, moving ${sub2} to "In Review": jst pr`);
      // Progress stays on stderr so stdout is the JSON alone.
      expect(r.stderr).toContain(`→ read ${sub2} with the executor's fields`);
      // ARCHITECTURE §11: the notes are saved as task memory, once: a rerun with the same words posts nothing.
      const memory = async () =>
        ((await t.as('assigner').get(`/issue/${sub2}/comment?maxResults=100`)).body.comments as { body: unknown }[])
          .map((c) => JSON.stringify(c.body))
          .filter((b) => b.includes('Task memory'));
      expect(await memory()).toHaveLength(1);
      expect((await memory())[0]).toContain('start with the happy path then errors');
      const again = JSON.parse((await start(m.worktrees[2]!, ['--json', 'start with the happy path', 'then errors'])).stdout);
      expect(again.taskMemory.map((x: { text: string }) => x.text)).toEqual(['start with the happy path then errors']);
      expect(await memory()).toHaveLength(1);
    });

    it('spec §1 rule 9 (and §4 client rule 8): refuses an issue not assigned to the executor, with exit 1 and no transition or push', async () => {
      const sub3 = m.keys[3]!;
      const wt = m.worktrees[3]!;
      expect((await t.as('assigner').put(`/issue/${sub3}/assignee`, { accountId: ids.reviewer })).status).toBe(204);
      const r = await start(wt);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`${sub3} is assigned to Rey Reviewer (accountId ${ids.reviewer}), not to the executor`);
      expect(r.stderr).toContain('spec §1 rule 9');
      expect(r.stdout).toBe('');
      expect(await statusOf(sub3)).toBe('To Do');
      expect(m.w.originHas(m.branches[3]!)).toBe(false);

      // Unassigned is refused the same way.
      expect((await t.as('assigner').put(`/issue/${sub3}/assignee`, { accountId: null })).status).toBe(204);
      const u = await start(wt);
      expect(u.code).toBe(1);
      expect(u.stderr).toContain(`${sub3} is assigned to nobody`);
      expect(await statusOf(sub3)).toBe('To Do');
    });

    it('spec §2 (names match literally) and §4 client rule 5: no transition to STATUS_IN_PROGRESS is a stop, exit 1, listing the reachable statuses, nothing changed', async () => {
      const sub3 = m.keys[3]!;
      const wt = m.worktrees[3]!;
      expect((await t.as('assigner').put(`/issue/${sub3}/assignee`, { accountId: ids.executor })).status).toBe(204);
      const team = join(wt, '.jst', 'team.env');
      writeFileSync(team, readFileSync(team, 'utf8').replace('STATUS_IN_PROGRESS=In Progress', 'STATUS_IN_PROGRESS=In progress'));
      const r = await start(wt);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`No transition of ${sub3} leads to "In progress"`);
      expect(r.stderr).toContain('reachable from here: "In Progress", "In Review", "Done"');
      expect(await statusOf(sub3)).toBe('To Do');
      expect(m.w.originHas(m.branches[3]!)).toBe(false);
    });
  });

  it('spec §1 rules 10-12: in a single-step worktree the PR base is development, the report is on the issue itself, nothing more is pushed', async () => {
    const s = await planned(SINGLE);
    const [key] = s.keys as [string];
    const before = originBranches(s.w);
    const r = await start(s.worktrees[0]!, ['--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.base).toEqual({ branch: 'development', source: 'comment', parentbranch: 'development' });
    expect(out.type).toBe('Task');
    expect(out.parent).toBeNull();
    expect(out.acceptanceCriteria).toEqual(SINGLE.acceptanceCriteria);
    expect(out.assignmentReport.issue).toBe(key);
    expect(out.push).toEqual({ pushed: false, wasOnOrigin: true, upstream: `origin/${s.branches[0]}` });
    expect(originBranches(s.w)).toEqual(before);
    expect(await statusOf(key)).toBe('In Progress');
  });

  it('spec §1 rule 11: without a PR target comment the base falls back to DEFAULT_BASE_BRANCH (said so), and a top-level branch missing on origin is pushed', async () => {
    // A worktree made by hand for an issue that phase 1 did not provision: no comments, no parentbranch.
    const s = await planned(SINGLE);
    const key = await createIssue(t, 'assigner', { summary: 'Hand made', assignee: { accountId: ids.executor } });
    const branch = `feature/${key}-hand-made`;
    const wt = join(s.w.repo.worktreesDir, `worktree-${key}`);
    s.w.git('worktree', 'add', '-b', branch, wt, 'development');
    cpSync(join(s.w.repo.repo, '.jst'), join(wt, '.jst'), { recursive: true });
    const r = await start(wt, ['--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.base).toEqual({ branch: 'development', source: 'default', parentbranch: null });
    expect(out.warnings.join('\n')).toContain('falls back to DEFAULT_BASE_BRANCH development');
    expect(out.warnings.join('\n')).toContain(`no "Assignment report" comment found on ${key}`);
    expect(r.stderr).toContain('falls back to DEFAULT_BASE_BRANCH development');
    expect(out.assignmentReport).toBeNull();
    expect(out.acceptanceCriteria).toEqual([]);
    expect(s.w.originHas(branch)).toBe(true);
    expect(await statusOf(key)).toBe('In Progress');
  });

  it('spec §1 rule 11: a parentbranch that differs from the comment is warned about', async () => {
    const s = await planned(SINGLE);
    s.w.git('config', `branch.${s.branches[0]}.parentbranch`, 'main');
    const r = await start(s.worktrees[0]!);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('PR base: development');
    expect(r.stderr).toContain(`differs from git config branch.${s.branches[0]}.parentbranch = main`);
  });

  describe('refusals before anything runs (exit 2)', () => {
    let s: Planned;
    beforeAll(async () => {
      s = await planned(SINGLE);
    });

    it('spec §1 rule 1: in the main checkout start refuses and names the worktree to cd into', async () => {
      const r = await start(s.w.repo.repo);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('is the main checkout');
      expect(r.stderr).toContain(`cd ${s.worktrees[0]} && jst start`);
      expect(await statusOf(s.keys[0]!)).toBe('To Do');
    });

    it('spec §1 rule 7: on a branch that is not feature/<KEY>-… or hotfix/<KEY>-…, or a detached HEAD, start refuses', async () => {
      const scratch = join(s.w.repo.worktreesDir, 'scratch');
      s.w.git('worktree', 'add', '-b', 'scratch-work', scratch, 'development');
      const r = await start(scratch);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('scratch-work is not an issue branch');
      const detached = join(s.w.repo.worktreesDir, 'detached');
      s.w.git('worktree', 'add', '--detach', detached, 'development');
      const d = await start(detached);
      expect(d.code).toBe(2);
      expect(d.stderr).toContain('HEAD is detached');
    });

    it("spec §1 rule 13: start is the executor's; any other --role is a usage error", async () => {
      for (const args of [
        ['start', '--role', 'assigner'],
        ['--role', 'reviewer', 'start'],
      ]) {
        const r = await runJst(args, { cwd: s.worktrees[0]! });
        expect(r.code).toBe(2);
        expect(r.stderr).toContain('jst start always runs as the executor');
      }
      expect(await statusOf(s.keys[0]!)).toBe('To Do');
    });
  });
});
