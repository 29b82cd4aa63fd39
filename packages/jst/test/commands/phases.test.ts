import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codehostOf, type EmbeddedCodehost } from '../../../../test/support/embedded-codehost.js';
import { git, makeRepo, writeJstFiles, type TestRepo } from '../../../../test/support/repo.js';
import { testSeed, withCodehost } from '../../../../test/support/seed.js';
import { startTestTracker, type TestTracker } from '../../../../test/support/tracker.js';
import { planCommand, planDryRunCommand } from '../../src/commands/plan/plan/spec.js';
import { reviewCommand } from '../../src/commands/review/brief/spec.js';
import { doneCommand } from '../../src/commands/review/done/spec.js';
import { parentPrCommand } from '../../src/commands/review/parent-pr/spec.js';
import { reviewVerdictCommand } from '../../src/commands/review/verdict/spec.js';
import type { CommandSpec } from '../../src/commands/define.js';
import { noteCommand } from '../../src/commands/work/note/spec.js';
import { prBaseCommand } from '../../src/commands/work/pr-base/spec.js';
import { prCommand } from '../../src/commands/work/pr/spec.js';
import { startCommand } from '../../src/commands/work/start/spec.js';
import type { Outcome } from '../../src/core/output.js';
import { answering, fakeContext, runSpec } from './fake-context.js';

const REPO = 'acme/widgets';
const PLAN = {
  request: 'In-process export',
  summary: 'Export',
  scope: 'CSV only',
  acceptanceCriteria: ['Rows as CSV'],
  priority: 'High',
  steps: [{ summary: 'Serialiser', scope: 'pure', acceptanceCriteria: ['RFC 4180'] }],
};

/** Phases 1-3, each command's spec run in-process with a fake Context (real tracker, git, and the tracker's own code host). */
describe('command specs in-process: plan, start, note, pr-base, pr, review, verdict, parent-pr, done', () => {
  let t: TestTracker;
  let ch: EmbeddedCodehost;
  let repo: TestRepo;
  const statusOf = async (key: string): Promise<string> => (await t.as('assigner').get(`/issue/${key}?fields=status`)).body.fields.status.name;
  const json = <T = Record<string, any>>(o: Outcome | null) => o!.json as T;

  beforeAll(async () => {
    t = await startTestTracker('sqlite', withCodehost(testSeed()));
    ch = codehostOf(t);
    // origin is acme/widgets on the code host; the repository is read from it (no CODEHOST_REPO).
    repo = makeRepo({ codehost: ch.origin(REPO) });
    writeJstFiles(repo.repo, { trackerUrl: t.url, codehostUrl: ch.api, worktreesDir: repo.worktreesDir });
  });
  afterAll(async () => {
    repo?.cleanup();
    await t?.close();
  });

  it("the phases through the specs' own functions", async () => {
    const dry = await runSpec(planDryRunCommand, repo.repo, { plan: PLAN }, { tool: 'plan_dry_run' });
    expect(json(dry.outcome)).toMatchObject({ dryRun: true, alreadyPlanned: false });
    const planned = await runSpec(planCommand, repo.repo, { plan: PLAN }, { tool: 'plan' });
    const {
      keys: [P, A],
      worktrees: [, aw],
    } = json<{ keys: string[]; worktrees: string[] }>(planned.outcome) as { keys: [string, string]; worktrees: [string, string] };
    // ARCHITECTURE §13: the same plan again creates nothing.
    expect(json((await runSpec(planCommand, repo.repo, { plan: PLAN }, { tool: 'plan' })).outcome)).toMatchObject({ alreadyPlanned: true, keys: [P, A] });

    expect(json((await runSpec(startCommand, aw, { notes: 'go' })).outcome)).toMatchObject({ key: A, status: 'In Progress', verdict: null });
    expect(json((await runSpec(noteCommand, aw, { text: 'parser first' })).outcome)).toMatchObject({ key: A, text: 'Task memory\n\nparser first' });
    expect(json((await runSpec(prBaseCommand, aw, {})).outcome)).toMatchObject({ key: A, source: 'parentbranch' });
    writeFileSync(join(aw, 'csv.ts'), 'export const csv = 1;\n');
    git(aw, 'add', 'csv.ts');
    git(aw, 'commit', '--quiet', '-m', 'CSV');
    expect(json((await runSpec(prCommand, aw, { body: 'Rows.' })).outcome)).toMatchObject({ key: A, pullRequest: { created: true } });

    expect(json((await runSpec(reviewCommand, repo.repo, { key: P })).outcome)).toMatchObject({ key: P, track: 'multistep' });
    await runSpec(reviewVerdictCommand, repo.repo, { key: A, verdict: 'request-changes', summary: 'Quote commas', body: 'a,b breaks' });
    expect(await statusOf(A)).toBe('In Progress');
    const back = await runSpec(startCommand, aw, {}, { json: false });
    expect(back.out.indexOf('CHANGES REQUESTED — Quote commas')).toBeGreaterThan(-1);
    expect(back.out.indexOf('CHANGES REQUESTED — Quote commas')).toBeLessThan(back.out.indexOf('Task memory'));
    writeFileSync(join(aw, 'quote.ts'), 'export const q = 1;\n');
    git(aw, 'add', 'quote.ts');
    git(aw, 'commit', '--quiet', '-m', 'quote');
    await runSpec(prCommand, aw, {});
    // The CLI's review with --approve is the verdict.
    expect(json((await runSpec(reviewCommand, repo.repo, { key: A, approve: true, summary: 'Good' })).outcome)).toMatchObject({ verdict: 'APPROVED — Good' });
    await expect(runSpec(parentPrCommand, repo.repo, { key: P })).rejects.toMatchObject({ exitCode: 1 });

    // done: the person's yes through the context's prompt.
    const { ctx } = fakeContext(repo.repo, { prompt: answering(true) });
    const moved = await (doneCommand as unknown as CommandSpec).run(ctx, { keys: [A] }, { role: 'reviewer', json: true });
    ctx.close();
    expect(moved.json).toMatchObject({ moved: [A] });
    const pull = (await ch.pulls(REPO)).find((p) => p.head.includes(A))!;
    expect((await ch.octokit().pulls.merge({ owner: 'acme', repo: 'widgets', pull_number: pull.number })).data.merged).toBe(true);
    expect(json((await runSpec(parentPrCommand, repo.repo, { key: P })).outcome)).toMatchObject({ parentPr: { allMerged: true, opened: true } });
    expect(await statusOf(P)).toBe('In Review');
  }, 90_000);

  it('done refuses the parent in review without an APPROVED verdict (exit 1); nothing moved', async () => {
    await expect(runSpec(doneCommand, repo.repo, { keys: ['ABC-1'] })).rejects.toMatchObject({ exitCode: 1, code: 'DONE_NOT_APPROVED' });
    expect(await statusOf('ABC-1')).toBe('In Review');
  });

  it('a review verdict with both --approve and --request-changes is a usage error (exit 2)', async () => {
    await expect(runSpec(reviewCommand, repo.repo, { key: 'ABC-1', approve: true, requestChanges: true, summary: 'x' })).rejects.toMatchObject({ exitCode: 2 });
  });
});
