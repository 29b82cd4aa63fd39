import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstLineText } from '@jst/adf';
import { startCodehost, type TestCodehost } from '../support/codehost.js';
import { runJst, type CliResult } from '../support/jst-cli.js';
import { CODEHOST_TOKEN, git } from '../support/repo.js';
import { startTestTracker, type TestTracker } from '../support/tracker.js';
import { MULTISTEP, planWorld, type PlanWorld } from './plan-fixture.js';

const REPO = 'acme/widgets';
const PULLS = `/repos/${REPO}/pulls`;

/**
 * ARCHITECTURE §11, issue 13 must-show 1: the whole lifecycle on a real jst-tracker, real git with
 * a bare origin and the code-host stand-in: plan → start → commits → pr → review → done, then the
 * parent's pull request → review → done. Every status change, comment first line, git ref and
 * code-host call is asserted as it happens.
 */
describe('spec §1 phases 1-3, end to end: plan → start → pr → review → done (ARCHITECTURE §11)', () => {
  let t: TestTracker;
  let ch: TestCodehost;
  let w: PlanWorld;
  let keys: string[];
  let branches: string[];
  let worktrees: string[];

  const jst = async (cwd: string, ...args: string[]): Promise<CliResult> => runJst(args, { cwd });
  const ok = (r: CliResult) => { expect(r.code, `${r.stderr}\n${r.stdout}`).toBe(0); return r; };
  const json = (r: CliResult) => JSON.parse(ok(r).stdout);
  const statusOf = async (key: string): Promise<string> => (await t.as('assigner').get(`/issue/${key}?fields=status`)).body.fields.status.name;
  const firstLines = async (key: string): Promise<string[]> => ((await t.as('assigner').get(`/issue/${key}/comment?maxResults=100`)).body.comments as { body: unknown }[]).map((c) => firstLineText(c.body));
  const lastComments = async (key: string, n: number): Promise<{ body: unknown }[]> => ((await t.as('assigner').get(`/issue/${key}/comment?maxResults=100`)).body.comments as { body: unknown }[]).slice(-n);
  const commit = (wt: string, file: string, text: string) => { writeFileSync(join(wt, file), text); git(wt, 'add', file); git(wt, 'commit', '--quiet', '-m', `work on ${file}`); };
  const originSha = (branch: string) => git(w.repo.origin, 'rev-parse', `refs/heads/${branch}`);
  const pullOf = (head: string) => ch.pulls.find((p) => p.head === head)!;

  beforeAll(async () => {
    t = await startTestTracker('sqlite');
    ch = await startCodehost({ token: CODEHOST_TOKEN, repos: [REPO], login: 'rey-reviewer' });
    w = planWorld(t, { local: (lines) => [...lines, `CODEHOST_API_URL=${ch.url}`, `CODEHOST_REPO=${REPO}`] });
    const plan = json(await w.plan(['--plan', w.planFile({ ...MULTISTEP, steps: MULTISTEP.steps.slice(0, 2) }), '--json']));
    ({ keys, branches, worktrees } = plan);
  });
  afterAll(async () => {
    w?.repo.cleanup();
    await ch?.close();
    await t?.close();
  });

  it('runs the whole lifecycle', async () => {
    const [P, A, B] = keys as [string, string, string];
    const [pb, ab, bb] = branches as [string, string, string];
    const [pw, aw, bw] = worktrees as [string, string, string];
    expect(git(w.repo.repo, 'config', `branch.${ab}.gh-merge-base`)).toBe(pb);

    // --- phase 2: start in each sub-task worktree (parent branch merged in: already up to date).
    for (const [key, wt] of [[A, aw], [B, bw]] as const) {
      const r = ok(await jst(wt, 'start'));
      expect(r.stderr).toContain(`is up to date with origin/${pb}`);
      expect(r.stderr).toContain('→ git fetch origin');
      expect(r.stdout).toContain('jst pr');
      expect(await statusOf(key)).toBe('In Progress');
    }
    expect(ok(await jst(aw, 'pr-base')).stdout).toBe(`${pb}\tparentbranch\n`);

    // --- task memory, then printed by the next start.
    ok(await jst(aw, 'note', 'serialiser done; quoting next'));
    expect((await firstLines(A)).at(-1)).toBe('Task memory');
    expect(ok(await jst(aw, 'start')).stdout).toContain('Task memory (1 earlier note):\n  - serialiser done; quoting next');
    // --markdown: CommonMark made into ADF nodes after the literal marker line; without it, literal text.
    const md = join(w.repo.root, 'note.md');
    writeFileSync(md, '## Next\n\n- quoting\n  - commas\n\n```ts\nconst q = 1;\n```\n');
    ok(await jst(aw, 'note', '--body-file', md, '--markdown'));
    ok(await jst(aw, 'note', '--body-file', md));
    const [withMd, literal] = (await lastComments(A, 2)).map((c) => c.body as { content: { type: string }[] });
    expect(withMd!.content.map((n) => n.type)).toEqual(['paragraph', 'heading', 'bulletList', 'codeBlock']);
    expect(firstLineText(withMd)).toBe('Task memory');
    expect(literal!.content.every((n) => n.type === 'paragraph')).toBe(true);
    expect(JSON.stringify(literal)).toContain('"## Next"');

    // --- commits, then pr each into the parent branch.
    commit(aw, 'csv.ts', 'export const csv = 1;\n');
    commit(bw, 'download.ts', 'export const download = 1;\n');
    let from = ch.requests.length;
    const prA = json(await jst(aw, 'pr', '--json'));
    expect(ch.calls(from)).toEqual([`GET ${PULLS}`, `POST ${PULLS}`]);
    expect(ch.requests[from]!.path).toBe(`${PULLS}?head=acme%3A${encodeURIComponent(ab)}&base=${encodeURIComponent(pb)}&state=all`);
    expect(ch.requests[from + 1]!.body).toMatchObject({ head: ab, base: pb, draft: false, title: `${A}: ${MULTISTEP.steps[0]!.summary}` });
    expect(prA).toMatchObject({ key: A, base: pb, baseSource: 'parentbranch', commits: 1, pullRequest: { created: true, state: 'open' }, transitioned: true, runReport: { posted: true } });
    expect(originSha(ab)).toBe(git(aw, 'rev-parse', 'HEAD'));
    expect(await statusOf(A)).toBe('In Review');
    expect((await firstLines(A)).at(-1)).toBe('Run report');
    ok(await jst(bw, 'pr'));
    expect(await statusOf(B)).toBe('In Review');

    // A rerun finds the open pull request: no second one, no second Run report.
    from = ch.requests.length;
    const again = json(await jst(aw, 'pr', '--json'));
    expect(again).toMatchObject({ pullRequest: { created: false, number: prA.pullRequest.number }, transitioned: false, runReport: { posted: false } });
    expect(ch.calls(from)).toEqual([`GET ${PULLS}`]);
    expect((await firstLines(A)).filter((l) => l === 'Run report')).toHaveLength(1);
    expect(ch.pulls).toHaveLength(2);

    // --- phase 3: the brief, from the main checkout.
    from = ch.requests.length;
    const brief = json(await jst(w.repo.repo, 'review', P, '--json'));
    expect(brief.track).toBe('multistep');
    expect(brief.prs.map((e: { key: string; base: string; state: string; verdict: unknown }) => [e.key, e.base, e.state, e.verdict])).toEqual([[A, pb, 'open', null], [B, pb, 'open', null]]);
    expect(ch.calls(from)).toContain('GET /user');

    // Verdicts: A approved, B changes requested.
    from = ch.requests.length;
    ok(await jst(w.repo.repo, 'review', A, '--approve', '--summary', 'Clean and tested'));
    expect(ch.calls(from)).toEqual([`GET ${PULLS}`, 'GET /user', `GET ${PULLS}/${prA.pullRequest.number}/reviews`, `POST ${PULLS}/${prA.pullRequest.number}/reviews`]);
    expect(ch.requests.at(-1)!.body).toMatchObject({ event: 'COMMENT' });
    expect(pullOf(ab).reviews.map((r) => r.body.split('\n')[0])).toEqual(['APPROVED — Clean and tested']);
    expect((await firstLines(A)).at(-1)).toBe('APPROVED — Clean and tested');
    expect((await firstLines(P)).at(-1)).toBe('Review tally');
    expect(await statusOf(A)).toBe('In Review');

    const review = join(w.repo.root, 'review.md');
    writeFileSync(review, 'Please set the **Content-Type**:\n\n| header | value |\n| --- | --- |\n| Content-Type | text/csv |\n');
    ok(await jst(w.repo.repo, 'review', B, '--request-changes', '--summary', 'Set Content-Type', '--body-file', review, '--markdown'));
    const [changes] = (await lastComments(B, 1)).map((c) => c.body as { content: { type: string }[] });
    expect(changes!.content.map((n) => n.type)).toContain('table');
    expect(await statusOf(B)).toBe('In Progress');
    expect((await firstLines(B)).at(-1)).toBe('CHANGES REQUESTED — Set Content-Type');

    // The same verdict again posts nothing anywhere.
    const comments = (await firstLines(A)).length;
    from = ch.requests.length;
    const rerun = json(await jst(w.repo.repo, 'review', A, '--approve', '--summary', 'Clean and tested', '--json'));
    expect(rerun.rerun).toBe(true);
    expect(ch.calls(from).filter((c) => c.startsWith('POST'))).toEqual([]);
    expect(await firstLines(A)).toHaveLength(comments);

    // B is fixed: a new round gets a new Run report, then the approval.
    commit(bw, 'download.ts', 'export const download = 2; // text/csv\n');
    const prB = json(await jst(bw, 'pr', '--json'));
    expect(prB).toMatchObject({ pullRequest: { created: false }, transitioned: true, runReport: { posted: true } });
    expect(await statusOf(B)).toBe('In Review');
    // The same marker from another account is an ordinary comment: never edited, never counted.
    const fake = (await t.as('assigner').post(`/issue/${P}/comment`, { body: { type: 'doc', version: 1, content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Review tally' }] }] } })).body;
    ok(await jst(w.repo.repo, 'review', B, '--approve', '--summary', 'Fixed'));
    // One Review tally on the parent, from the reviewer, edited in place by each of the three
    // verdicts (ARCHITECTURE §11), not one per verdict.
    const reviewerId = (await t.as('reviewer').get('/myself')).body.accountId as string;
    const onParent = (await t.as('assigner').get(`/issue/${P}/comment?maxResults=100`)).body.comments as { id: string; body: unknown; author: { accountId: string } }[];
    const tallies = onParent.filter((c) => firstLineText(c.body) === 'Review tally' && c.author.accountId === reviewerId);
    expect(tallies).toHaveLength(1);
    expect(JSON.stringify(tallies[0]!.body)).toContain('2 of 2 sub-tasks approved');
    expect(onParent.find((c) => c.id === fake.id)!.body).toEqual(fake.body);

    // --- done with an explicit yes for each key; a rerun is a no-op success.
    ok(await jst(w.repo.repo, 'done', A, B, '--yes', A, B));
    expect([await statusOf(A), await statusOf(B)]).toEqual(['Done', 'Done']);
    expect(json(await jst(w.repo.repo, 'done', A, '--json'))).toMatchObject({ moved: [], alreadyDone: [A] });

    // --- the sub-task pull requests are merged on the code host (and so into the parent branch).
    ch.merge(pullOf(ab).number);
    ch.merge(pullOf(bb).number);
    git(pw, 'fetch', '--quiet', 'origin');
    git(pw, 'merge', '--quiet', '--no-edit', `origin/${ab}`, `origin/${bb}`);
    git(pw, 'push', '--quiet', 'origin', pb);

    const parentBrief = json(await jst(w.repo.repo, 'review', P, '--json'));
    expect(parentBrief.prs).toEqual([expect.objectContaining({ key: P, branch: pb, base: 'development', state: 'none' })]);
    expect(parentBrief.next[0]).toContain('--open-parent-pr');
    from = ch.requests.length;
    const opened = json(await jst(w.repo.repo, 'review', P, '--open-parent-pr', '--json'));
    expect(ch.calls(from).filter((c) => c.startsWith('POST'))).toEqual([`POST ${PULLS}`]);
    expect(pullOf(pb)).toMatchObject({ base: 'development', state: 'open' });
    expect(opened.prs[0]).toMatchObject({ key: P, state: 'open', url: expect.stringContaining(`/pull/${pullOf(pb).number}`) });
    expect(await statusOf(P)).toBe('In Review');
    // It reports the status it moved the parent to, not the one it read before.
    expect(opened.status).toBe('In Review');
    expect((await firstLines(P)).at(-1)).toBe('Run report');

    ok(await jst(w.repo.repo, 'review', P, '--approve', '--summary', 'Ships'));
    expect(pullOf(pb).reviews.map((r) => r.body.split('\n')[0])).toEqual(['APPROVED — Ships']);
    ok(await jst(w.repo.repo, 'done', P, '--yes', P));
    expect(await statusOf(P)).toBe('Done');
    // Every code-host call carried the token as a Bearer header, and none printed it.
    expect(ch.requests.every((r) => r.authorization === `Bearer ${CODEHOST_TOKEN}`)).toBe(true);
  });
});
