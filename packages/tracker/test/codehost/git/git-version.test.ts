import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTrackerDist, tempDir } from './support.js';

/** ARCHITECTURE §14: merges are git's (`git merge-tree --write-tree`, git 2.38 or later). */

const VERIFY = fileURLToPath(new URL('./fixtures/verify-git.mjs', import.meta.url));
const tmp = tempDir('jst-git-version-');
afterAll(() => tmp.cleanup());
beforeAll(() => buildTrackerDist(), 120_000);

/**
 * Runs verifyGit() in a process whose PATH is `path`, or only a folder holding `fakeGit` as `git`
 * (an empty folder when it is null: no git at all).
 */
function verifyWith(o: { path: string } | { fakeGit: string | null }): string {
  let path: string;
  if ('path' in o) path = o.path;
  else {
    path = mkdtempSync(join(tmp.path, 'bin-'));
    if (o.fakeGit !== null) {
      writeFileSync(join(path, 'git'), o.fakeGit);
      chmodSync(join(path, 'git'), 0o755);
    }
  }
  return spawnSync(process.execPath, [VERIFY, join(tmp.path, 'repos')], { env: { PATH: path }, encoding: 'utf8' }).stdout.trim();
}

describe("ARCHITECTURE §14 Git is git's: the installed git must have merge-tree --write-tree", () => {
  it('the git on this machine passes', () => {
    expect(verifyWith({ path: process.env.PATH ?? '' })).toBe('ok');
  });

  it('git 2.37 is refused with what to do', () => {
    expect(verifyWith({ fakeGit: '#!/bin/sh\necho "git version 2.37.1"\n' })).toBe(
      'The code host needs git 2.38 or newer (for `git merge-tree --write-tree`); found "git version 2.37.1". Install a newer git and restart jst-tracker.',
    );
  });

  it('no git at all is refused with what to do', () => {
    expect(verifyWith({ fakeGit: null })).toMatch(/^The code host needs git 2\.38 or newer on PATH, and running `git version` failed: /);
  });
});
