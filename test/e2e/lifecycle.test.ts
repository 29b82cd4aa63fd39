import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstLineText } from '@jst/adf';
import { codehostOf, jstOnly, type EmbeddedCodehost, type PullState, type RequestTap } from '../support/embedded-codehost.js';
import { runJst, type CliResult } from '../support/jst-cli.js';
import { git, gitAsync } from '../support/repo.js';
import { CODEHOST_LOGIN, CODEHOST_TOKEN, testSeed, withCodehost } from '../support/seed.js';
import { startTestTracker, type TestTracker } from '../support/tracker.js';
import { MULTISTEP, planWorld, type PlanWorld } from './plan-fixture.js';

const REPO = 'acme/widgets';
const PULLS = `/repos/${REPO}/pulls`;

/**
 * ARCHITECTURE §11, §14: the whole lifecycle on a real jst-tracker that is also the code host,
 * with origin ON that code host (git over HTTP, the token through git's credential helper) and no
 * CODEHOST_REPO: plan → start → note → pr → changes requested → pr → approve → done → the merge on
 * the code host → the parent's pull request → verdict → merge → done. Every status change, comment
 * first line, git ref, code-host call jst made (a tap on the server's requests) and the code host's
 * state (read back through its REST interface) is asserted as it happens.
 */
describe('spec §1 phases 1-3, end to end: plan → start → pr → review → done → merge, on the embedded code host (ARCHITECTURE §11, §14)', () => {
  let t: TestTracker;
  let ch: EmbeddedCodehost;
  let tap: RequestTap;
  let w: PlanWorld;
  let keys: string[];
  let branches: string[];
  let worktrees: string[];

  /** Everything jst printed in the run, for the check that no token is in it. */
  const printed: string[] = [];
  const jst = async (cwd: string, ...args: string[]): Promise<CliResult> => {
    const r = await runJst(args, { cwd });
    printed.push(r.stdout, r.stderr);
    return r;
  };
  const ok = (r: CliResult) => {
    expect(r.code, `${r.stderr}\n${r.stdout}`).toBe(0);
    return r;
  };
  const json = (r: CliResult) => JSON.parse(ok(r).stdout);
  const statusOf = async (key: string): Promise<string> => (await t.as('assigner').get(`/issue/${key}?fields=status`)).body.fields.status.name;
  const firstLines = async (key: string): Promise<string[]> =>
    ((await t.as('assigner').get(`/issue/${key}/comment?maxResults=100`)).body.comments as { body: unknown }[]).map((c) => firstLineText(c.body));
  const lastComments = async (key: string, n: number): Promise<{ body: unknown }[]> =>
    ((await t.as('assigner').get(`/issue/${key}/comment?maxResults=100`)).body.comments as { body: unknown }[]).slice(-n);
  const commit = (wt: string, file: string, text: string) => {
    writeFileSync(join(wt, file), text);
    git(wt, 'add', file);
    git(wt, 'commit', '--quiet', '-m', `work on ${file}`);
  };
  const originSha = (branch: string) => git(w.repo.origin, 'rev-parse', `refs/heads/${branch}`);
  const pulls = (): Promise<PullState[]> => ch.pulls(REPO);
  const pullOf = async (head: string): Promise<PullState> => (await pulls()).find((p) => p.head === head)!;
  /** Merges a pull request on the code host (GitHub's PUT …/merge), returning the merge commit. */
  const merge = async (n: number): Promise<string> => {
    const r = await ch.octokit().pulls.merge({ owner: 'acme', repo: 'widgets', pull_number: n });
    expect(r.status).toBe(200);
    expect(r.data.merged).toBe(true);
    return r.data.sha;
  };
  const isAncestor = (commit: string, branch: string): boolean => {
    try {
      git(w.repo.origin, 'merge-base', '--is-ancestor', commit, `refs/heads/${branch}`);
      return true;
    } catch {
      return false;
    }
  };

  beforeAll(async () => {
    t = await startTestTracker('sqlite', withCodehost(testSeed()));
    ch = codehostOf(t);
    tap = ch.tap(jstOnly);
    w = planWorld(t, { codehost: ch });
    expect(w.repo.git('config', 'remote.origin.url')).toBe(ch.gitUrl(REPO));
    // Only the two CODEHOST_* values: the repository comes from origin (ARCHITECTURE §14).
    const local = readFileSync(join(w.repo.repo, '.jst', 'local.env'), 'utf8');
    expect(local).toContain(`CODEHOST_API_URL=${ch.api}\n`);
    expect(local).not.toMatch(/^CODEHOST_REPO=/m);
    const plan = json(await w.plan(['--plan', w.planFile({ ...MULTISTEP, steps: MULTISTEP.steps.slice(0, 2) }), '--json']));
    ({ keys, branches, worktrees } = plan);
  });
  afterAll(async () => {
    tap?.stop();
    w?.repo.cleanup();
    await t?.close();
  });

  it('runs the whole lifecycle', async () => {
    const [P, A, B] = keys as [string, string, string];
    const [pb, ab, bb] = branches as [string, string, string];
    const [pw, aw, bw] = worktrees as [string, string, string];
    expect(git(w.repo.repo, 'config', `branch.${ab}.gh-merge-base`)).toBe(pb);
    // The status check reads origin's repository on the code host with the token.
    const health = json(await jst(w.repo.repo, 'healthcheck', '--role', 'reviewer', '--json'));
    expect(health.rows.find((r: { name: string }) => r.name === 'codehost_login')).toMatchObject({
      status: 'PASS',
      detail: expect.stringMatching(
        new RegExp(`^read ${REPO} \\(private\\) at ${ch.api}; executor: \\S+ \\(CODEHOST_PAT_TOKEN\\), reviewer: \\S+ \\(CODEHOST_PAT_TOKEN\\)$`),
      ),
    });

    // --- phase 2: start in each sub-task worktree (parent branch merged in: already up to date).
    for (const [key, wt] of [
      [A, aw],
      [B, bw],
    ] as const) {
      const r = ok(await jst(wt, 'start'));
      expect(r.stderr).toContain(`is up to date with origin/${pb}`);
      expect(r.stderr).toContain('→ git fetch origin');
      expect(r.stdout).toContain('jst pr');
      expect(await statusOf(key)).toBe('In Progress');
    }
    expect(ok(await jst(aw, 'pr-base')).stdout).toBe(`${pb}\tparentbranch\n`);

    // --- task memory, then printed by the next start.
    // Its next step is true: a commit first only while changes are uncommitted.
    writeFileSync(join(aw, 'draft.txt'), 'not yet committed\n');
    const dirtyNote = ok(await jst(aw, 'note', 'serialiser done; quoting next'));
    expect(dirtyNote.stdout).toContain('There are uncommitted changes: commit them (git commit), then jst pr when the work is done');
    rmSync(join(aw, 'draft.txt'));
    expect((await firstLines(A)).at(-1)).toBe('Task memory');
    expect(ok(await jst(aw, 'start')).stdout).toContain('Task memory (1 earlier note):\n  - serialiser done; quoting next');
    // --markdown: CommonMark made into ADF nodes after the literal marker line; without it, literal text.
    const md = join(w.repo.root, 'note.md');
    writeFileSync(md, '## Next\n\n- quoting\n  - commas\n\n```ts\nconst q = 1;\n```\n');
    const cleanNote = ok(await jst(aw, 'note', '--body-file', md, '--markdown'));
    expect(cleanNote.stdout).toContain('When the work is done: jst pr');
    expect(cleanNote.stdout).not.toContain('uncommitted');
    ok(await jst(aw, 'note', '--body-file', md));
    const [withMd, literal] = (await lastComments(A, 2)).map((c) => c.body as { content: { type: string }[] });
    expect(withMd!.content.map((n) => n.type)).toEqual(['paragraph', 'heading', 'bulletList', 'codeBlock']);
    expect(firstLineText(withMd)).toBe('Task memory');
    expect(literal!.content.every((n) => n.type === 'paragraph')).toBe(true);
    expect(JSON.stringify(literal)).toContain('"## Next"');

    // --- commits, then pr each into the parent branch.
    commit(aw, 'csv.ts', 'export const csv = 1;\n');
    commit(bw, 'download.ts', 'export const download = 1;\n');
    let from = tap.requests.length;
    const prA = json(await jst(aw, 'pr', '--json'));
    expect(tap.calls(from)).toEqual([`GET ${PULLS}`, `POST ${PULLS}`]);
    expect(tap.requests[from]!.path).toBe(`${PULLS}?head=acme%3A${encodeURIComponent(ab)}&base=${encodeURIComponent(pb)}&state=all`);
    expect(prA).toMatchObject({
      key: A,
      base: pb,
      baseSource: 'parentbranch',
      commits: 1,
      pullRequest: { created: true, state: 'open' },
      transitioned: true,
      runReport: { posted: true },
    });
    // On the code host: the pull request as jst opened it, by the token's account, from the pushed commit.
    const pullA = await pullOf(ab);
    expect(pullA).toMatchObject({
      number: prA.pullRequest.number,
      head: ab,
      base: pb,
      draft: false,
      state: 'open',
      merged: false,
      title: `${A}: ${MULTISTEP.steps[0]!.summary}`,
      user: CODEHOST_LOGIN,
      reviews: [],
    });
    expect(prA.pullRequest.url).toBe(pullA.html_url);
    expect(pullA.html_url).toBe(`${t.url}/${REPO}/pull/${pullA.number}`);
    expect(originSha(ab)).toBe(git(aw, 'rev-parse', 'HEAD'));
    expect((await ch.octokit().pulls.get({ owner: 'acme', repo: 'widgets', pull_number: pullA.number })).data.head.sha).toBe(originSha(ab));
    expect(await statusOf(A)).toBe('In Review');
    expect((await firstLines(A)).at(-1)).toBe('Run report');
    ok(await jst(bw, 'pr'));
    expect(await statusOf(B)).toBe('In Review');

    // A rerun finds the open pull request: no second one, no second Run report.
    from = tap.requests.length;
    const again = json(await jst(aw, 'pr', '--json'));
    expect(again).toMatchObject({ pullRequest: { created: false, number: prA.pullRequest.number }, transitioned: false, runReport: { posted: false } });
    expect(tap.calls(from)).toEqual([`GET ${PULLS}`]);
    expect((await firstLines(A)).filter((l) => l === 'Run report')).toHaveLength(1);
    expect((await pulls()).map((p) => [p.head, p.base, p.state])).toEqual([
      [ab, pb, 'open'],
      [bb, pb, 'open'],
    ]);

    // --- phase 3: the brief, from the main checkout.
    from = tap.requests.length;
    const brief = json(await jst(w.repo.repo, 'review', P, '--json'));
    expect(brief.track).toBe('multistep');
    expect(brief.prs.map((e: { key: string; base: string; state: string; verdict: unknown }) => [e.key, e.base, e.state, e.verdict])).toEqual([
      [A, pb, 'open', null],
      [B, pb, 'open', null],
    ]);
    expect(tap.calls(from)).toContain('GET /user');

    // Verdicts: A approved, B changes requested.
    from = tap.requests.length;
    ok(await jst(w.repo.repo, 'review', A, '--approve', '--summary', 'Clean and tested'));
    expect(tap.calls(from)).toEqual([
      `GET ${PULLS}`,
      'GET /user',
      `GET ${PULLS}/${prA.pullRequest.number}/reviews`,
      `POST ${PULLS}/${prA.pullRequest.number}/reviews`,
    ]);
    // One review of event COMMENT (GitHub's state COMMENTED) by the token's account, the verdict its first line.
    expect((await pullOf(ab)).reviews).toEqual([{ user: CODEHOST_LOGIN, state: 'COMMENTED', firstLine: 'APPROVED — Clean and tested' }]);
    expect((await firstLines(A)).at(-1)).toBe('APPROVED — Clean and tested');
    expect((await firstLines(P)).at(-1)).toBe('Review tally');
    expect(await statusOf(A)).toBe('In Review');

    const review = join(w.repo.root, 'review.md');
    writeFileSync(review, 'Please set the **Content-Type**:\n\n| header | value |\n| --- | --- |\n| Content-Type | text/csv |\n');
    const bChanges = ok(await jst(w.repo.repo, 'review', B, '--request-changes', '--summary', 'Set Content-Type', '--body-file', review, '--markdown'));
    expect(bChanges.stdout).toContain(`The executor, in ${bw} (${bb}): fix, commit, then jst pr`);
    const [changes] = (await lastComments(B, 1)).map((c) => c.body as { content: { type: string }[] });
    expect(changes!.content.map((n) => n.type)).toContain('table');
    expect(await statusOf(B)).toBe('In Progress');
    expect((await firstLines(B)).at(-1)).toBe('CHANGES REQUESTED — Set Content-Type');
    expect((await pullOf(bb)).reviews).toEqual([{ user: CODEHOST_LOGIN, state: 'COMMENTED', firstLine: 'CHANGES REQUESTED — Set Content-Type' }]);

    // The same verdict again posts nothing anywhere.
    const comments = (await firstLines(A)).length;
    const onHost = JSON.stringify(await pulls());
    from = tap.requests.length;
    const rerun = json(await jst(w.repo.repo, 'review', A, '--approve', '--summary', 'Clean and tested', '--json'));
    expect(rerun.rerun).toBe(true);
    expect(tap.calls(from).filter((c) => !c.startsWith('GET'))).toEqual([]);
    expect(JSON.stringify(await pulls())).toBe(onHost);
    expect(await firstLines(A)).toHaveLength(comments);

    // B is fixed: a new round gets a new Run report, then the approval.
    commit(bw, 'download.ts', 'export const download = 2; // text/csv\n');
    const prB = json(await jst(bw, 'pr', '--json'));
    expect(prB).toMatchObject({ pullRequest: { created: false }, transitioned: true, runReport: { posted: true } });
    expect(await statusOf(B)).toBe('In Review');
    expect(originSha(bb)).toBe(git(bw, 'rev-parse', 'HEAD'));
    expect((await pulls()).filter((p) => p.head === bb)).toHaveLength(1);
    // The same marker from another account is an ordinary comment: never edited, never counted.
    const fake = (
      await t
        .as('assigner')
        .post(`/issue/${P}/comment`, { body: { type: 'doc', version: 1, content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Review tally' }] }] } })
    ).body;
    ok(await jst(w.repo.repo, 'review', B, '--approve', '--summary', 'Fixed'));
    expect((await pullOf(bb)).reviews.map((r) => r.firstLine)).toEqual(['CHANGES REQUESTED — Set Content-Type', 'APPROVED — Fixed']);
    // One Review tally on the parent, from the reviewer, edited in place by each of the three
    // verdicts (ARCHITECTURE §11), not one per verdict.
    const reviewerId = (await t.as('reviewer').get('/myself')).body.accountId as string;
    const onParent = (await t.as('assigner').get(`/issue/${P}/comment?maxResults=100`)).body.comments as {
      id: string;
      body: unknown;
      author: { accountId: string };
    }[];
    const tallies = onParent.filter((c) => firstLineText(c.body) === 'Review tally' && c.author.accountId === reviewerId);
    expect(tallies).toHaveLength(1);
    expect(JSON.stringify(tallies[0]!.body)).toContain('2 of 2 sub-tasks approved');
    expect(onParent.find((c) => c.id === fake.id)!.body).toEqual(fake.body);

    // ARCHITECTURE §11: with both approved, the parent's brief offers only what remains (the person's
    // done), and names each diff as the command that shows it.
    const approvedBrief = ok(await jst(w.repo.repo, 'review', P));
    expect(approvedBrief.stdout).not.toContain('--approve');
    expect(approvedBrief.stdout).not.toContain('--request-changes');
    for (const [k, b] of [
      [A, ab],
      [B, bb],
    ] as const) {
      expect(approvedBrief.stdout).toContain(`${k} is approved: the person merges it with jst done ${k} --yes ${k}`);
      expect(approvedBrief.stdout).toContain(`${k}  git diff origin/${pb}...origin/${b}`);
    }
    expect(approvedBrief.stdout).not.toContain('<base>');

    // --- done with an explicit yes for each key; a rerun is a no-op success.
    ok(await jst(w.repo.repo, 'done', A, B, '--yes', A, B));
    expect([await statusOf(A), await statusOf(B)]).toEqual(['Done', 'Done']);
    expect(json(await jst(w.repo.repo, 'done', A, '--json'))).toMatchObject({ moved: [], alreadyDone: [A] });

    // ARCHITECTURE §11: a Done sub-task's pull request that is still open is listed, not hidden.
    const doneBrief = json(await jst(w.repo.repo, 'review', P, '--json'));
    expect(doneBrief.prs.map((e: { key: string; state: string }) => [e.key, e.state])).toEqual([
      [A, 'open'],
      [B, 'open'],
    ]);

    // --- the sub-task pull requests are merged on the code host (GitHub's PUT …/merge), into the parent branch.
    for (const head of [ab, bb]) {
      const pull = await pullOf(head);
      const tip = originSha(head);
      const mergeCommit = await merge(pull.number);
      expect(originSha(pb)).toBe(mergeCommit);
      expect(isAncestor(tip, pb)).toBe(true);
      expect(await pullOf(head)).toMatchObject({ state: 'closed', merged: true });
    }
    expect((await ch.octokit().pulls.checkIfMerged({ owner: 'acme', repo: 'widgets', pull_number: (await pullOf(ab)).number })).status).toBe(204);
    // A fetch over HTTP (git's credential helper, the token as the password) sees the merges.
    await gitAsync(pw, 'fetch', '--quiet', 'origin');
    expect(git(pw, 'rev-parse', `refs/remotes/origin/${pb}`)).toBe(originSha(pb));

    const parentBrief = json(await jst(w.repo.repo, 'review', P, '--json'));
    expect(parentBrief.prs).toEqual([expect.objectContaining({ key: P, branch: pb, base: 'development', state: 'none' })]);
    expect(parentBrief.next[0]).toContain('--open-parent-pr');
    from = tap.requests.length;
    const opened = json(await jst(w.repo.repo, 'review', P, '--open-parent-pr', '--json'));
    expect(tap.calls(from).filter((c) => !c.startsWith('GET'))).toEqual([`POST ${PULLS}`]);
    const parentPull = await pullOf(pb);
    expect(parentPull).toMatchObject({ base: 'development', state: 'open', merged: false, user: CODEHOST_LOGIN });
    expect(opened.prs[0]).toMatchObject({ key: P, state: 'open', url: parentPull.html_url });
    expect(await statusOf(P)).toBe('In Review');
    // It reports the status it moved the parent to, not the one it read before.
    expect(opened.status).toBe('In Review');
    expect((await firstLines(P)).at(-1)).toBe('Run report');

    // --- the parent's second round (ARCHITECTURE §11): changes requested on the parent's pull request.
    const parentChanges = ok(await jst(w.repo.repo, 'review', P, '--request-changes', '--summary', 'Add a changelog'));
    // Its Next names the parent's worktree by path and the steps that work for a parent.
    expect(parentChanges.stdout).toContain(`The executor, in ${pw} (${pb}): jst start --on-parent, fix, commit, then git push origin HEAD:${pb}`);
    expect(parentChanges.stdout).toContain(`Then the reviewer: jst review ${P} --open-parent-pr`);
    expect(await statusOf(P)).toBe('In Progress');
    const runReports = (await firstLines(P)).filter((l) => l === 'Run report').length;
    // Nothing pushed since: --open-parent-pr refuses, moves nothing, posts nothing.
    const early = await jst(w.repo.repo, 'review', P, '--open-parent-pr');
    expect(early.code).toBe(1);
    expect(early.stderr).toContain(`nothing was pushed to ${pb} since you requested changes on its pull request`);
    expect(await statusOf(P)).toBe('In Progress');
    expect((await firstLines(P)).filter((l) => l === 'Run report')).toHaveLength(runReports);
    // The executor in the parent's worktree: start merges origin/<parent branch> (the merged sub-tasks), then a fix and a plain push.
    const restart = ok(await jst(pw, 'start', '--on-parent'));
    expect(restart.stderr).toContain(`→ git merge --no-edit origin/${pb}`);
    expect(git(pw, 'rev-list', '--count', `HEAD..origin/${pb}`)).toBe('0');
    commit(pw, 'CHANGELOG.md', '# Export as CSV\n');
    await gitAsync(pw, 'push', '--quiet', 'origin', `HEAD:${pb}`);
    const fixed = originSha(pb);
    // Now the parent goes back to review, with the new round's Run report naming the new head.
    const reopened = json(await jst(w.repo.repo, 'review', P, '--open-parent-pr', '--json'));
    expect(reopened.status).toBe('In Review');
    expect(await statusOf(P)).toBe('In Review');
    expect((await firstLines(P)).filter((l) => l === 'Run report')).toHaveLength(runReports + 1);
    expect(JSON.stringify((await lastComments(P, 1))[0]!.body)).toContain(`Head: ${fixed}`);
    // A rerun posts no third Run report.
    ok(await jst(w.repo.repo, 'review', P, '--open-parent-pr'));
    expect((await firstLines(P)).filter((l) => l === 'Run report')).toHaveLength(runReports + 1);

    ok(await jst(w.repo.repo, 'review', P, '--approve', '--summary', 'Ships'));
    expect((await pullOf(pb)).reviews.map((r) => r.firstLine)).toEqual(['CHANGES REQUESTED — Add a changelog', 'APPROVED — Ships']);

    // --- the parent's pull request is merged on the code host: every sub-task's work is on development.
    const parentTip = originSha(pb);
    const merged = await merge(parentPull.number);
    expect(originSha('development')).toBe(merged);
    for (const branch of [pb, ab, bb]) expect(isAncestor(originSha(branch), 'development')).toBe(true);
    expect(isAncestor(parentTip, 'development')).toBe(true);
    expect(await pullOf(pb)).toMatchObject({ state: 'closed', merged: true });
    // Three pull requests in all, each merged; jst's verdicts are reviews, never conversation comments.
    expect((await pulls()).map((p) => [p.head, p.base, p.state, p.merged, p.comments])).toEqual([
      [ab, pb, 'closed', true, []],
      [bb, pb, 'closed', true, []],
      [pb, 'development', 'closed', true, []],
    ]);

    ok(await jst(w.repo.repo, 'done', P, '--yes', P));
    expect(await statusOf(P)).toBe('Done');
    // Every code-host call jst made carried the token as a Bearer header, and none printed it.
    expect(tap.requests.length).toBeGreaterThan(20);
    expect(tap.requests.filter((r) => r.authorization !== `Bearer ${CODEHOST_TOKEN}`)).toEqual([]);
    expect(printed.length).toBeGreaterThan(40);
    expect(printed.filter((text) => text.includes(CODEHOST_TOKEN))).toEqual([]);
    // About 45 jst processes one after the other, each a step of the lifecycle that depends on the one
    // before: 10-16 s alone, and twice that on a loaded two-CPU machine. The whole story is legitimately
    // long, so it gets its own timeout rather than the 30 s every other test keeps.
  }, 120_000);
});
