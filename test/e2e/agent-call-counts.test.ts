import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codehostOf } from '../support/embedded-codehost.js';
import { runJst, type CliResult } from '../support/jst-cli.js';
import { startMcp, textOf, type McpSession } from '../support/mcp.js';
import { git } from '../support/repo.js';
import { EMAILS, testSeed, withCodehost } from '../support/seed.js';
import { startTestTracker, type TestTracker } from '../support/tracker.js';
import { MULTISTEP, planWorld, type PlanWorld } from './plan-fixture.js';

/**
 * What the agents' path costs on jst's side, as requests per route the real tracker and its code
 * host receive (counted by a listener on the server; counts, never timings). Each command reads an
 * issue's comments once, asks GET /myself once per role, and a `jst mcp` session looks each role's
 * account up once until `.jst/` changes (ARCHITECTURE §11: a marker counts only from its role's
 * account, whatever the cache).
 */
describe("ARCHITECTURE §11, §13: the agents' path asks each thing once per command (requests counted per route)", () => {
  let t: TestTracker;
  let w: PlanWorld;
  let parent: string;
  let sub: string;
  let wt: string;
  const sessions: McpSession[] = [];
  const seen: string[] = [];

  const ok = (r: CliResult) => {
    expect(r.code, `${r.stderr}\n${r.stdout}`).toBe(0);
    return r;
  };
  /** `METHOD /route` with keys, ids and queries taken out; the code host's REST calls marked as such. */
  const shape = (method: string, url: string) =>
    `${method} ${url
      .replace(/\?.*/, '')
      .replace(/^\/ex\/jira\/[^/]+\/rest\/api\/3/, '')
      .replace(/^\/api\/v3/, 'codehost ')
      .replace(/[A-Z][A-Z0-9_]+-\d+/g, 'KEY')
      .replace(/\/\d+(?=\/|$)/g, '/n')}`;
  /** The requests `work` made, as a route → count map (git's own transport left out). */
  const counted = async (work: () => Promise<unknown>): Promise<Record<string, number>> => {
    const from = seen.length;
    await work();
    const out: Record<string, number> = {};
    for (const r of seen.slice(from)) if (!/\.git\//.test(r)) out[r] = (out[r] ?? 0) + 1;
    return out;
  };

  beforeAll(async () => {
    t = await startTestTracker('sqlite', withCodehost(testSeed()));
    t.server.app.server.on('request', (req) => seen.push(shape(req.method ?? '', req.url ?? '')));
    w = planWorld(t, { codehost: codehostOf(t) });
    const out = JSON.parse(ok(await w.plan(['--plan', w.planFile(MULTISTEP), '--json'])).stdout) as { keys: string[]; worktrees: string[] };
    [parent, sub, wt] = [out.keys[0]!, out.keys[1]!, out.worktrees[1]!];
    ok(await runJst(['start'], { cwd: wt }));
    writeFileSync(join(wt, 'csv.ts'), 'export const csv = 1;\n');
    git(wt, 'add', 'csv.ts');
    git(wt, 'commit', '--quiet', '-m', 'csv');
  });
  afterAll(async () => {
    for (const s of sessions) await s.close().catch(() => undefined);
    w?.repo.cleanup();
    await t?.close();
  });

  it('jst pr: the issue and its comments in one read, GET /myself once, the pull requests looked up once', async () => {
    const calls = await counted(async () => ok(await runJst(['pr'], { cwd: wt })));
    expect(calls).toEqual({
      'GET /issue/KEY': 2, // the status, the parent and every comment (PR base, the Run report of a rerun); the status read back after the move (spec §4 client rule 7)
      'GET /myself': 1, // the executor's own account: whose Run report counts
      'GET /issue/KEY/transitions': 1,
      'POST /issue/KEY/transitions': 1,
      'POST /issue/KEY/comment': 1, // the Run report
      'GET codehost /repos/acme/widgets/pulls': 1,
      'POST codehost /repos/acme/widgets/pulls': 1,
    });
  });

  it("jst review of the parent (the brief): the sub-tasks' pull requests in one read of those into the parent's branch, GET /user once", async () => {
    const calls = await counted(async () => ok(await runJst(['review', parent], { cwd: w.repo.repo })));
    expect(calls).toEqual({
      'GET /issue/KEY': 1,
      'GET codehost /repos/acme/widgets/pulls': 1, // every pull request into the parent's branch, for the three sub-tasks
      'GET codehost /user': 1,
      'GET codehost /repos/acme/widgets/pulls/n/reviews': 1, // this identity's verdict on the one pull request
    });
  });

  it('jst review --approve: the issue with its comments once, the sub-tasks for the tally in one search, GET /user and GET /myself once', async () => {
    const calls = await counted(async () => ok(await runJst(['review', sub, '--approve', '--summary', 'rows ok'], { cwd: w.repo.repo })));
    expect(calls).toEqual({
      'GET /issue/KEY': 2, // the sub-task (with its comments), the parent (with its comments: the tally)
      'POST /search/jql': 1, // the other sub-tasks' comments, for the tally
      'GET /myself': 1, // the reviewer's own account: whose verdicts count
      'POST /issue/KEY/comment': 2, // the verdict on the sub-task, the tally on the parent
      'GET codehost /user': 1,
      'GET codehost /repos/acme/widgets/pulls': 1,
      'GET codehost /repos/acme/widgets/pulls/n/reviews': 1,
      'POST codehost /repos/acme/widgets/pulls/n/reviews': 1,
    });
  });

  it('jst done with the yes on the command line: one read of the issue and its comments, one of the transitions, the move, one read after it (the status read back and the verdict, D2)', async () => {
    const calls = await counted(async () => ok(await runJst(['done', sub, '--yes', sub], { cwd: w.repo.repo })));
    expect(calls).toEqual({
      'GET /issue/KEY': 2, // before the move: status and verdict; after it: the read-back and D2 (phase/race.ts) in one
      'GET /issue/KEY/transitions': 1,
      'POST /issue/KEY/transitions': 1,
      'GET /myself': 1,
    });
  });

  it("MCP issue_view of a parent with markers: the roles' accounts looked up on the first call only; a new account for a role in .jst/ is looked up again and followed", async () => {
    const ex = await startMcp('executor', { cwd: w.repo.repo });
    sessions.push(ex);
    const markers = async () => {
      const r = await ex.call('issue_view', { key: parent });
      expect(r.isError, textOf(r)).toBeFalsy();
      return (r.structuredContent as { markers: { line: string; author: string }[] }).markers.map((m) => `${m.author}: ${m.line}`);
    };
    let listed: string[] = [];
    const first = await counted(async () => (listed = await markers()));
    expect(listed).toEqual(expect.arrayContaining(['Ada Assigner: Assignment report', 'Rey Reviewer: Review tally']));
    expect(first['GET /issue/KEY']).toBe(1);
    expect(first['GET /user/search']).toBe(2); // the assigner's and the reviewer's accounts, by e-mail
    for (let i = 0; i < 3; i++) expect(await counted(markers)).toEqual({ 'GET /issue/KEY': 1 });

    // The assigner's e-mail now names another account: the same comments no longer count as the assigner's.
    const local = join(w.repo.repo, '.jst', 'local.env');
    const before = readFileSync(local, 'utf8');
    expect(before).toContain(`TRACKER_ASSIGNER_EMAIL=${EMAILS.assigner}`);
    writeFileSync(local, before.replace(`TRACKER_ASSIGNER_EMAIL=${EMAILS.assigner}`, `TRACKER_ASSIGNER_EMAIL=${EMAILS.viewer}`));
    const moved = await counted(async () => (listed = await markers()));
    expect(listed.some((m) => m.startsWith('Ada Assigner: '))).toBe(false);
    expect(listed).toContain('Rey Reviewer: Review tally');
    expect(moved['GET /user/search']).toBeGreaterThanOrEqual(1);
    expect(await counted(markers)).toEqual({ 'GET /issue/KEY': 1 });

    writeFileSync(local, before);
    expect(await markers()).toEqual(expect.arrayContaining(['Ada Assigner: Assignment report', 'Rey Reviewer: Review tally']));
  });
});
