import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bwrapAvailable } from '../support/bwrap.js';
import { runJst } from '../support/jst-cli.js';
import { CODEHOST_ROLE_LOGINS, CODEHOST_ROLE_TOKENS, CODEHOST_TOKEN, TOKENS } from '../support/seed.js';
import { dispatchWorld, EXECUTOR_AGENT, lastDoc, type DispatchWorld } from './dispatch-fixture.js';

/**
 * ARCHITECTURE §15 (docs/dispatch.md "The sandbox"): an agent started by `jst dispatch` holds only
 * its role's credentials. A scripted executor's agent looks for every other role's token where one
 * could be (the main checkout's `.jst/`, the other worktrees, its own `.jst/local.env`, `$HOME`,
 * `~/.git-credentials`, the test's own credential store, the environment, other processes'
 * environments), tries the reviewer's commands, then does its own work.
 */
const sh = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const HOME_SECRET = 'github_pat_home_store_4f7a90';
const GH_SECRET = 'gho_user_cli_token_8c12de';

describe.skipIf(!bwrapAvailable())('ARCHITECTURE §15: each agent runs in a sandbox with its role’s credentials only', () => {
  let d: DispatchWorld;
  let P: string, A: string, B: string;
  let main: string;
  const status = async (key: string) => (await d.t.as('assigner').get(`/issue/${key}?fields=status`)).body.fields.status.name as string;
  const log = (key: string) => readFileSync(join(main, '.jst', 'dispatch', `${key}-1.log`), 'utf8');

  beforeAll(async () => {
    d = await dispatchWorld(2);
    [P, A, B] = d.keys as [string, string, string];
    main = d.w.repo.repo;
    // One code-host identity per role, and the shared token beside them.
    appendFileSync(
      join(main, '.jst', 'local.env'),
      `CODEHOST_EXECUTOR_TOKEN=${CODEHOST_ROLE_TOKENS.executor}\nCODEHOST_REVIEWER_TOKEN=${CODEHOST_ROLE_TOKENS.reviewer}\n`,
    );
    // The person's own credential stores in $HOME (the tests' HOME is the main checkout).
    writeFileSync(join(main, '.git-credentials'), `https://someone:${HOME_SECRET}@github.com\n`, { mode: 0o600 });
    mkdirSync(join(main, '.config', 'gh'), { recursive: true });
    writeFileSync(join(main, '.config', 'gh', 'hosts.yml'), `github.com:\n  oauth_token: ${GH_SECRET}\n`, { mode: 0o600 });
  }, 120_000);
  afterAll(async () => {
    await d?.close();
  });

  it('ARCHITECTURE §15: the executor’s agent finds no other role’s token, is refused the reviewer’s commands (exit 2), and does its own work', async () => {
    const others = [d.worktrees[0]!, d.worktrees[2]!];
    const probe = [
      'set +e',
      `MAIN=${sh(main)}`,
      'echo "== main .jst"; cat "$MAIN/.jst/local.env" 2>&1; ls -la "$MAIN/.jst" 2>&1',
      `for w in ${others.map(sh).join(' ')}; do echo "== $w"; cat "$w/.jst/local.env" 2>&1; ls -la "$w" 2>&1; done`,
      'echo "== own .jst/local.env"; cat .jst/local.env',
      'echo "== home"; ls -la "$HOME" 2>&1; cat "$HOME/.git-credentials" "$HOME/.config/gh/hosts.yml" 2>&1',
      `echo "== the test's credential store"; cat ${sh(join(d.w.repo.root, 'git-credentials'))} 2>&1`,
      'echo "== environment"; env',
      'echo "== other processes"; for f in /proc/[0-9]*/environ; do tr "\\0" "\\n" < "$f"; done 2>&1',
      'echo "== git config"; git config --list --show-origin 2>&1',
      'echo "== git credential"; printf "url=%s\\n\\n" "$(git remote get-url origin)" | git credential fill 2>&1',
      `jst review "$JST_ISSUE_KEY" --approve --summary "Self-approved"; echo "review-exit=$?"`,
      `jst done "$JST_ISSUE_KEY" --yes "$JST_ISSUE_KEY"; echo "done-exit=$?"`,
      'set -e',
      EXECUTOR_AGENT,
      'echo "own-work-done"',
    ].join('\n');
    d.agents(d.script('probe.sh', probe), null);
    const mainLocal = readFileSync(join(main, '.jst', 'local.env'), 'utf8');
    const copyInA = readFileSync(join(d.worktrees[1]!, '.jst', 'local.env'), 'utf8');

    // B waits unassigned until the last tests (--once would start it after A: one agent's log is read here).
    const executorId = (await d.t.as('executor').get('/myself')).body.accountId as string;
    await d.t.as('assigner').put(`/issue/${B}/assignee`, { accountId: null });
    const r = await d.dispatch('--once', '--json', '--max-agents', '1');
    await d.t.as('assigner').put(`/issue/${B}/assignee`, { accountId: executorId });
    expect(r.code, r.stderr + log(A)).toBe(0);
    const doc = lastDoc(r);
    expect(doc.exited).toEqual([expect.objectContaining({ key: A, role: 'executor', exitCode: 0 })]);
    const text = log(A);
    // What the agent could read or print holds none of the other tokens…
    for (const secret of [TOKENS.assigner, TOKENS.reviewer, CODEHOST_TOKEN, CODEHOST_ROLE_TOKENS.reviewer, HOME_SECRET, GH_SECRET]) {
      expect(text).not.toContain(secret);
    }
    // …but its own: the role-only file in place of .jst/local.env, and git's credential for origin.
    expect(text).toContain('JST_ONLY_ROLE=executor');
    expect(text).toContain(`TRACKER_EXECUTOR_TOKEN=${TOKENS.executor}`);
    expect(text).toContain(`password=${CODEHOST_ROLE_TOKENS.executor}`);
    // The reviewer's commands: exit 2, naming the setting this file does not hold.
    expect(text).toContain('review-exit=2');
    expect(text).toContain('done-exit=2');
    expect(text).toMatch(/CODEHOST_REVIEWER_TOKEN is not set: .*holds only the executor's credentials \(JST_ONLY_ROLE=executor\)/);
    expect(text).toMatch(/TRACKER_REVIEWER_TOKEN is not set: .*holds only the executor's credentials \(JST_ONLY_ROLE=executor\)/);
    expect(text).toContain('own-work-done');

    // Its own start, note and pr worked, as the executor's code-host identity.
    expect(await status(A)).toBe('In Review');
    expect(await status(B)).toBe('To Do');
    expect(await status(P)).not.toBe('Done');
    const pulls = (await d.ch.octokit().rest.pulls.list({ owner: 'acme', repo: 'widgets', state: 'all' })).data;
    const pull = pulls.find((p) => p.head.ref === d.branches[1]);
    expect(pull?.user?.login).toBe(CODEHOST_ROLE_LOGINS.executor);
    const reviews = (await d.ch.octokit().rest.pulls.listReviews({ owner: 'acme', repo: 'widgets', pull_number: pull!.number })).data;
    expect(reviews).toEqual([]);
    // The files the agent did not see are as they were.
    expect(readFileSync(join(main, '.jst', 'local.env'), 'utf8')).toBe(mainLocal);
    expect(readFileSync(join(d.worktrees[1]!, '.jst', 'local.env'), 'utf8')).toBe(copyInA);
  }, 120_000);

  it('ARCHITECTURE §15: the reviewer’s agent reviews as the reviewer’s code-host identity and is refused the executor’s commands (exit 2)', async () => {
    const reviewer = [
      'set +e',
      'echo "== own .jst/local.env"; cat .jst/local.env',
      'jst note "not mine to write"; echo "note-exit=$?"',
      'set -e',
      'jst review "$JST_ISSUE_KEY" --approve --summary "Looks right" > /dev/null',
    ].join('\n');
    d.agents(null, d.script('reviewer-probe.sh', reviewer));
    const r = await d.dispatch('--once', '--json', '--max-agents', '1');
    expect(r.code, r.stderr).toBe(0);
    expect(lastDoc(r).exited).toEqual([expect.objectContaining({ key: A, role: 'reviewer', exitCode: 0 })]);
    const text = readFileSync(join(main, '.jst', 'dispatch', `${A}-2.log`), 'utf8');
    for (const secret of [TOKENS.assigner, TOKENS.executor, CODEHOST_TOKEN, CODEHOST_ROLE_TOKENS.executor]) expect(text).not.toContain(secret);
    expect(text).toContain(`CODEHOST_REVIEWER_TOKEN=${CODEHOST_ROLE_TOKENS.reviewer}`);
    expect(text).toContain('note-exit=2');
    expect(text).toMatch(/TRACKER_EXECUTOR_TOKEN is not set: .*holds only the reviewer's credentials \(JST_ONLY_ROLE=reviewer\)/);
    const pull = (await d.ch.octokit().rest.pulls.list({ owner: 'acme', repo: 'widgets', state: 'all' })).data.find((p) => p.head.ref === d.branches[1])!;
    const reviews = (await d.ch.octokit().rest.pulls.listReviews({ owner: 'acme', repo: 'widgets', pull_number: pull.number })).data;
    expect(reviews.map((x) => [x.user?.login, x.body.split('\n')[0]])).toEqual([[CODEHOST_ROLE_LOGINS.reviewer, 'APPROVED — Looks right']]);
    expect(await status(A)).toBe('In Review');
  }, 120_000);

  it('ARCHITECTURE §15: without bubblewrap dispatch refuses to start agents (exit 2), saying how to install it or opt out', async () => {
    const bin = mkdtempSync(join(tmpdir(), 'jst-nobwrap-'));
    symlinkSync('/usr/bin/git', join(bin, 'git'));
    const journal = readFileSync(join(main, '.jst', 'dispatch-journal.json'), 'utf8');
    const r = await runJst(['dispatch', '--once'], { cwd: main, env: { PATH: bin } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('AGENT_SANDBOX is bwrap (the default) and bubblewrap (bwrap) is not on PATH');
    expect(r.stderr).toContain('apt-get install bubblewrap');
    expect(r.stderr).toContain('AGENT_SANDBOX=none');
    expect(readFileSync(join(main, '.jst', 'dispatch-journal.json'), 'utf8')).toBe(journal);
    expect(existsSync(join(main, '.jst', 'dispatch', `${B}-1.log`))).toBe(false);
  });

  it('ARCHITECTURE §15: AGENT_SANDBOX=none runs the agent unsandboxed, where the main checkout’s local file is in reach', async () => {
    d.agents(d.script('none.sh', `test -r ${sh(join(main, '.jst', 'local.env'))} && echo "main-local-readable"`), null, ['AGENT_SANDBOX=none']);
    const r = await d.dispatch('--once', '--json', '--max-agents', '1');
    expect(r.code, r.stderr).toBe(0);
    expect(lastDoc(r).exited).toEqual([expect.objectContaining({ key: B, exitCode: 0 })]);
    expect(log(B)).toContain('main-local-readable');
  }, 120_000);

  it('ARCHITECTURE §15: a bad AGENT_SANDBOX is exit 2 naming the setting, before anything starts', async () => {
    d.agents(d.script('never.sh', 'exit 0'), null, ['AGENT_SANDBOX=firejail']);
    const r = await d.dispatch('--once');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('AGENT_SANDBOX');
    expect(r.stderr).toContain('"firejail", not bwrap or none');
  });
});
