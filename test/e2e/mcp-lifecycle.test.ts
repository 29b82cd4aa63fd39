import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstLineText } from '@jst/adf';
import { codehostOf, jstOnly, type EmbeddedCodehost, type RequestTap } from '../support/embedded-codehost.js';
import { runJst } from '../support/jst-cli.js';
import { startMcp, TEST_SECRETS, textOf, type McpSession } from '../support/mcp.js';
import { git } from '../support/repo.js';
import { CODEHOST_LOGIN, testSeed, withCodehost } from '../support/seed.js';
import { startTestTracker, type TestTracker } from '../support/tracker.js';
import { MULTISTEP, planWorld, type PlanWorld } from './plan-fixture.js';

const REPO = 'acme/widgets';

/**
 * ARCHITECTURE §13 over §11: phases 2 and 3 through the executor's and the reviewer's tools, with
 * origin on the tracker's embedded code host (§14) and no CODEHOST_REPO.
 */
describe('jst mcp, phases 2 and 3: start / note / pr_base / pr, review_brief / review_verdict / done', () => {
  let t: TestTracker;
  let ch: EmbeddedCodehost;
  let tap: RequestTap;
  let w: PlanWorld;
  let P: string, A: string, B: string;
  let pb: string, ab: string;
  let pw: string, aw: string;
  const sessions: McpSession[] = [];

  async function mcp(role: string, o: Omit<Parameters<typeof startMcp>[1], 'cwd'> = {}): Promise<McpSession> {
    const s = await startMcp(role, { cwd: w.repo.repo, ...o });
    sessions.push(s);
    return s;
  }
  const statusOf = async (key: string): Promise<string> => (await t.as('assigner').get(`/issue/${key}?fields=status`)).body.fields.status.name;
  const firstLines = async (key: string): Promise<string[]> =>
    ((await t.as('assigner').get(`/issue/${key}/comment?maxResults=100`)).body.comments as { body: unknown }[]).map((c) => firstLineText(c.body));
  const error = (r: { structuredContent?: unknown }) => (r.structuredContent as { error: { code: string; exitCode: number; question?: string } }).error;

  beforeAll(async () => {
    t = await startTestTracker('sqlite', withCodehost(testSeed()));
    ch = codehostOf(t);
    tap = ch.tap(jstOnly);
    w = planWorld(t, { codehost: ch });
    const r = await w.plan(['--plan', w.planFile({ ...MULTISTEP, steps: MULTISTEP.steps.slice(0, 2) }), '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { keys: string[]; branches: string[]; worktrees: string[] };
    [P, A, B] = out.keys as [string, string, string];
    [pb, ab] = out.branches as [string, string];
    [pw, aw] = out.worktrees as [string, string];
  });
  afterAll(async () => {
    for (const s of sessions) await s.close().catch(() => undefined);
    tap?.stop();
    w?.repo.cleanup();
    await t?.close();
  });

  it("the executor: start, note, pr_base and pr in the sub-task's worktree (cwd), pr with one progress notification per step", async () => {
    const ex = await mcp('executor');
    const started = await ex.call('start', { cwd: aw });
    expect(started.isError, textOf(started)).toBeFalsy();
    expect(await statusOf(A)).toBe('In Progress');

    const noted = await ex.call('note', { cwd: aw, text: 'serialiser first; quoting next' });
    expect(noted.isError, textOf(noted)).toBeFalsy();
    expect((await firstLines(A)).at(-1)).toBe('Task memory');

    // ARCHITECTURE §13 note {text, markdown}: with markdown the text becomes ADF nodes (a heading), as --markdown does.
    const md = await ex.call('note', { cwd: aw, text: '## Next\n\n- quoting', markdown: true });
    expect(md.isError, textOf(md)).toBeFalsy();
    const last = ((await t.as('assigner').get(`/issue/${A}/comment?maxResults=100`)).body.comments as { body: { content: { type: string }[] } }[]).at(-1)!;
    expect(last.body.content.map((n) => n.type)).toEqual(expect.arrayContaining(['heading', 'bulletList']));

    const base = await ex.call('pr_base', { cwd: aw });
    const cli = await runJst(['pr-base', '--json'], { cwd: aw });
    expect(base.structuredContent).toEqual(JSON.parse(cli.stdout));
    expect(base.structuredContent).toMatchObject({ base: pb, source: 'parentbranch' });
    expect(textOf(base)).toBe(`${pb}\tparentbranch`);

    // ARCHITECTURE §11: a branch with no commits beyond its base is refused, nothing pushed or posted.
    const before = tap.requests.length;
    const empty = await ex.call('pr', { cwd: aw });
    expect(empty.isError).toBe(true);
    expect(textOf(empty)).toContain('has no commits beyond');
    expect(error(empty)).toMatchObject({ code: 'refused', exitCode: 1 });
    expect(tap.calls(before).filter((c) => !c.startsWith('GET'))).toEqual([]);
    expect(await ch.pulls(REPO)).toEqual([]);
    expect(await statusOf(A)).toBe('In Progress');

    writeFileSync(join(aw, 'csv.ts'), 'export const csv = 1;\n');
    git(aw, 'add', 'csv.ts');
    git(aw, 'commit', '--quiet', '-m', 'CSV serialiser');
    const progress: string[] = [];
    const opened = await ex.call('pr', { cwd: aw, body: 'Serialises rows.\nQuotes per RFC 4180.' }, { progress });
    expect(opened.isError, textOf(opened)).toBeFalsy();
    expect(opened.structuredContent).toMatchObject({
      key: A,
      base: pb,
      pullRequest: { created: true, state: 'open' },
      transitioned: true,
      runReport: { posted: true },
    });
    expect(progress).toContain(`→ git push -u origin ${ab}`);
    expect(progress).toContain(`→ comment on ${A}: Run report`);
    const pulls = await ch.pulls(REPO);
    expect(pulls).toHaveLength(1);
    expect(pulls[0]).toMatchObject({
      head: ab,
      base: pb,
      state: 'open',
      user: CODEHOST_LOGIN,
      body: 'Serialises rows.\nQuotes per RFC 4180.',
      html_url: (opened.structuredContent as { pullRequest: { url: string } }).pullRequest.url,
    });
    expect(git(w.repo.origin, 'rev-parse', `refs/heads/${ab}`)).toBe(git(aw, 'rev-parse', 'HEAD'));
    expect(await statusOf(A)).toBe('In Review');
    expect((await firstLines(A)).at(-1)).toBe('Run report');
  });

  it('ARCHITECTURE §11: start on a parent without elicitation comes back as the question; nothing moved or pushed', async () => {
    const ex = await mcp('executor');
    const r = await ex.call('start', { cwd: pw });
    expect(r.isError).toBe(true);
    expect(error(r).question).toContain(`${P} has sub-tasks`);
    expect(error(r).exitCode).toBe(3);
    expect(await statusOf(P)).toBe('To Do');
  });

  it('ARCHITECTURE §11: start on a parent, the person declines: nothing moved', async () => {
    const ex = await mcp('executor', { elicit: () => ({ action: 'decline' }) });
    const r = await ex.call('start', { cwd: pw });
    expect(r.isError).toBe(true);
    expect(ex.elicitations[0]!.message).toContain(`${P} has sub-tasks`);
    expect(textOf(r)).toContain('the person declined');
    expect(await statusOf(P)).toBe('To Do');
  });

  it('the reviewer: review_brief, then review_verdict (one COMMENT review, the report on the issue)', async () => {
    const rv = await mcp('reviewer');
    const brief = await rv.call('review_brief', { key: P });
    expect(brief.isError, textOf(brief)).toBeFalsy();
    const cli = await runJst(['review', P, '--json'], { cwd: w.repo.repo });
    // The same brief; only the next steps are worded for the reader (tool inputs for an agent, flags for a person).
    const { next, ...rest } = brief.structuredContent as { next: string[] };
    const { next: cliNext, ...cliRest } = JSON.parse(cli.stdout) as { next: string[] };
    expect(rest).toEqual(cliRest);
    expect(next).toHaveLength(cliNext.length);
    expect(next.join('\n')).not.toContain('--approve');
    expect(brief.structuredContent).toMatchObject({ key: P, track: 'multistep' });

    const verdict = await rv.call('review_verdict', { key: A, verdict: 'approve', summary: 'Clean and tested', body: 'Nice quoting.' });
    expect(verdict.isError, textOf(verdict)).toBeFalsy();
    expect(verdict.structuredContent).toMatchObject({ key: A, verdict: 'APPROVED — Clean and tested' });
    const reviews = async () => (await ch.pulls(REPO)).find((p) => p.head === ab)!.reviews;
    expect(await reviews()).toEqual([{ user: CODEHOST_LOGIN, state: 'COMMENTED', firstLine: 'APPROVED — Clean and tested' }]);
    expect(await firstLines(A)).toContain('APPROVED — Clean and tested');
    // A rerun with the same verdict posts nothing.
    const again = await rv.call('review_verdict', { key: A, verdict: 'approve', summary: 'Clean and tested', body: 'Nice quoting.' });
    expect(again.structuredContent).toMatchObject({ rerun: true });
    expect(await reviews()).toHaveLength(1);
  });

  it("done refuses an issue that is not in review (isError, the command's text), nothing moved", async () => {
    const rv = await mcp('reviewer', { elicit: () => ({ action: 'accept', content: { yes: true } }) });
    const r = await rv.call('done', { keys: [B] });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain(`${B} is in "To Do", not "In Review"`);
    expect(rv.elicitations).toHaveLength(0);
    expect(await statusOf(B)).toBe('To Do');
  });

  it('ARCHITECTURE §11: done with no elicitation support moves nothing and returns the question', async () => {
    const rv = await mcp('reviewer');
    const r = await rv.call('done', { keys: [A] });
    expect(r.isError).toBe(true);
    expect(error(r)).toMatchObject({ code: 'question', exitCode: 3 });
    expect(error(r).question).toBe(`Move ${A} to "Done"?`);
    expect(textOf(r)).toContain('never answer it for them');
    expect(await statusOf(A)).toBe('In Review');
  });

  it('ARCHITECTURE §11: done, the person declines or cancels the question: nothing moved', async () => {
    for (const action of ['decline', 'cancel'] as const) {
      const rv = await mcp('reviewer', { elicit: () => ({ action }) });
      const r = await rv.call('done', { keys: [A] });
      expect(r.isError).toBe(true);
      expect(rv.elicitations.map((e) => e.message)).toEqual([`Move ${A} to "Done"?`]);
      expect(await statusOf(A)).toBe('In Review');
    }
  });

  it('ARCHITECTURE §11: done, the person answers no: not moved; yes: Done', async () => {
    const no = await mcp('reviewer', { elicit: () => ({ action: 'accept', content: { yes: false } }) });
    const r = await no.call('done', { keys: [A] });
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toMatchObject({ moved: [], declined: [A] });
    expect(await statusOf(A)).toBe('In Review');

    const yes = await mcp('reviewer', { elicit: () => ({ action: 'accept', content: { yes: true } }) });
    const ok = await yes.call('done', { keys: [A] });
    expect(ok.isError, textOf(ok)).toBeFalsy();
    expect(ok.structuredContent).toMatchObject({ moved: [A], declined: [] });
    expect(await statusOf(A)).toBe('Done');
  });

  it("no token (tracker or code host) in any result or on the servers' stderr", () => {
    const all = sessions.flatMap((s) => [...s.results, s.stderr()]).join('\n');
    expect(sessions.flatMap((s) => s.results).length).toBeGreaterThan(10);
    for (const secret of TEST_SECRETS) expect(all).not.toContain(secret);
  });
});
