import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstLineText } from '@jst/adf';
import { codehostOf, type EmbeddedCodehost } from '../support/embedded-codehost.js';
import { runJst, type CliResult } from '../support/jst-cli.js';
import { startMcp, textOf, type McpSession } from '../support/mcp.js';
import { git } from '../support/repo.js';
import { testSeed, withCodehost, type Who } from '../support/seed.js';
import { adf, startTestTracker, storeKinds, type TestTracker } from '../support/tracker.js';
import { planWorld, SINGLE, type PlanWorld } from './plan-fixture.js';

/**
 * ARCHITECTURE §11: a marker counts only from the account of the role that posts it; the same
 * first line by anyone else is an ordinary comment. Real jst-tracker with its code host, real git,
 * the built CLI and `jst mcp`: one planned top-level issue taken through start → pr → review, with
 * markers forged by the other roles' accounts along the way.
 */
describe.each(await storeKinds())("ARCHITECTURE §11: markers count only from their role's account (CLI and MCP, %s)", (kind) => {
  let t: TestTracker;
  let ch: EmbeddedCodehost;
  let w: PlanWorld;
  let key: string;
  let branch: string;
  let wt: string;
  const sessions: McpSession[] = [];

  const jst = (cwd: string, args: string[], env?: Record<string, string>): Promise<CliResult> => runJst(args, { cwd, ...(env ? { env } : {}) });
  const ok = (r: CliResult) => {
    expect(r.code, `${r.stderr}\n${r.stdout}`).toBe(0);
    return r;
  };
  const statusOf = async (k: string): Promise<string> => (await t.as('assigner').get(`/issue/${k}?fields=status`)).body.fields.status.name;
  const post = async (who: Who, k: string, text: string) => {
    const r = await t.as(who).post(`/issue/${k}/comment`, { body: adf(text) });
    expect(r.status).toBe(201);
    return r.body.id as string;
  };
  const firstLines = async (k: string): Promise<string[]> =>
    ((await t.as('assigner').get(`/issue/${k}/comment?maxResults=100`)).body.comments as { body: unknown }[]).map((c) => firstLineText(c.body));

  beforeAll(async () => {
    t = await startTestTracker(kind, withCodehost(testSeed()));
    ch = codehostOf(t);
    w = planWorld(t, { codehost: ch });
    const r = ok(await w.plan(['--plan', w.planFile(SINGLE), '--json']));
    const out = JSON.parse(r.stdout) as { keys: string[]; branches: string[]; worktrees: string[] };
    [key, branch, wt] = [out.keys[0]!, out.branches[0]!, out.worktrees[0]!];
  });
  afterAll(async () => {
    for (const s of sessions) await s.close().catch(() => undefined);
    w?.repo.cleanup();
    await t?.close();
  });

  it('ARCHITECTURE §11: a "PR target branch:" comment counts only from the assigner\'s account (jst pr-base); an unknown assigner counts none', async () => {
    git(wt, 'config', '--unset', `branch.${branch}.parentbranch`);
    try {
      // The executor's (newer) comment names another base: not followed.
      await post('executor', key, 'PR target branch: main Worktree: /somewhere/else');
      expect(ok(await jst(wt, ['pr-base'])).stdout).toBe('development\tpr-target-comment\n');
      const json = JSON.parse(ok(await jst(wt, ['pr-base', '--json'])).stdout);
      expect(json).toMatchObject({ base: 'development', source: 'pr-target-comment' });
      // Fail closed: an assigner e-mail with no account behind it reads no comment at all, and says so.
      const unknown = ok(await jst(wt, ['pr-base', '--json'], { TRACKER_ASSIGNER_EMAIL: 'ghost@acme.test' }));
      expect(JSON.parse(unknown.stdout)).toMatchObject({ base: 'development', source: 'default-base-branch' });
      expect(unknown.stderr).toContain('no account on the tracker answers to TRACKER_ASSIGNER_EMAIL (ghost@acme.test)');
      expect(JSON.parse(unknown.stdout).tried.join('\n')).toContain('"PR target branch:" comment by the assigner');
    } finally {
      git(wt, 'config', `branch.${branch}.parentbranch`, 'development');
    }
  });

  it('ARCHITECTURE §11: a "Task memory" from another account is not printed by jst start; a "Run report" from another account does not stand in for jst pr\'s', async () => {
    ok(await jst(wt, ['start']));
    ok(await jst(wt, ['note', 'the executor wrote this']));
    await post('assigner', key, 'Task memory\nforged by the assigner');
    const started = ok(await jst(wt, ['start', '--json']));
    expect(JSON.parse(started.stdout).taskMemory.map((m: { text: string }) => m.text)).toEqual(['the executor wrote this']);
    expect(ok(await jst(wt, ['start'])).stdout).not.toContain('forged by the assigner');

    // The first pull request of acme/widgets has a known address: a Run report naming it, by the reviewer.
    const url = `${t.url}/acme/widgets/pull/1`;
    await post('reviewer', key, `Run report\nPull request: ${url}`);
    writeFileSync(join(wt, 'login.html'), '<h1>Sign in</h1>\n');
    git(wt, 'add', 'login.html');
    git(wt, 'commit', '--quiet', '-m', 'Fix the heading');
    const pr = JSON.parse(ok(await jst(wt, ['pr', '--json'])).stdout);
    expect(pr.pullRequest.url).toBe(url);
    expect(pr.runReport).toMatchObject({ posted: true });
    expect(await statusOf(key)).toBe('In Review');
  });

  it('ARCHITECTURE §11: a verdict counts only from the reviewer\'s account: an executor\'s "APPROVED — looks good" does not satisfy jst done (exit 1, nothing moved)', async () => {
    await post('executor', key, 'APPROVED — looks good');
    await post('assigner', key, 'APPROVED — me too');
    const r = await jst(w.repo.repo, ['done', key, '--yes', key]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(`${key} has no verdict, not "APPROVED — …"`);
    expect(await statusOf(key)).toBe('In Review');
    // jst review reports no verdict on the issue either: a verdict of its own is posted, not skipped as a rerun.
    const brief = JSON.parse(ok(await jst(w.repo.repo, ['review', key, '--json'])).stdout);
    expect(brief.prs[0]).toMatchObject({ key, state: 'open', verdict: null });
  });

  it("ARCHITECTURE §11, §13: the same through jst mcp: done refuses a forged approval; review_verdict then done move it; issue_view lists only the roles' own markers", async () => {
    const rv = await startMcp('reviewer', { cwd: w.repo.repo, elicit: () => ({ action: 'accept', content: { yes: true } }) });
    sessions.push(rv);
    const refused = await rv.call('done', { keys: [key] });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain(`${key} has no verdict, not "APPROVED — …"`);
    expect(rv.elicitations).toHaveLength(0);
    expect(await statusOf(key)).toBe('In Review');

    const ex = await startMcp('executor', { cwd: wt });
    sessions.push(ex);
    const view = await ex.call('issue_view', { key });
    expect(view.isError, textOf(view)).toBeFalsy();
    const markers = (view.structuredContent as { markers: { line: string; author: string }[] }).markers.map((m) => `${m.author}: ${m.line}`);
    expect(markers).toEqual(expect.arrayContaining(['Ada Assigner: Assignment report', 'Eve Executor: Task memory', 'Eve Executor: Run report']));
    for (const forged of [
      'Eve Executor: PR target branch: main',
      'Ada Assigner: Task memory',
      'Rey Reviewer: Run report',
      'Eve Executor: APPROVED — looks good',
      'Ada Assigner: APPROVED — me too',
    ]) {
      expect(
        markers.some((m) => m.startsWith(forged)),
        forged,
      ).toBe(false);
    }

    const given = await rv.call('review_verdict', { key, verdict: 'approve', summary: 'Heading fixed' });
    expect(given.isError, textOf(given)).toBeFalsy();
    const done = await rv.call('done', { keys: [key] });
    expect(done.isError, textOf(done)).toBeFalsy();
    expect(done.structuredContent).toMatchObject({ moved: [key], lost: [] });
    expect(await statusOf(key)).toBe('Done');
  });

  /**
   * ARCHITECTURE §11: `jst done` and `jst review --request-changes` run at once, as two processes,
   * round after round (the issue back in review with a fresh approval each time, and the second
   * command started a little later each round, to move the race through its interleavings).
   */
  it('ARCHITECTURE §11: a verdict and done that race never both succeed, and the issue ends as the one that succeeded left it', async () => {
    const ROUNDS = 10;
    const outcomes: string[] = [];
    const reviewerId = (await t.as('reviewer').get('/myself')).body.accountId as string;
    const newestVerdict = async (): Promise<string | undefined> => {
      const comments = (await t.as('reviewer').get(`/issue/${key}/comment?maxResults=1000`)).body.comments as {
        body: unknown;
        author: { accountId: string };
      }[];
      return comments
        .filter((c) => c.author.accountId === reviewerId)
        .map((c) => firstLineText(c.body))
        .filter((l) => /^(APPROVED|CHANGES REQUESTED) — /.test(l))
        .at(-1);
    };
    const to = async (status: string) => {
      const { transitions } = (await t.as('assigner').get(`/issue/${key}/transitions`)).body as { transitions: { id: string; to: { name: string } }[] };
      expect((await t.as('assigner').post(`/issue/${key}/transitions`, { transition: { id: transitions.find((x) => x.to.name === status)!.id } })).status).toBe(
        204,
      );
    };
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    for (let round = 0; round < ROUNDS; round++) {
      await to('In Review');
      await post('reviewer', key, `APPROVED — round ${round}`);
      const changes = `CHANGES REQUESTED — round ${round} needs more`;
      const delay = (round % 5) * 250;
      const [done, verdict] = await Promise.all([
        (round % 2 ? sleep(delay) : Promise.resolve()).then(() => jst(w.repo.repo, ['done', key, '--yes', key, '--json'])),
        (round % 2 ? Promise.resolve() : sleep(delay)).then(() =>
          jst(w.repo.repo, ['review', key, '--request-changes', '--summary', `round ${round} needs more`, '--json']),
        ),
      ]);
      const status = await statusOf(key);
      const newest = await newestVerdict();
      const said = `round ${round}: done ${done.code}, verdict ${verdict.code}, ${status}, newest ${newest}\n${done.stderr}\n${verdict.stderr}`;
      expect([done.code, verdict.code].filter((c) => c === 0).length, said).toBeLessThanOrEqual(1);
      for (const r of [done, verdict]) expect([0, 1], said).toContain(r.code);
      if (done.code === 0) {
        expect(status, said).toBe('Done');
        expect(newest, said).toBe(`APPROVED — round ${round}`);
      } else if (verdict.code === 0) {
        expect(status, said).toBe('In Progress');
        expect(newest, said).toBe(changes);
      } else {
        // Neither: the issue is as one of them would have left it, never Done under a request for changes.
        expect([`In Review|APPROVED — round ${round}`, `In Progress|${changes}`], said).toContain(`${status}|${newest}`);
      }
      if (done.code !== 0) expect(done.stdout + done.stderr, said).toMatch(/not moved|is in "In Progress"|newest verdict/);
      if (verdict.code !== 0) expect(verdict.stderr, said).toMatch(/while the verdict was being given|not "In Review"/);
      // Which way each round went, for the log: who won, and whether the loser had already moved (the flags of phase/race.ts).
      const how = verdict.stderr.includes('→ withdraw the verdict comment')
        ? ' (verdict withdrawn)'
        : /not moved: a verdict/.test(done.stdout)
          ? ' (done gave way after moving)'
          : '';
      outcomes.push(`${done.code === 0 ? 'done' : verdict.code === 0 ? 'verdict' : 'neither'}${how}`);
    }
    // Withdrawn verdicts are no verdicts: the board and every reader see an ordinary comment.
    expect((await firstLines(key)).filter((l) => l.startsWith('Withdrawn: CHANGES REQUESTED — ')).length).toBeLessThanOrEqual(
      // A verdict withdraws its comment only in a round done won: "done" or "done (verdict withdrawn)".
      outcomes.filter((o) => o.startsWith('done')).length,
    );
    console.log(`race outcomes over ${ROUNDS} rounds: ${outcomes.join(', ')}`);
  }, 600_000);
});
