import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findRepoRoot, loadConfig, locateJstDir, validateConfig } from '../src/config/index.js';

// Tests must not depend on the developer's git setup (signing, hooks, default branch) or on GIT_* from a hook.
const gitEnv: NodeJS.ProcessEnv = {
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GIT_'))),
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'jst test',
  GIT_AUTHOR_EMAIL: 'test@jst.test',
  GIT_COMMITTER_NAME: 'jst test',
  GIT_COMMITTER_EMAIL: 'test@jst.test',
};

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: gitEnv, encoding: 'utf8' });
}

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

let tmp = '';
beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'jst-config-loc-')));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A main checkout with one commit on `development` and a committed team file. */
function mainRepo(): string {
  const repo = path.join(tmp, 'repo');
  fs.mkdirSync(repo);
  git(repo, 'init', '--quiet', '--initial-branch=development');
  write(path.join(repo, '.jst', 'team.env'), 'PROJECT_KEY=ABC\nPRODUCTION_BRANCH=main\n');
  write(path.join(repo, '.jst', '.gitignore'), 'local.env\n');
  write(path.join(repo, '.jst', 'local.env'), `WORKTREES_DIR=${path.join(tmp, 'worktrees')}\n`);
  write(path.join(repo, 'src', 'deep', 'file.txt'), 'x\n');
  git(repo, 'add', '.');
  git(repo, 'commit', '--quiet', '-m', 'init');
  return repo;
}

describe('ARCHITECTURE §10: .jst/ is found in the current folder or a parent, up to the repository root', () => {
  it('finds .jst/ at the repository root from a subfolder', () => {
    const repo = mainRepo();
    const cwd = path.join(repo, 'src', 'deep');
    expect(locateJstDir(cwd)).toEqual({ jstDir: path.join(repo, '.jst'), repoRoot: repo });
    const config = loadConfig({ cwd, env: {} });
    expect(config.projectKey).toBe('ABC');
    expect(config.worktreesDir).toBe(path.join(tmp, 'worktrees'));
  });

  it('the nearest .jst/ wins', () => {
    const repo = mainRepo();
    write(path.join(repo, 'src', '.jst', 'team.env'), 'PROJECT_KEY=SUB\n');
    expect(loadConfig({ cwd: path.join(repo, 'src', 'deep'), env: {} }).projectKey).toBe('SUB');
  });

  it('does not look above the repository root', () => {
    write(path.join(tmp, '.jst', 'team.env'), 'PROJECT_KEY=OUTSIDE\n');
    const repo = path.join(tmp, 'inner');
    fs.mkdirSync(repo);
    git(repo, 'init', '--quiet');
    expect(locateJstDir(repo)).toEqual({ jstDir: null, repoRoot: repo });
    expect(loadConfig({ cwd: repo, env: {} }).projectKey).toBeNull();
  });

  it('outside any repository it searches up to the filesystem root', () => {
    write(path.join(tmp, '.jst', 'team.env'), 'PROJECT_KEY=LOOSE\n');
    const cwd = path.join(tmp, 'a', 'b');
    fs.mkdirSync(cwd, { recursive: true });
    expect(findRepoRoot(cwd)).toBeNull();
    expect(locateJstDir(cwd)).toEqual({ jstDir: path.join(tmp, '.jst'), repoRoot: null });
  });

  it('a .jst that is a file, not a folder, is not taken for the configuration folder', () => {
    const repo = mainRepo();
    write(path.join(repo, 'src', '.jst'), 'not a folder');
    expect(locateJstDir(path.join(repo, 'src')).jstDir).toBe(path.join(repo, '.jst'));
  });
});

describe('spec §2: the whole .jst/ folder is copied into each new worktree', () => {
  it("inside a linked worktree (a .git file) the worktree's own copied .jst/ is read", () => {
    const repo = mainRepo();
    const worktree = path.join(tmp, 'worktrees', 'worktree-ABC-1');
    git(repo, 'worktree', 'add', '--quiet', '-b', 'feature/ABC-1-login', worktree);
    expect(fs.statSync(path.join(worktree, '.git')).isFile()).toBe(true);
    // The team file arrives by checkout; local.env is ignored, so the plan copies the folder.
    fs.cpSync(path.join(repo, '.jst'), path.join(worktree, '.jst'), { recursive: true });
    fs.appendFileSync(path.join(worktree, '.jst', 'local.env'), 'TRACKER_ACCOUNT_URL=https://copy.example.net/\n');

    const cwd = path.join(worktree, 'src', 'deep');
    expect(findRepoRoot(cwd)).toBe(worktree);
    const config = loadConfig({ cwd, env: {} });
    expect(config.jstDir).toBe(path.join(worktree, '.jst'));
    expect(config.repoRoot).toBe(worktree);
    expect(config.projectKey).toBe('ABC');
    expect(config.trackerHost).toBe('copy.example.net');
    expect(config.settings.TRACKER_ACCOUNT_URL?.source).toMatchObject({ kind: 'file', file: path.join(worktree, '.jst', 'local.env') });
  });

  it('a worktree nested in the main checkout without its own .jst/ does not borrow the main one', () => {
    const repo = mainRepo();
    const worktree = path.join(repo, 'nested-wt');
    git(repo, 'worktree', 'add', '--quiet', '-b', 'feature/ABC-2-x', worktree);
    fs.rmSync(path.join(worktree, '.jst'), { recursive: true, force: true });
    const config = loadConfig({ cwd: worktree, env: {} });
    expect(config.jstDir).toBeNull();
    expect(config.repoRoot).toBe(worktree);
    const [problem] = validateConfig(config);
    expect(problem?.code).toBe('CONFIG_NOT_FOUND');
    expect(problem?.fix).toMatch(/copy \.jst\//);
  });
});
