import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codehostOf, jstOnly, type EmbeddedCodehost, type RequestTap } from '../support/embedded-codehost.js';
import { runJst, type CliResult } from '../support/jst-cli.js';
import { copyJstDir, git } from '../support/repo.js';
import { testSeed, withCodehost } from '../support/seed.js';
import { createIssue, startTestTracker, type TestTracker } from '../support/tracker.js';
import { MULTISTEP, planWorld, type PlanWorld } from './plan-fixture.js';

const REPO = 'acme/widgets';

/**
 * ARCHITECTURE §11, issue 13 must-show 2: every refusal of pr, review and done leaves the tracker,
 * git (origin's refs) and the code host unchanged (its pull requests, reviews and comments read
 * back through REST; no write call reached it), with the exit code of the contract. origin is on
 * the tracker's embedded code host (ARCHITECTURE §14), no CODEHOST_REPO.
 */
describe('phases 2-3 refusals change nothing (ARCHITECTURE §11)', () => {
  let t: TestTracker;
  let ch: EmbeddedCodehost;
  let tap: RequestTap;
  let w: PlanWorld;
  let keys: string[];
  let worktrees: string[];
  const ids: Record<string, string> = {};

  const jst = (cwd: string, args: string[], env?: Record<string, string>): Promise<CliResult> => runJst(args, { cwd, ...(env ? { env } : {}) });
  const statusOf = async (key: string): Promise<string> => (await t.as('assigner').get(`/issue/${key}?fields=status`)).body.fields.status.name;
  const commit = (wt: string, file: string) => {
    writeFileSync(join(wt, file), `${file}\n`);
    git(wt, 'add', file);
    git(wt, 'commit', '--quiet', '-m', file);
  };
  /** Everything a refusal must leave as it was. */
  const snapshot = async () => ({
    statuses: await Promise.all(keys.map(statusOf)),
    comments: await Promise.all(keys.map(async (k) => (await t.as('assigner').get(`/issue/${k}/comment`)).body.total as number)),
    origin: git(w.repo.origin, 'for-each-ref', '--format=%(refname) %(objectname)'),
    codehostWrites: tap.requests.filter((r) => r.method !== 'GET').length,
    pulls: await ch.pulls(REPO),
  });
  async function refused(cwd: string, args: string[], code: number, says: string | RegExp, env?: Record<string, string>): Promise<CliResult> {
    const before = await snapshot();
    const r = await jst(cwd, args, env);
    expect(r.code, r.stderr).toBe(code);
    expect(r.stderr).toMatch(says);
    expect(await snapshot()).toEqual(before);
    return r;
  }

  beforeAll(async () => {
    t = await startTestTracker('sqlite', withCodehost(testSeed()));
    ch = codehostOf(t);
    tap = ch.tap(jstOnly);
    for (const who of ['executor'] as const) ids[who] = (await t.as(who).get('/myself')).body.accountId;
    w = planWorld(t, { codehost: ch });
    const r = await w.plan(['--plan', w.planFile({ ...MULTISTEP, steps: MULTISTEP.steps.slice(0, 2) }), '--json']);
    expect(r.code, r.stderr).toBe(0);
    ({ keys, worktrees } = JSON.parse(r.stdout));
    expect((await jst(worktrees[1]!, ['start'])).code).toBe(0);
  });
  afterAll(async () => {
    tap?.stop();
    w?.repo.cleanup();
    await t?.close();
  });

  it('every phase 2-3 command has --help with examples, its role and its exit codes', async () => {
    for (const [cmd, role] of [
      ['pr-base', 'executor'],
      ['note', 'executor'],
      ['pr', 'executor'],
      ['review', 'reviewer'],
      ['done', 'reviewer'],
    ]) {
      const r = await jst(w.repo.repo, [cmd!, '--help']);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`Examples:\n  $ jst ${cmd}`);
      expect(r.stdout).toContain(`Runs as the ${role}`);
      expect(r.stdout).toContain('Exit codes: 0 done');
      expect(r.stdout).toContain('--json');
    }
  });

  it('jst pr outside an issue worktree: exit 2', async () => {
    await refused(w.repo.repo, ['pr'], 2, /runs in an issue's worktree/);
  });

  it('jst pr with no commits beyond the base: exit 1, nothing pushed or posted', async () => {
    await refused(worktrees[1]!, ['pr'], 1, /has no commits beyond feature\/ABC-1/);
  });

  it('jst pr on a dirty work tree: exit 1, naming the files, and never says the tree is clean', async () => {
    commit(worktrees[1]!, 'a.txt');
    writeFileSync(join(worktrees[1]!, 'a.txt'), 'changed\n');
    const r = await refused(worktrees[1]!, ['pr'], 1, /uncommitted changes: a\.txt/);
    expect(r.stderr).not.toContain('work tree is clean');
    git(worktrees[1]!, 'checkout', '--', 'a.txt');
  });

  it('jst pr on a parent branch (an issue with sub-tasks): exit 1, naming jst review KEY --open-parent-pr', async () => {
    commit(worktrees[0]!, 'p.txt');
    const r = await refused(
      worktrees[0]!,
      ['pr'],
      1,
      new RegExp(`${keys[0]} has sub-tasks \\(${keys[1]}, ${keys[2]}\\): its pull request is opened by the reviewer`),
    );
    expect(r.stderr).toContain(`jst review ${keys[0]} --open-parent-pr`);
  });

  it('jst pr on an issue not started (To Do): exit 1', async () => {
    commit(worktrees[2]!, 'b.txt');
    await refused(worktrees[2]!, ['pr'], 1, /is in "To Do".*Run jst start first/s);
  });

  it('jst pr with the code host left unset says plainly what it needs: exit 2, --json code "config"', async () => {
    const r = await refused(worktrees[1]!, ['pr', '--json'], 2, /CODEHOST_PAT_TOKEN is set but empty.*CODEHOST_API_URL.*CODEHOST_REPO/s, {
      CODEHOST_PAT_TOKEN: '',
    });
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'config', exitCode: 2 });
  });

  it('the code host says no (401): exit 1, --json code "unauthorized", the token never printed', async () => {
    const wrong = 'github_pat_wrong_55aa77';
    const r = await refused(worktrees[1]!, ['pr', '--json'], 1, /answered HTTP 401/, { CODEHOST_PAT_TOKEN: wrong });
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'unauthorized', exitCode: 1 });
    expect(r.stdout + r.stderr).not.toContain(wrong);
  });

  it('a verdict on an issue with no pull request: exit 1', async () => {
    await refused(w.repo.repo, ['review', keys[2]!, '--approve', '--summary', 'x'], 1, /has no open pull request/);
  });

  it('--open-parent-pr before every sub-task pull request is merged: exit 1, nothing opened', async () => {
    await refused(w.repo.repo, ['review', keys[0]!, '--open-parent-pr'], 1, /waits for every sub-task pull request to be merged/);
  });

  it('verdict usage: both verdicts, or no summary: exit 2', async () => {
    await refused(w.repo.repo, ['review', keys[1]!, '--approve', '--request-changes', '--summary', 'x'], 2, /give one verdict/);
    await refused(w.repo.repo, ['review', keys[1]!, '--approve'], 2, /needs the KEY and --summary/);
  });

  it('the roles are fixed: --role reviewer pr and --role executor done are usage errors', async () => {
    await refused(worktrees[1]!, ['--role', 'reviewer', 'pr'], 2, /jst pr always runs as the executor/);
    await refused(w.repo.repo, ['done', keys[1]!, '--role', 'executor'], 2, /jst done always runs as the reviewer/);
  });

  it('done refuses an issue not in review, then one in review with no approval, and a missing yes is exit 3', async () => {
    const [, a] = keys as [string, string];
    await refused(w.repo.repo, ['done', a, '--yes', a], 1, /is in "In Progress", not "In Review"/);
    expect((await jst(worktrees[1]!, ['pr'])).code).toBe(0);
    await refused(w.repo.repo, ['done', a, '--yes', a], 1, /has no verdict, not "APPROVED — …"/);
    expect((await jst(w.repo.repo, ['review', a, '--approve', '--summary', 'ok'])).code).toBe(0);
    await refused(w.repo.repo, ['done', a], 3, /a question needs an answer: Move .* to "Done"\?.*--yes/s);
    // A --yes that repeats none of the keys is named, with the one expected; keys are taken in any case.
    const stray = await refused(w.repo.repo, ['done', a.toLowerCase(), '--yes', keys[2]!.toLowerCase()], 3, new RegExp(`Move ${a} to "Done"\\?`));
    expect(stray.stderr).toContain(`--yes ${keys[2]} names no key given to jst done (expected --yes ${a})`);
    // One refused key stops the whole run before any key moves.
    await refused(w.repo.repo, ['done', a, keys[2]!, '--yes', a, keys[2]!], 1, /is in "To Do"/);
    expect(await statusOf(a)).toBe('In Review');
  });

  it('a verdict on work no longer in review (sent back) is refused: exit 1', async () => {
    const [, a] = keys as [string, string];
    // The key in any case: abc-2 is ABC-2.
    const sent = await jst(w.repo.repo, ['review', a.toLowerCase(), '--request-changes', '--summary', 'again', '--json']);
    expect(sent.code, sent.stderr).toBe(0);
    expect(JSON.parse(sent.stdout)).toMatchObject({ key: a, status: 'In Progress' });
    expect(await statusOf(a)).toBe('In Progress');
    await refused(w.repo.repo, ['review', a, '--approve', '--summary', 'fine now'], 1, /is in "In Progress", not "In Review"/);
  });

  describe('jst pr-base: the order of ARCHITECTURE §11', () => {
    it('parentbranch first; without it the PR target comment', async () => {
      const wt = worktrees[1]!;
      const branch = git(wt, 'branch', '--show-current');
      expect((await jst(wt, ['pr-base'])).stdout).toBe('feature/ABC-1-csv-export-for-reports\tparentbranch\n');
      git(wt, 'config', '--unset', `branch.${branch}.parentbranch`);
      const r = await jst(wt, ['pr-base', '--json']);
      expect(JSON.parse(r.stdout)).toMatchObject({ base: 'feature/ABC-1-csv-export-for-reports', source: 'pr-target-comment' });
      git(wt, 'config', `branch.${branch}.parentbranch`, 'feature/ABC-1-csv-export-for-reports');
    });

    it("a hand-made sub-task: the parent's one branch; a top-level issue: DEFAULT_BASE_BRANCH; a sub-task whose parent has no branch: exit 1 listing what was tried", async () => {
      const hand = async (fields: Record<string, unknown>) => {
        const key = await createIssue(t, 'assigner', { assignee: { accountId: ids.executor }, ...fields });
        const wt = join(w.repo.worktreesDir, `hand-${key}`);
        git(w.repo.repo, 'worktree', 'add', '--quiet', '-b', `feature/${key}-hand`, wt, 'development');
        copyJstDir(w.repo.repo, wt);
        return { key, wt };
      };
      const sub = await hand({ issuetype: { name: 'Subtask' }, parent: { key: keys[0] } });
      expect((await jst(sub.wt, ['pr-base'])).stdout).toBe('feature/ABC-1-csv-export-for-reports\tparent-branch\n');
      const top = await hand({ summary: 'Top level' });
      expect((await jst(top.wt, ['pr-base'])).stdout).toBe('development\tdefault-base-branch\n');
      const orphanParent = await createIssue(t, 'assigner', { summary: 'No branch' });
      const orphan = await hand({ issuetype: { name: 'Subtask' }, parent: { key: orphanParent } });
      const r = await jst(orphan.wt, ['pr-base', '--json']);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('could not be resolved; tried: git config branch.');
      expect(r.stderr).toContain(`the branch of the parent ${orphanParent} (local or on origin): none`);
      expect(r.stderr).toContain('DEFAULT_BASE_BRANCH: used for a top-level issue only');
      expect(JSON.parse(r.stdout).error.code).toBe('refused');
    });
  });
});
