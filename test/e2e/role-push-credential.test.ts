import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmbeddedCodehost } from '../support/embedded-codehost.js';
import { runJst } from '../support/jst-cli.js';
import { git } from '../support/repo.js';
import { CODEHOST_LOGIN, CODEHOST_ROLE_LOGINS, CODEHOST_ROLE_TOKENS, CODEHOST_TOKEN } from '../support/seed.js';
import { oneStepPlanned, type OneStepWorld, type PlanWorld } from './plan-fixture.js';

/**
 * ARCHITECTURE §10 and §21: with CODEHOST_EXECUTOR_TOKEN set, `jst start` and `jst pr` push as the
 * executor's own code-host identity, over whatever credential the checkout keeps for origin, and
 * git gives that token to origin's address alone (git/credential.ts): the user's own helpers are
 * not asked for origin, and the token is not offered to any other host.
 */
describe('a push as the executor’s own code-host identity (ARCHITECTURE §10, §21)', () => {
  let ch: EmbeddedCodehost;
  let w: PlanWorld;
  let worktrees: string[];

  let world: OneStepWorld;
  beforeAll(async () => {
    world = await oneStepPlanned();
    ({ ch, w, worktrees } = world);
  });
  afterAll(async () => {
    await world?.close();
  });

  it('jst start and jst pr push as eve-codes, not as the checkout’s stored jst-bot; the user’s own helper never receives the executor’s token', async () => {
    const wt = worktrees[1]!;
    // A helper of the user's, after the checkout's store: it logs every question it is asked.
    const log = join(w.repo.root, 'asked.log');
    const helper = join(w.repo.root, 'user-helper.sh');
    writeFileSync(helper, `#!/bin/sh\necho "$1 $(cat | tr '\\n' ' ')" >> '${log}'\n`);
    chmodSync(helper, 0o755);
    writeFileSync(log, '');
    git(w.repo.repo, 'config', '--add', 'credential.helper', helper);
    const env = { CODEHOST_EXECUTOR_TOKEN: CODEHOST_ROLE_TOKENS.executor };
    const started = await runJst(['start'], { cwd: wt, env });
    expect(started.code, started.stderr).toBe(0);
    writeFileSync(join(wt, 'mine.txt'), 'mine\n');
    git(wt, 'add', 'mine.txt');
    git(wt, 'commit', '--quiet', '-m', 'mine');
    const pr = await runJst(['pr', '--json'], { cwd: wt, env });
    expect(pr.code, pr.stderr).toBe(0);
    const branch = git(wt, 'branch', '--show-current');
    // The code host's reflog names the pusher of each update of the branch (REMOTE_USER).
    const pushers = git(ch.bare('acme/widgets'), 'reflog', 'show', '--format=%ge', `refs/heads/${branch}`).split('\n');
    expect(pushers.length).toBeGreaterThanOrEqual(2);
    for (const p of pushers) expect(p).toMatch(new RegExp(`^${CODEHOST_ROLE_LOGINS.executor}@`));
    expect(pushers.join('\n')).not.toContain(CODEHOST_LOGIN);
    // The pull request is the executor's too: one identity for the push and the pull request.
    const [pull] = await ch.pulls('acme/widgets');
    expect(pull?.head).toBe(branch);
    // The user's helper saw the checkout's own reads (fetch, ls-remote: its stored credential), and
    // never the executor's token: git's `store` after a push goes to origin's helper list, ours alone.
    const asked = readFileSync(log, 'utf8');
    expect(asked).not.toContain(CODEHOST_ROLE_TOKENS.executor);
    expect(asked).not.toMatch(/^get /m);
    for (const out of [started.stdout, started.stderr, pr.stdout, pr.stderr]) {
      expect(out).not.toContain(CODEHOST_ROLE_TOKENS.executor);
      expect(out).not.toContain(CODEHOST_TOKEN);
    }
  });
});
