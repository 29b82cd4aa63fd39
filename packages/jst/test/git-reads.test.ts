import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeRepo, FIXTURE_GIT_ENV, git, type TestRepo } from '../../../test/support/repo.js';
import { configGet, configSet, forgetReads, gitProcessCount, resetGitProcessCount } from '../src/git/index.js';

const o = { env: FIXTURE_GIT_ENV };
const repos: TestRepo[] = [];
afterEach(() => {
  for (const r of repos.splice(0)) r.cleanup();
});
function repo(): TestRepo {
  const r = makeRepo();
  repos.push(r);
  return r;
}

describe('git reads kept per command (git/reads.ts): one git config --list for every configGet', () => {
  it('configGet answers as git config --get does: a subsection in its own case, the last of several values, null when unset, a bare key empty', async () => {
    const r = repo();
    git(r.repo, 'config', 'branch.feature/ABC-1-Login.parentbranch', 'feature/ABC-0-Parent');
    git(r.repo, 'config', '--add', 'jst.multi', 'first');
    git(r.repo, 'config', '--add', 'jst.multi', 'last');
    appendFileSync(join(r.repo, '.git', 'config'), '[jst]\n\tbare\n');
    forgetReads();
    for (const key of [
      'jst.bare',
      'branch.feature/ABC-1-Login.parentbranch',
      'Branch.feature/ABC-1-Login.ParentBranch',
      'jst.multi',
      'jst.nothing',
      'remote.origin.url',
    ]) {
      const direct = (() => {
        try {
          return git(r.repo, 'config', '--get', key).trim();
        } catch {
          return null;
        }
      })();
      expect(await configGet(r.repo, key, o), key).toBe(direct);
    }
    // Another subsection case is another branch, as for git.
    expect(await configGet(r.repo, 'branch.FEATURE/abc-1-login.parentbranch', o)).toBeNull();
  });

  it('reads once while nothing else runs; a git command of its own (configSet) or forgetReads() makes the next read fresh', async () => {
    const r = repo();
    forgetReads();
    resetGitProcessCount();
    await configGet(r.repo, 'user.name', o);
    await configGet(r.repo, 'remote.origin.url', o);
    await configGet(r.repo, 'branch.x.parentbranch', o);
    expect(gitProcessCount()).toBe(1);
    await configSet(r.repo, 'branch.x.parentbranch', 'development', o);
    expect(await configGet(r.repo, 'branch.x.parentbranch', o)).toBe('development');
    // A change made outside jst is seen after forgetReads (each jst mcp tool call starts with it).
    git(r.repo, 'config', 'branch.x.parentbranch', 'main');
    expect(await configGet(r.repo, 'branch.x.parentbranch', o)).toBe('development');
    forgetReads();
    expect(await configGet(r.repo, 'branch.x.parentbranch', o)).toBe('main');
  });
});
