import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeRepo, FIXTURE_GIT_ENV, git, type TestRepo } from '../../../test/support/repo.js';
import {
  GitError,
  branchExists,
  checkRefFormat,
  configGet,
  configSet,
  currentBranch,
  displayRemote,
  fetch,
  gitProcessCount,
  gitVersion,
  isIgnored,
  isLinkedWorktree,
  parseRemote,
  pullFfOnly,
  push,
  remoteBranchExists,
  remoteUrl,
  repoRoot,
  worktreeAdd,
  worktreeBranch,
  worktreeInfo,
  worktreeList,
} from '../src/git/index.js';

const o = { env: FIXTURE_GIT_ENV };
const repos: TestRepo[] = [];
afterEach(() => {
  for (const r of repos.splice(0)) r.cleanup();
});
function repo(options?: Parameters<typeof makeRepo>[0]): TestRepo {
  const r = makeRepo(options);
  repos.push(r);
  return r;
}

describe('parseRemote: owner and name from GitHub-style remotes', () => {
  it.each([
    ['https://github.com/acme/widgets.git', 'github.com'],
    ['https://github.com/acme/widgets', 'github.com'],
    ['https://github.com/acme/widgets/', 'github.com'],
    ['https://x-access-token:secret@github.com/acme/widgets.git', 'github.com'],
    ['ssh://git@github.com/acme/widgets.git', 'github.com'],
    ['ssh://git@ghe.example.com:2222/acme/widgets.git', 'ghe.example.com'],
    ['git@github.com:acme/widgets.git', 'github.com'],
    ['github.com:acme/widgets', 'github.com'],
    ['http://127.0.0.1:9000/acme/widgets.git', '127.0.0.1'],
  ])('%s', (url, host) => {
    expect(parseRemote(url)).toEqual({ host, owner: 'acme', name: 'widgets' });
  });

  it.each([
    '/tmp/x/origin.git',
    '../origin.git',
    'file:///tmp/acme/widgets.git',
    'C:\\repos\\widgets',
    'https://github.com/acme',
    'https://gitlab.com/group/sub/widgets.git',
    '',
  ])('not a code-host repository: %s', (url) => {
    expect(parseRemote(url)).toBeNull();
  });

  it('displayRemote drops credentials from an https remote', () => {
    expect(displayRemote('https://user:s3cret@github.com/acme/widgets.git')).toBe('https://github.com/acme/widgets.git');
    expect(displayRemote('git@github.com:acme/widgets.git')).toBe('git@github.com:acme/widgets.git');
  });
});

describe('git wrapper: queries', () => {
  it('repoRoot, currentBranch and worktreeInfo in the main checkout (also from a subfolder)', async () => {
    const r = repo();
    const sub = path.join(r.repo, 'src');
    fs.mkdirSync(sub);
    expect(await repoRoot(sub, o)).toBe(r.repo);
    expect(await currentBranch(r.repo, o)).toBe('development');
    const info = await worktreeInfo(sub, o);
    expect(info).toMatchObject({ root: r.repo, linked: false, mainPath: r.repo });
    expect(await isLinkedWorktree(r.repo, o)).toBe(false);
  });

  it('a linked worktree is recognised by its own git dir and names its main checkout', async () => {
    const r = repo();
    const wt = path.join(r.worktreesDir, 'worktree-ABC-1');
    await worktreeAdd(r.repo, wt, 'feature/ABC-1-x', 'development', o);
    expect(await isLinkedWorktree(wt, o)).toBe(true);
    expect(await worktreeInfo(wt, o)).toMatchObject({ root: wt, linked: true, mainPath: r.repo });
    expect(await currentBranch(wt, o)).toBe('feature/ABC-1-x');
    const list = await worktreeList(r.repo, o);
    expect(list.map((e) => [e.path, e.branch])).toEqual([
      [r.repo, 'development'],
      [wt, 'feature/ABC-1-x'],
    ]);
  });

  it('currentBranch is null on a detached HEAD', async () => {
    const r = repo();
    r.git('checkout', '--quiet', '--detach');
    expect(await currentBranch(r.repo, o)).toBeNull();
    expect((await worktreeList(r.repo, o))[0]).toMatchObject({ detached: true, branch: null });
  });

  it('worktreeBranch answers worktreeInfo and the branch as the two calls do: a branch, a linked worktree, detached, unborn, no checkout', async () => {
    const r = repo();
    const sub = path.join(r.repo, 'src');
    fs.mkdirSync(sub);
    expect(await worktreeBranch(sub, o)).toEqual({ ...(await worktreeInfo(sub, o)), branch: 'development' });
    const wt = path.join(r.worktreesDir, 'worktree-ABC-2');
    await worktreeAdd(r.repo, wt, 'feature/ABC-2-x', 'development', o);
    expect(await worktreeBranch(wt, o)).toEqual({ ...(await worktreeInfo(wt, o)), branch: 'feature/ABC-2-x' });
    r.git('checkout', '--quiet', '--detach');
    expect(await worktreeBranch(r.repo, o)).toMatchObject({ root: r.repo, branch: null });
    // An unborn branch: git cannot name HEAD's commit, and the answer is the two calls' (one more process).
    const fresh = path.join(r.worktreesDir, 'fresh');
    git(r.worktreesDir, 'init', '--quiet', '--initial-branch', 'feature/NEW-1-y', fresh);
    expect(await worktreeBranch(fresh, o)).toMatchObject({ root: fresh, linked: false, branch: 'feature/NEW-1-y' });
    const outside = fs.mkdtempSync(path.join(r.worktreesDir, '..', 'not-a-checkout-'));
    await expect(worktreeBranch(outside, o)).rejects.toMatchObject({ code: 'GIT_FAILED' });
  });

  it('fetch runs again when another fetch holds a remote-tracking ref it updates (two worktrees fetching at once), and still fails on a lock that stays', async () => {
    const r = repo();
    // origin gets a commit on development, so the fetch must move refs/remotes/origin/development.
    const other = path.join(r.root, 'other');
    git(r.root, 'clone', '--quiet', r.origin, other);
    git(other, '-c', 'user.name=T', '-c', 'user.email=t@example.test', 'commit', '--quiet', '--allow-empty', '-m', 'moved on origin');
    git(other, 'push', '--quiet', 'origin', 'HEAD:development');
    const lock = path.join(r.repo, '.git', 'refs', 'remotes', 'origin', 'development.lock');
    fs.mkdirSync(path.dirname(lock), { recursive: true });
    fs.writeFileSync(lock, '');
    // The other fetch lets go of the ref later than git's own wait for a lock (core.filesRefLockTimeout, 100 ms).
    const released = setTimeout(() => fs.rmSync(lock, { force: true }), 250);
    try {
      await fetch(r.repo, o);
    } finally {
      clearTimeout(released);
      fs.rmSync(lock, { force: true });
    }
    expect(r.git('rev-parse', 'origin/development')).toBe(git(other, 'rev-parse', 'HEAD'));
    // A lock nobody releases: the same failure after the last attempt, git's words kept.
    git(other, '-c', 'user.name=T', '-c', 'user.email=t@example.test', 'commit', '--quiet', '--allow-empty', '-m', 'moved again');
    git(other, 'push', '--quiet', 'origin', 'HEAD:development');
    fs.writeFileSync(lock, '');
    try {
      await expect(fetch(r.repo, o)).rejects.toThrow(/cannot lock ref 'refs\/remotes\/origin\/development'/);
    } finally {
      fs.rmSync(lock, { force: true });
    }
  });

  it('remoteUrl is the configured URL (before insteadOf), null without the remote', async () => {
    const r = repo({ originUrl: 'https://github.com/acme/widgets.git' });
    expect(await remoteUrl(r.repo, 'origin', o)).toBe('https://github.com/acme/widgets.git');
    expect(await remoteUrl(r.repo, 'upstream', o)).toBeNull();
    // Fetching still works: the insteadOf rule sends it to the bare repository.
    await fetch(r.repo, o);
  });

  it('configSet / configGet round-trip, null when unset (spec §1 rule 10: parentbranch)', async () => {
    const r = repo();
    expect(await configGet(r.repo, 'branch.feature/ABC-1-x.parentbranch', o)).toBeNull();
    await configSet(r.repo, 'branch.feature/ABC-1-x.parentbranch', 'development', o);
    expect(await configGet(r.repo, 'branch.feature/ABC-1-x.parentbranch', o)).toBe('development');
  });

  it('isIgnored follows .gitignore; a tracked file is not ignored unless noIndex', async () => {
    const r = repo();
    fs.writeFileSync(path.join(r.repo, 'secret.env'), 'x\n');
    expect(await isIgnored(r.repo, 'secret.env', o)).toBe(false);
    r.git('add', 'secret.env');
    r.git('commit', '--quiet', '-m', 'oops');
    fs.writeFileSync(path.join(r.repo, '.gitignore'), 'secret.env\n');
    expect(await isIgnored(r.repo, 'secret.env', o)).toBe(false);
    expect(await isIgnored(r.repo, 'secret.env', { ...o, noIndex: true })).toBe(true);
    fs.writeFileSync(path.join(r.repo, 'other.env'), 'x\n');
    fs.appendFileSync(path.join(r.repo, '.gitignore'), 'other.env\n');
    expect(await isIgnored(r.repo, 'other.env', o)).toBe(true);
  });

  it('checkRefFormat is git’s own verdict on branch names', async () => {
    expect(await checkRefFormat('feature/ABC-12-add-login', o)).toBe(true);
    for (const bad of ['feature/x..y', 'a b', 'x.lock', '-x', 'feature/', 'x~1']) expect(await checkRefFormat(bad, o)).toBe(false);
  });

  it('branchExists (local) and remoteBranchExists (asks origin, exact names only)', async () => {
    const r = repo({ branches: ['development', 'main', 'x/feature/a'] });
    expect(await branchExists(r.repo, 'main', o)).toBe(true);
    expect(await branchExists(r.repo, 'nope', o)).toBe(false);
    expect(await remoteBranchExists(r.repo, 'main', o)).toBe(true);
    expect(await remoteBranchExists(r.repo, 'feature/a', o)).toBe(false);
  });

  it('gitVersion and the process counter', async () => {
    const before = gitProcessCount();
    expect(await gitVersion(o)).toMatch(/^\d+\.\d+/);
    expect(gitProcessCount()).toBe(before + 1);
  });
});

describe('git wrapper: changes', () => {
  it('push -u publishes a branch with its upstream (spec §1 rule 10)', async () => {
    const r = repo();
    r.git('branch', 'feature/ABC-1-x');
    await push(r.repo, 'feature/ABC-1-x', o);
    expect(git(r.origin, 'rev-parse', '--verify', 'refs/heads/feature/ABC-1-x')).toMatch(/^[0-9a-f]{40}$/);
    expect(await configGet(r.repo, 'branch.feature/ABC-1-x.remote', o)).toBe('origin');
  });

  it('pullFfOnly fast-forwards; real divergence is GIT_PULL_DIVERGED (spec §1 rule 8)', async () => {
    const r = repo();
    const other = path.join(r.root, 'other');
    git(r.root, 'clone', '--quiet', '--branch', 'development', r.origin, other);
    git(other, '-c', 'user.name=O', '-c', 'user.email=o@x.test', 'commit', '--quiet', '--allow-empty', '-m', 'upstream');
    git(other, 'push', '--quiet', 'origin', 'development');
    await pullFfOnly(r.repo, 'development', o);
    expect(r.git('rev-parse', 'HEAD')).toBe(git(other, 'rev-parse', 'HEAD'));

    git(other, '-c', 'user.name=O', '-c', 'user.email=o@x.test', 'commit', '--quiet', '--allow-empty', '-m', 'upstream 2');
    git(other, 'push', '--quiet', 'origin', 'development');
    r.git('commit', '--quiet', '--allow-empty', '-m', 'local');
    const error = await pullFfOnly(r.repo, 'development', o).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GitError);
    expect((error as GitError).code).toBe('GIT_PULL_DIVERGED');
  });

  it('a failing command is a GitError naming the command, the folder and git’s words', async () => {
    const r = repo();
    const error = await worktreeAdd(r.repo, path.join(r.worktreesDir, 'w'), 'main', 'development', o).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GitError);
    const message = (error as GitError).message;
    expect(message).toContain('git worktree add -b main');
    expect(message).toContain(r.repo);
    expect(message).toMatch(/already exists/);
    expect((error as GitError).exitCode).toBe(1);
  });

  it('a missing folder is reported as such, not as git missing', async () => {
    const error = await repoRoot('/nonexistent/jst-folder', o).catch((e: unknown) => e);
    expect((error as GitError).code).toBe('GIT_NO_FOLDER');
  });
});
