import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, healthWorld } from './healthcheck-fixture.js';
import { runJst } from '../../../test/support/jst-cli.js';
import { FIXTURE_GIT_ENV, copyJstDir } from '../../../test/support/repo.js';
import { worktreeAdd } from '../src/git/index.js';
import { formatReport, reportJson } from '../src/healthcheck/index.js';
import type { HealthReport } from '../src/healthcheck/types.js';

const world = healthWorld();
const contextOf = (report: HealthReport, name: string) => report.context?.find((r) => r.name === name);

describe('ARCHITECTURE §6: the context rows of the original status check (issue_key, parent_branch, working_tree), with --context', () => {
  it('main checkout on the base branch: issue_key and parent_branch do not apply (INFO); an untracked .jst/ makes the tree dirty (WARN)', async () => {
    const r = world.project();
    const report = await check(r.repo, 'assigner', { withContext: true });
    expect(contextOf(report, 'issue_key')).toEqual({
      name: 'issue_key',
      status: 'INFO',
      detail: 'does not apply: development is not an issue branch (feature/<KEY>-… or hotfix/<KEY>-…)',
    });
    expect(contextOf(report, 'parent_branch')).toEqual({ name: 'parent_branch', status: 'INFO', detail: 'does not apply: development is not an issue branch' });
    expect(contextOf(report, 'working_tree')).toMatchObject({ status: 'WARN', detail: 'dirty: 1 uncommitted change (git status)' });
  });

  it('working_tree is PASS "clean" once everything is committed or ignored', async () => {
    const r = world.project();
    r.git('add', '.jst/team.env', '.jst/.gitignore');
    r.git('commit', '-q', '-m', 'jst files');
    expect(contextOf(await check(r.repo, 'assigner', { withContext: true }), 'working_tree')).toEqual({
      name: 'working_tree',
      status: 'PASS',
      detail: 'clean',
    });
  });

  it("an issue worktree: issue_key is the branch's key, parent_branch the recorded one; unset parentbranch WARNs", async () => {
    const r = world.project();
    const wt = path.join(r.worktreesDir, 'worktree-ABC-7');
    await worktreeAdd(r.repo, wt, 'feature/ABC-7-rename', 'development', { env: FIXTURE_GIT_ENV });
    copyJstDir(r.repo, wt);
    const before = await check(wt, 'executor', { withContext: true });
    expect(contextOf(before, 'issue_key')).toMatchObject({ status: 'PASS', detail: expect.stringMatching(/^ABC-7 \(from the branch feature\/ABC-7-rename\)/) });
    expect(contextOf(before, 'parent_branch')).toMatchObject({
      status: 'WARN',
      detail: expect.stringMatching(/^unset: git config branch\.feature\/ABC-7-rename\.parentbranch is missing/),
    });
    r.git('config', 'branch.feature/ABC-7-rename.parentbranch', 'development');
    expect(contextOf(await check(wt, 'executor', { withContext: true }), 'parent_branch')).toMatchObject({
      status: 'PASS',
      detail: expect.stringMatching(/^development /),
    });
  });

  it('spec §1 rule 7: a branch carrying the key in lower case (feature/abc-7-x) is the worktree of ABC-7, as the code host links it', async () => {
    const r = world.project();
    const wt = path.join(r.worktreesDir, 'worktree-abc-7');
    await worktreeAdd(r.repo, wt, 'feature/abc-7-rename', 'development', { env: FIXTURE_GIT_ENV });
    copyJstDir(r.repo, wt);
    expect(contextOf(await check(wt, 'executor', { withContext: true }), 'issue_key')).toMatchObject({
      status: 'PASS',
      detail: expect.stringMatching(/^ABC-7 \(from the branch feature\/abc-7-rename\)/),
    });
  });

  it('without --context the report is exactly the ARCHITECTURE §6 rows (no context key, no INFO)', async () => {
    const r = world.project();
    const report = await check(r.repo, 'assigner');
    expect(report.context).toBeUndefined();
    expect(Object.keys(JSON.parse(reportJson(report)))).toEqual(['role', 'rows']);
    expect(formatReport(report, { color: false })).not.toMatch(/INFO|issue_key/);
  });

  it('the binary: --context prints the rows after the contract rows (text) and under "context" (JSON); the exit code ignores them', async () => {
    const r = world.project();
    const text = await runJst(['healthcheck', '--role', 'assigner', '--context'], { cwd: r.repo });
    expect(text.stdout).toMatch(
      /^platform .*\nissue_key\s+INFO\s+does not apply: development is not an issue branch.*\nparent_branch\s+INFO\s+.*\nworking_tree\s+WARN\s+dirty/m,
    );
    const json = await runJst(['healthcheck', '--role', 'assigner', '--context', '--json'], { cwd: r.repo });
    const parsed = JSON.parse(json.stdout);
    expect(parsed.rows).toHaveLength(9);
    expect(parsed.context.map((x: { name: string }) => x.name)).toEqual(['issue_key', 'parent_branch', 'working_tree', 'agents', 'sandbox']);
    expect(json.code).toBe(text.code);
  });
});
