import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, healthWorld, rowOf } from './healthcheck-fixture.js';
import { CODEHOST_TOKEN, FIXTURE_GIT_ENV, copyJstDir, setting, without, writeJstFiles } from '../../../test/support/repo.js';
import { TOKENS } from '../../../test/support/seed.js';
import { loadConfig } from '../src/config/index.js';
import { worktreeAdd } from '../src/git/index.js';
import { exitCodeOf } from '../src/healthcheck/index.js';

const world = healthWorld();
const project = world.project;

describe('spec §2: worktree row never FAILs', () => {
  it('main checkout: PASS "main checkout"', async () => {
    const r = project();
    expect(rowOf(await check(r.repo), 'worktree')).toEqual({ name: 'worktree', status: 'PASS', detail: 'main checkout' });
  });

  it('linked worktree (git worktree add): PASS naming the main checkout', async () => {
    const r = project();
    const wt = path.join(r.worktreesDir, 'worktree-ABC-1');
    await worktreeAdd(r.repo, wt, 'feature/ABC-1-x', 'development', { env: FIXTURE_GIT_ENV });
    copyJstDir(r.repo, wt);
    const report = await check(wt, 'executor');
    expect(rowOf(report, 'worktree')).toEqual({ name: 'worktree', status: 'PASS', detail: `linked worktree of ${r.repo}` });
    expect(rowOf(report, 'branch').detail).toBe('feature/ABC-1-x');
    expect(rowOf(report, 'env_config').status).toBe('PASS');
  });

  it('outside any git checkout: WARN, still not FAIL', async () => {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'jst-nogit-')));
    world.cleanup(() => fs.rmSync(dir, { recursive: true, force: true }));
    const worktree = rowOf(await check(dir), 'worktree');
    expect(worktree.status).toBe('WARN');
  });
});

describe('spec §2: worktrees_dir FAILs only when relative, WARNs when missing', () => {
  it('an existing absolute folder: PASS with the path', async () => {
    const r = project();
    expect(rowOf(await check(r.repo), 'worktrees_dir')).toMatchObject({ status: 'PASS', detail: r.worktreesDir });
  });

  it('relative path: FAIL, and the check exits 1', async () => {
    const r = project({ local: setting('WORKTREES_DIR', '../worktrees') });
    const report = await check(r.repo);
    expect(rowOf(report, 'worktrees_dir').status).toBe('FAIL');
    expect(rowOf(report, 'worktrees_dir').detail).toMatch(/"\.\.\/worktrees".*relative.*absolute/);
    expect(exitCodeOf(report)).toBe(1);
  });

  it('absolute but missing: WARN, and the folder is not created', async () => {
    const r = project();
    const missing = path.join(r.root, 'not-yet');
    writeJstFiles(r.repo, { trackerUrl: world.tracker().url, codehostUrl: world.codehost().api, worktreesDir: missing });
    const report = await check(r.repo);
    expect(rowOf(report, 'worktrees_dir')).toMatchObject({ status: 'WARN' });
    expect(rowOf(report, 'worktrees_dir').detail).toContain(`${missing} (from`);
    expect(fs.existsSync(missing)).toBe(false);
    expect(exitCodeOf(report)).toBe(0);
  });

  it('unset: WARN naming local.env (env_config does not FAIL for it)', async () => {
    const r = project({ local: without('WORKTREES_DIR') });
    const report = await check(r.repo);
    expect(rowOf(report, 'worktrees_dir')).toMatchObject({ status: 'WARN' });
    expect(rowOf(report, 'worktrees_dir').detail).toContain(path.join(r.repo, '.jst', 'local.env'));
    expect(rowOf(report, 'env_config').status).toBe('PASS');
  });
});

describe('ARCHITECTURE §6: branch row is the current branch or detached', () => {
  it('on a branch: PASS with its name', async () => {
    const r = project();
    expect(rowOf(await check(r.repo), 'branch')).toMatchObject({ status: 'PASS', detail: 'development' });
    r.git('checkout', '--quiet', 'main');
    expect(rowOf(await check(r.repo), 'branch')).toMatchObject({ status: 'PASS', detail: 'main' });
  });

  it('detached HEAD: WARN "detached"', async () => {
    const r = project();
    r.git('checkout', '--quiet', '--detach');
    expect(rowOf(await check(r.repo), 'branch')).toEqual({ name: 'branch', status: 'WARN', detail: 'detached' });
  });
});

describe('spec §2: production_branch may read unset; branch_pair FAILs when base equals production', () => {
  it('both set and distinct: PASS "main" and "development → main"', async () => {
    const report = await check(project().repo);
    expect(rowOf(report, 'production_branch')).toMatchObject({ status: 'PASS', detail: 'main' });
    expect(rowOf(report, 'branch_pair')).toMatchObject({ status: 'PASS', detail: 'development → main' });
  });

  it('ARCHITECTURE §10: an empty PRODUCTION_BRANCH in the environment overrides team.env: unset, and the row says where it came from', async () => {
    const r = project();
    const report = await check(r.repo, 'assigner', { config: loadConfig({ cwd: r.repo, env: { PRODUCTION_BRANCH: '' } }) });
    expect(rowOf(report, 'production_branch')).toEqual({ name: 'production_branch', status: 'WARN', detail: 'unset' });
    expect(rowOf(report, 'branch_pair')).toMatchObject({
      status: 'WARN',
      detail: 'development → unset (PRODUCTION_BRANCH is set but empty in the environment)',
    });
  });

  it('PRODUCTION_BRANCH unset: production_branch WARN "unset" (never a guessed name), branch_pair WARN', async () => {
    const r = project({ team: without('PRODUCTION_BRANCH') });
    const report = await check(r.repo);
    expect(rowOf(report, 'production_branch')).toEqual({ name: 'production_branch', status: 'WARN', detail: 'unset' });
    expect(rowOf(report, 'branch_pair').status).toBe('WARN');
    expect(rowOf(report, 'branch_pair').detail).toMatch(/^development → unset/);
    expect(exitCodeOf(report)).toBe(0);
  });

  it('base equals production: branch_pair FAIL (and only that row owns the verdict)', async () => {
    const r = project({ team: setting('PRODUCTION_BRANCH', 'development') });
    const report = await check(r.repo);
    expect(rowOf(report, 'branch_pair').status).toBe('FAIL');
    expect(rowOf(report, 'branch_pair').detail).toContain('both "development"');
    expect(rowOf(report, 'env_config').status).toBe('PASS');
    expect(exitCodeOf(report)).toBe(1);
  });
});

describe('spec §2: env_config — both files valid, local.env ignored, the role’s settings present', () => {
  it('a complete configuration: PASS', async () => {
    expect(rowOf(await check(project().repo), 'env_config').status).toBe('PASS');
  });

  it('local.env not ignored by git: FAIL naming the file and the ignore file', async () => {
    const r = project({ gitignore: null });
    const row = rowOf(await check(r.repo), 'env_config');
    expect(row.status).toBe('FAIL');
    expect(row.detail).toContain(`${path.join(r.repo, '.jst', 'local.env')} is not ignored by git`);
    expect(row.detail).toContain(path.join(r.repo, '.jst', '.gitignore'));
  });

  it('local.env committed before the ignore rule: FAIL telling to untrack it', async () => {
    const r = project({ gitignore: null });
    r.git('add', '.jst/local.env');
    r.git('commit', '--quiet', '-m', 'leak');
    fs.writeFileSync(path.join(r.repo, '.jst', '.gitignore'), 'local.env\n');
    const row = rowOf(await check(r.repo), 'env_config');
    expect(row.status).toBe('FAIL');
    expect(row.detail).toContain('git rm --cached');
  });

  it('the role’s token missing: FAIL naming setting and file; tracker_login says "no credential"', async () => {
    const r = project({ local: without('TRACKER_EXECUTOR_TOKEN') });
    const report = await check(r.repo, 'executor');
    const row = rowOf(report, 'env_config');
    expect(row.status).toBe('FAIL');
    expect(row.detail).toContain(`TRACKER_EXECUTOR_TOKEN is not set in ${path.join(r.repo, '.jst', 'local.env')}`);
    expect(rowOf(report, 'tracker_login')).toMatchObject({ status: 'FAIL' });
    expect(rowOf(report, 'tracker_login').detail).toMatch(/^no credential/);
  });

  it('a token that is a file path: FAIL naming file:line and setting, without echoing the value', async () => {
    const tokenFile = '/home/someone/.secrets/assigner-token.txt';
    const r = project({ local: setting('TRACKER_ASSIGNER_TOKEN', tokenFile) });
    const report = await check(r.repo);
    const row = rowOf(report, 'env_config');
    expect(row.status).toBe('FAIL');
    expect(row.detail).toMatch(/TRACKER_ASSIGNER_TOKEN \(from .*local\.env:\d+\) holds a file path, not a token/);
    expect(rowOf(report, 'tracker_login').detail).toMatch(/^no credential/);
    expect(JSON.stringify(report)).not.toContain(tokenFile);
  });

  it('team.env missing: FAIL naming it', async () => {
    const r = project({ team: () => null });
    const row = rowOf(await check(r.repo), 'env_config');
    expect(row.status).toBe('FAIL');
    expect(row.detail).toContain(`${path.join(r.repo, '.jst', 'team.env')} is missing`);
  });

  it('a worktree without a copy of .jst/: FAIL (spec §2: .jst/ must be copied into each worktree)', async () => {
    const r = project();
    const wt = path.join(r.worktreesDir, 'worktree-ABC-2');
    await worktreeAdd(r.repo, wt, 'feature/ABC-2-y', 'development', { env: FIXTURE_GIT_ENV });
    const report = await check(wt, 'executor');
    expect(rowOf(report, 'env_config').status).toBe('FAIL');
    expect(rowOf(report, 'env_config').detail).toContain('no .jst/ folder found');
    expect(rowOf(report, 'worktree').status).toBe('PASS');
  });

  it('an unknown setting on an otherwise valid configuration: WARN with a suggestion', async () => {
    const r = project({ local: (lines) => [...lines, 'TRACKER_ASIGNER_EMAIL=a@b.test'] });
    const row = rowOf(await check(r.repo), 'env_config');
    expect(row.status).toBe('WARN');
    expect(row.detail).toContain('did you mean TRACKER_ASSIGNER_EMAIL?');
  });

  it('no token of any role appears in the report, even when several rows FAIL', async () => {
    const r = project({ local: (lines) => setting('TRACKER_REVIEWER_TOKEN', TOKENS.assigner)(setting('WORKTREES_DIR', 'rel')(lines)), gitignore: null });
    const text = JSON.stringify(await check(r.repo, 'reviewer'));
    for (const token of [...Object.values(TOKENS), CODEHOST_TOKEN]) expect(text).not.toContain(token);
  });
});

describe('ARCHITECTURE §6: platform row', () => {
  it('PASS with OS, Node.js and git versions', async () => {
    const row = rowOf(await check(project().repo), 'platform');
    expect(row.status).toBe('PASS');
    expect(row.detail).toContain(`Node.js ${process.version}`);
    expect(row.detail).toMatch(/git \d+\.\d+/);
    expect(row.detail).toContain(os.type());
  });
});
