import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJst } from '../support/jst-cli.js';
import { dispatchWorld, EXECUTOR_AGENT, lastDoc, REVIEWER_AGENT, type DispatchWorld } from './dispatch-fixture.js';

/**
 * ARCHITECTURE §15: `jst dispatch` drives phases 2 and 3 with scripted agents (shell scripts that
 * run jst's own commands) on a real jst-tracker that is also the code host: plan → rounds → every
 * sub-task approved and waiting for the person → the person's done and merges → the parent's turn.
 */
describe('ARCHITECTURE §15: jst dispatch runs the whole loop with scripted agents', () => {
  let d: DispatchWorld;
  const status = async (key: string) => (await d.t.as('assigner').get(`/issue/${key}?fields=status`)).body.fields.status.name as string;

  beforeAll(async () => {
    d = await dispatchWorld(3);
    d.agents(d.script('executor.sh', EXECUTOR_AGENT), d.script('reviewer.sh', REVIEWER_AGENT));
  }, 120_000);
  afterAll(async () => {
    await d?.close();
  });

  it('ARCHITECTURE §15: --dry-run says what it would start and why, starts nothing and writes no journal', async () => {
    const [, A, B, C] = d.keys as [string, string, string, string];
    const r = await d.dispatch('--dry-run', '--once', '--json');
    expect(r.code, r.stderr).toBe(0);
    const doc = lastDoc(r);
    expect(doc).toMatchObject({ pass: 1, dryRun: true, started: [], searches: 3, commentReads: 0 });
    expect(doc.wouldStart.map((x: { key: string; role: string; round: number; handOff: string }) => [x.key, x.role, x.round, x.handOff])).toEqual([
      [A, 'executor', 1, 'start'],
      [B, 'executor', 1, 'start'],
      [C, 'executor', 1, 'start'],
    ]);
    expect(doc.wouldStart[0].why).toContain('worktree');
    expect(d.runs()).toEqual([]);
    expect(existsSync(join(d.w.repo.repo, '.jst', 'dispatch-journal.json'))).toBe(false);
    const text = await d.dispatch('--dry-run', '--once');
    expect(text.stdout).toContain(`would start ${A}: executor's agent, round 1, in ${d.worktrees[1]}`);
  });

  it('ARCHITECTURE §15: rounds bring every sub-task to approved, waiting for the person; the parent follows their done', async () => {
    const [P, A, B, C] = d.keys as [string, string, string, string];
    const subs = [A, B, C];
    // Round after round until every sub-task waits for the person (at most 2 agents at once).
    let doc: { waiting: { key: string; command: string | null }[]; started: unknown[] } = { waiting: [], started: [] };
    for (let i = 0; i < 12; i += 1) {
      const r = await d.dispatch('--once', '--json');
      expect(r.code, r.stderr + readLogs()).toBe(0);
      doc = lastDoc(r);
      if (subs.every((k) => doc.waiting.some((w) => w.key === k && w.command === `jst done ${k} --yes ${k}`))) break;
    }
    for (const k of subs) expect(await status(k)).toBe('In Review');
    expect(doc.waiting.filter((w) => w.command).map((w) => w.command)).toEqual(subs.map((k) => `jst done ${k} --yes ${k}`));
    // Each sub-task: executor round 1, reviewer round 2 (changes), executor round 3, reviewer round 4 (approve); one agent each.
    const starts = d.runs().filter((x) => x.what === 'start');
    for (const k of subs)
      expect(starts.filter((x) => x.key === k).map((x) => [x.role, x.round])).toEqual([
        ['executor', 1],
        ['reviewer', 2],
        ['executor', 3],
        ['reviewer', 4],
      ]);
    expect(
      d
        .runs()
        .filter((x) => x.what === 'end')
        .every((x) => x.code === 0),
    ).toBe(true);
    // Nothing more to start: an idle round costs three searches and no comment read.
    const idle = lastDoc(await d.dispatch('--once', '--json'));
    expect(idle).toMatchObject({ started: [], searches: 3, commentReads: 0 });
    const logs = join(d.w.repo.repo, '.jst', 'dispatch');
    expect(readFileSync(join(logs, `${A}-1.log`), 'utf8')).toContain(`=== jst dispatch: ${A} executor round 1 attempt 1 (start)`);

    // The person: done (their yes), then the merges on the code host.
    const done = await runJst(['done', ...subs, '--yes', ...subs], { cwd: d.w.repo.repo });
    expect(done.code, done.stderr).toBe(0);
    for (const p of (await d.ch.pulls('acme/widgets')).filter((x) => x.state === 'open')) {
      await d.ch.octokit().pulls.merge({ owner: 'acme', repo: 'widgets', pull_number: p.number });
    }
    // The parent's turn: the reviewer's agent opens its pull request and approves it.
    const parent = await d.dispatch('--once', '--json');
    expect(parent.code, parent.stderr + readLogs()).toBe(0);
    expect(lastDoc(parent).started.map((x: { key: string; role: string; handOff: string }) => [x.key, x.role, x.handOff])).toEqual([
      [P, 'reviewer', 'parent-pr'],
    ]);
    expect(await status(P)).toBe('In Review');
    expect((await d.ch.pulls('acme/widgets')).find((p) => p.head === d.branches[0])).toMatchObject({ base: 'development', state: 'open' });
    const last = lastDoc(await d.dispatch('--once', '--json'));
    expect(last.started).toEqual([]);
    expect(last.waiting).toEqual([{ key: P, why: 'approved: waiting for the person', command: `jst done ${P} --yes ${P}` }]);
    // Dispatch never ran done: the parent is still In Review.
    expect(await status(P)).toBe('In Review');
  }, 400_000);

  function readLogs(): string {
    const dir = join(d.w.repo.repo, '.jst', 'dispatch');
    if (!existsSync(dir)) return '';
    return readdirSync(dir)
      .map((f) => `\n--- ${f}\n${readFileSync(join(dir, f), 'utf8')}`)
      .join('');
  }
});
