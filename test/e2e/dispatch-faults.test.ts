import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJst } from '../support/jst-cli.js';
import { TOKENS } from '../support/seed.js';
import { dispatchWorld, EXECUTOR_AGENT, lastDoc, REVIEWER_AGENT, type DispatchWorld } from './dispatch-fixture.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Every (issue, round) some agent started for more than once: must stay empty. */
function duplicates(d: DispatchWorld): string[] {
  const seen = new Map<string, number>();
  for (const x of d.runs().filter((r) => r.what === 'start')) seen.set(`${x.key}#${x.round}`, (seen.get(`${x.key}#${x.round}`) ?? 0) + 1);
  return [...seen].filter(([, n]) => n > 1).map(([k, n]) => `${k} ×${n}`);
}

describe('ARCHITECTURE §15: jst dispatch killed at any point and run again starts no second agent for an issue and round', () => {
  let d: DispatchWorld;
  beforeAll(async () => {
    d = await dispatchWorld(3);
    // Slow agents widen the windows a kill can land in (between journal, spawn, exit and the next round).
    d.agents(
      d.script('executor.sh', `sleep 0.$((RANDOM % 8 + 1)) 2>/dev/null || sleep 1\n${EXECUTOR_AGENT}`),
      d.script('reviewer.sh', `sleep 0.3\n${REVIEWER_AGENT}`),
    );
  }, 120_000);
  afterAll(async () => {
    await d?.close();
  });

  it('ARCHITECTURE §15: kill -9 at random points, rerun: never two agents for one issue and round', async () => {
    const subs = d.keys.slice(1);
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    let kills = 0;
    for (let i = 0; i < 40; i += 1) {
      const run = d.spawnDispatch('--interval', '1', '--json');
      await sleep(200 + Math.floor(random() * 2500));
      run.child.kill('SIGKILL');
      await run.exited;
      kills += 1;
      expect(duplicates(d)).toEqual([]);
      const waiting = subs.filter((k) => run.out.stdout.includes(`"command":"jst done ${k} --yes ${k}"`));
      if (waiting.length === subs.length) break;
    }
    // Then to the end without kills (orphaned agents finish on their own; a round sees them running).
    for (let i = 0; i < 10; i += 1) {
      const r = await d.dispatch('--once', '--json');
      const doc = lastDoc(r);
      if (subs.every((k) => doc.waiting.some((w: { command: string | null }) => w.command === `jst done ${k} --yes ${k}`))) break;
      if (!doc.started.length && doc.running.length) await sleep(500);
    }
    expect(kills).toBeGreaterThan(2);
    expect(duplicates(d)).toEqual([]);
    for (const k of subs) {
      expect(
        d
          .runs()
          .filter((x) => x.what === 'start' && x.key === k)
          .map((x) => `${x.role} ${x.round}`),
      ).toEqual(['executor 1', 'reviewer 2', 'executor 3', 'reviewer 4']);
    }
    // The journal is whole JSON after every kill (written to a temporary file, then renamed).
    const journal = JSON.parse(readFileSync(join(d.w.repo.repo, '.jst', 'dispatch-journal.json'), 'utf8'));
    expect(Object.keys(journal.agents).sort()).toEqual(subs.flatMap((k) => [1, 2, 3, 4].map((n) => `${k}#${n}`)).sort());
  }, 400_000);
});

describe('ARCHITECTURE §15: a failing agent, --max-agents, Ctrl-C and bad input', () => {
  let d: DispatchWorld;
  beforeAll(async () => {
    d = await dispatchWorld(3);
  }, 120_000);
  afterAll(async () => {
    await d?.close();
  });

  it('ARCHITECTURE §15: bad input is exit 2 naming the flag or setting, and nothing is started or written', async () => {
    d.agents(null, null);
    const none = await d.dispatch('--once');
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('AGENT_EXECUTOR_CMD and AGENT_REVIEWER_CMD are both unset in .jst/team.env');
    d.agents(d.script('never.sh', 'exit 0'), null);
    for (const [flag, value, text] of [
      ['--max-agents', '0', '--max-agents must be a whole number from 1 to 16 (got 0)'],
      ['--max-agents', '17', 'from 1 to 16 (got 17)'],
      ['--interval', 'soon', '--interval must be a whole number of seconds from 1 to 86400 (got NaN)'],
      ['--interval', '0.5', '(got 0.5)'],
    ] as const) {
      const r = await d.dispatch('--once', flag, value);
      expect(r.code, `${flag} ${value}`).toBe(2);
      expect(r.stderr).toContain(text);
    }
    const inWorktree = await runJst(['dispatch', '--once'], { cwd: d.worktrees[1]! });
    expect(inWorktree.code).toBe(2);
    expect(inWorktree.stderr).toContain('jst dispatch runs in the main checkout');
    expect(d.runs()).toEqual([]);
    expect(existsSync(join(d.w.repo.repo, '.jst', 'dispatch-journal.json'))).toBe(false);
    // A journal that is not JSON is a stop, never silently reset (it could start an agent twice).
    writeFileSync(join(d.w.repo.repo, '.jst', 'dispatch-journal.json'), '{"agents": ');
    const broken = await d.dispatch('--once');
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain('dispatch-journal.json is not valid JSON');
    expect(d.runs()).toEqual([]);
    writeFileSync(join(d.w.repo.repo, '.jst', 'dispatch-journal.json'), '{"version": 1, "agents": {}}\n');
    // A secret in a command line never leaves dispatch (--dry-run shows the commands it would run).
    d.agents(`my-agent --token ${TOKENS.executor}`, null);
    for (const args of [
      ['--dry-run', '--once', '--json'],
      ['--dry-run', '--once'],
    ]) {
      const r = await d.dispatch(...args);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout + r.stderr).not.toContain(TOKENS.executor);
    }
    expect(lastDoc(await d.dispatch('--dry-run', '--once', '--json')).wouldStart[0].command).toBe('my-agent --token ***');
  });

  it('ARCHITECTURE §15: an agent that exits 1 is reported, started once more on the next round, then left for the person', async () => {
    const A = d.keys[1]!;
    // It fails after jst start moved its issue to In Progress: no longer a To Do hand-off, still retried.
    d.agents(d.script('failing.sh', `[ "$JST_ISSUE_KEY" = ${A} ] && { jst start > /dev/null; exit 1; }\nexit 0`), null);
    // Only A's agent fails (A is first in key order); --once starts the others after it, one slot at a time.
    const first = await d.dispatch('--once', '--max-agents', '1', '--json');
    expect(first.code, first.stderr + first.stdout).toBe(1);
    expect(first.stderr).toContain(`✗ ${A}: executor's agent, round 1, exited 1`);
    expect(first.stderr).toContain('it is started once more on a later round');
    expect(lastDoc(first).exited.filter((x: { exitCode: number }) => x.exitCode !== 0)).toMatchObject([
      { key: A, role: 'executor', round: 1, attempt: 1, exitCode: 1, next: 'retry' },
    ]);
    expect((await d.t.as('assigner').get(`/issue/${A}?fields=status`)).body.fields.status.name).toBe('In Progress');
    const second = await d.dispatch('--once', '--max-agents', '1', '--json');
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`✗ ${A}: executor's agent, round 1, attempt 2, exited 1`);
    expect(lastDoc(second).started).toMatchObject([{ key: A, attempt: 2, why: expect.stringContaining('has not handed it on; again after a failed attempt') }]);
    expect(lastDoc(second).exited).toMatchObject([{ key: A, attempt: 2, exitCode: 1, next: 'left' }]);
    const third = await d.dispatch('--once', '--max-agents', '1', '--dry-run', '--json');
    expect(third.code).toBe(0);
    const doc = lastDoc(third);
    expect(doc.waiting).toContainEqual({
      key: A,
      why: expect.stringContaining(`failed 2 times: left for you, see ${join(d.w.repo.repo, '.jst', 'dispatch', `${A}-1.log`)}`),
      command: null,
    });
    expect(doc.wouldStart.map((x: { key: string }) => x.key)).not.toContain(A);
    expect(
      d
        .runs()
        .filter((x) => x.what === 'start')
        .map((x) => x.key),
    ).toEqual([A, d.keys[2], d.keys[3], A]);
  }, 120_000);

  it('ARCHITECTURE §15: --max-agents 1 never runs two agents at once; Ctrl-C starts no more and waits for the running one', async () => {
    const [, A, B, C] = d.keys as [string, string, string, string];
    // B's and C's agents exited 0 without handing on in the test above: forget them, keep A's failures.
    const j = join(d.w.repo.repo, '.jst', 'dispatch-journal.json');
    const kept = JSON.parse(readFileSync(j, 'utf8'));
    kept.agents = { [`${A}#1`]: kept.agents[`${A}#1`] };
    writeFileSync(j, JSON.stringify(kept));
    const before = d.runs().length;
    d.agents(d.script('slow.sh', 'sleep 1.5'), null);
    const run = d.spawnDispatch('--interval', '1', '--max-agents', '1');
    const deadline = Date.now() + 60_000;
    // A is left for the person (it failed twice); B's and C's agents exit 0 without a hand-off, one after the other.
    while (
      Date.now() < deadline &&
      d
        .runs()
        .slice(before)
        .filter((x) => x.what === 'end' && (x.key === B || x.key === C)).length < 2
    )
      await sleep(200);
    // Now a Ctrl-C while nothing more is due: dispatch ends after its running agents.
    run.child.kill('SIGINT');
    const code = await run.exited;
    expect(code, run.out.stderr).toBe(0);
    expect(run.out.stderr).toContain('jst dispatch: stopping: no new agents');
    const mine = d
      .runs()
      .slice(before)
      .filter((x) => x.key === B || x.key === C);
    const spans = [B, C]
      .map((k) => [mine.find((x) => x.key === k && x.what === 'start')!.ms, mine.find((x) => x.key === k && x.what === 'end')!.ms] as const)
      .sort((a, b) => a[0] - b[0]);
    expect(spans[1]![0]).toBeGreaterThanOrEqual(spans[0]![1]);
    expect(run.out.stderr.match(/^→ start /gm)).toHaveLength(2);
  }, 120_000);

  it('ARCHITECTURE §15: Ctrl-C while an agent runs waits for it to end', async () => {
    // A fresh journal makes round 1 of the two sub-tasks still in To Do due again (the tracker has not moved on).
    const gone = d.keys.slice(2);
    writeFileSync(join(d.w.repo.repo, '.jst', 'dispatch-journal.json'), '{"version": 1, "agents": {}}\n');
    d.agents(d.script('long.sh', 'sleep 2'), null);
    const before = d.runs().length;
    const run = d.spawnDispatch('--interval', '30', '--max-agents', '3');
    while (d.runs().length - before < 2) await sleep(100);
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(0);
    const after = d.runs().slice(before);
    expect(
      after
        .filter((x) => x.what === 'end')
        .map((x) => x.key)
        .sort(),
    ).toEqual([...gone].sort());
    expect(run.out.stderr.match(/^✓ /gm)).toHaveLength(2);
  }, 60_000);
});
