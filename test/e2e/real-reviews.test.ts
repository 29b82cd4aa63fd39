import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codehostOf, type EmbeddedCodehost } from '../support/embedded-codehost.js';
import { runJst, type CliResult } from '../support/jst-cli.js';
import { git } from '../support/repo.js';
import { CODEHOST_LOGIN, CODEHOST_ROLE_LOGINS, CODEHOST_ROLE_TOKENS, testSeed, withCodehost } from '../support/seed.js';
import { startTestTracker, type TestTracker } from '../support/tracker.js';
import { planWorld, SINGLE, type PlanWorld } from './plan-fixture.js';

/**
 * ARCHITECTURE §21 "real reviews": through the built CLI, `jst review` posts a real APPROVE /
 * REQUEST_CHANGES review when the reviewer's code-host account is not the pull request's author,
 * and a COMMENT when one account holds both sides (GitHub refuses one's own approval); the body
 * starts with the marker either way.
 */
describe('ARCHITECTURE §21: jst review posts real reviews when the reviewer is not the author', () => {
  let t: TestTracker;
  let ch: EmbeddedCodehost;
  let w: PlanWorld;
  let key: string;
  let wt: string;
  const ok = (r: CliResult) => {
    expect(r.code, `${r.stderr}\n${r.stdout}`).toBe(0);
    return r;
  };
  const reviews = async () => {
    const pull = (await ch.octokit().rest.pulls.list({ owner: 'acme', repo: 'widgets', state: 'all' })).data[0]!;
    const list = (await ch.octokit().rest.pulls.listReviews({ owner: 'acme', repo: 'widgets', pull_number: pull.number })).data;
    return { author: pull.user?.login, reviews: list.map((r) => [r.user?.login, r.state, r.body.split('\n')[0]]) };
  };
  const fix = async (file: string) => {
    writeFileSync(join(wt, file), `${file}\n`);
    git(wt, 'add', file);
    git(wt, 'commit', '--quiet', '-m', file);
    ok(await runJst(['pr'], { cwd: wt }));
  };

  beforeAll(async () => {
    t = await startTestTracker('sqlite', withCodehost(testSeed()));
    ch = codehostOf(t);
    w = planWorld(t, { codehost: ch });
    const out = JSON.parse(ok(await w.plan(['--plan', w.planFile(SINGLE), '--json'])).stdout) as { keys: string[]; worktrees: string[] };
    [key, wt] = [out.keys[0]!, out.worktrees[0]!];
    ok(await runJst(['start'], { cwd: wt }));
    await fix('first.txt');
  });
  afterAll(async () => {
    w?.repo.cleanup();
    await t?.close();
  });

  it('one account on both sides: COMMENT, the marker first', async () => {
    ok(await runJst(['review', key, '--request-changes', '--summary', 'round one'], { cwd: w.repo.repo }));
    expect(await reviews()).toEqual({ author: CODEHOST_LOGIN, reviews: [[CODEHOST_LOGIN, 'COMMENTED', 'CHANGES REQUESTED — round one']] });
  });

  it("the reviewer's own account: REQUEST_CHANGES, then APPROVE, each with its marker; jst done counts the approval as before", async () => {
    appendFileSync(join(w.repo.repo, '.jst', 'local.env'), `CODEHOST_REVIEWER_TOKEN=${CODEHOST_ROLE_TOKENS.reviewer}\n`);
    await fix('second.txt');
    ok(await runJst(['review', key, '--request-changes', '--summary', 'round two'], { cwd: w.repo.repo }));
    await fix('third.txt');
    ok(await runJst(['review', key, '--approve', '--summary', 'good now'], { cwd: w.repo.repo }));
    const reviewer = CODEHOST_ROLE_LOGINS.reviewer;
    expect((await reviews()).reviews).toEqual([
      [CODEHOST_LOGIN, 'COMMENTED', 'CHANGES REQUESTED — round one'],
      [reviewer, 'CHANGES_REQUESTED', 'CHANGES REQUESTED — round two'],
      [reviewer, 'APPROVED', 'APPROVED — good now'],
    ]);
    ok(await runJst(['done', key, '--yes', key], { cwd: w.repo.repo }));
    expect((await t.as('assigner').get(`/issue/${key}?fields=status`)).body.fields.status.name).toBe('Done');
  });
});
