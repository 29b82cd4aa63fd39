import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchWorld, lastDoc, type DispatchWorld } from './dispatch-fixture.js';
import { processAlive } from '../support/processes.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const alive = processAlive;

/** The pids whose command line is exactly `argv`, read from /proc. */
function processesRunning(argv: string[]): number[] {
  const want = `${argv.join('\0')}\0`;
  return readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        return readFileSync(`/proc/${p}/cmdline`, 'utf8') === want;
      } catch {
        return false;
      }
    })
    .map(Number);
}

/**
 * ARCHITECTURE §15: the limits of `jst dispatch` (docs/dispatch.md, docs/limits.md): one dispatch per
 * checkout (its lock), one agent's time limit (AGENT_TIMEOUT_MINUTES), a journal read only in the
 * shape dispatch writes, and `--once` finishing its round's work at most `--max-agents` at a time.
 */
describe('ARCHITECTURE §15: the dispatch lock, the agent time limit, the journal shape, --once with few slots', () => {
  let d: DispatchWorld;
  let journal: string;
  let lock: string;
  const freshJournal = () => writeFileSync(journal, '{"version": 1, "agents": {}}\n');
  beforeAll(async () => {
    d = await dispatchWorld(3);
    journal = join(d.w.repo.repo, '.jst', 'dispatch-journal.json');
    lock = join(d.w.repo.repo, '.jst', 'dispatch', 'dispatch.lock');
  }, 120_000);
  afterAll(async () => {
    await d?.close();
  });

  it('ARCHITECTURE §15: --once --max-agents 1 starts every due agent, one after the other, and defers none', async () => {
    const subs = d.keys.slice(1);
    d.agents(d.script('quick.sh', 'sleep 0.3'), null);
    const r = await d.dispatch('--once', '--max-agents', '1', '--json');
    expect(r.code, r.stderr).toBe(0);
    const doc = lastDoc(r);
    expect(doc.started.map((x: { key: string }) => x.key)).toEqual(subs);
    expect(doc.deferred).toEqual([]);
    expect(doc.exited.map((x: { key: string; exitCode: number }) => [x.key, x.exitCode])).toEqual(subs.map((k) => [k, 0]));
    const runs = d.runs();
    const spans = subs.map((k) => [runs.find((x) => x.key === k && x.what === 'start')!.ms, runs.find((x) => x.key === k && x.what === 'end')!.ms] as const);
    for (let i = 1; i < spans.length; i += 1) expect(spans[i]![0]).toBeGreaterThanOrEqual(spans[i - 1]![1]);
    expect(existsSync(lock)).toBe(false);
  }, 60_000);

  it('ARCHITECTURE §15: a second dispatch in the checkout is exit 2 naming the lock and the pid holding it, and starts nothing', async () => {
    freshJournal();
    d.agents(d.script('slow.sh', 'sleep 3'), null);
    const before = d.runs().length;
    const first = d.spawnDispatch('--interval', '30', '--max-agents', '1');
    while (d.runs().length === before) await sleep(100);
    const journalThen = readFileSync(journal, 'utf8');
    for (const args of [['--once'], ['--once', '--json'], ['--interval', '5']]) {
      const second = await d.dispatch(...args);
      expect(second.code, args.join(' ')).toBe(2);
      expect(second.stderr).toContain(`another jst dispatch runs in this checkout: ${lock} is held by pid ${first.child.pid!}`);
    }
    expect(readFileSync(journal, 'utf8')).toBe(journalThen);
    first.child.kill('SIGINT');
    expect(await first.exited).toBe(0);
    // One agent ran, from the first dispatch only.
    expect(
      d
        .runs()
        .slice(before)
        .filter((x) => x.what === 'start'),
    ).toHaveLength(1);
    expect(existsSync(lock)).toBe(false);
  }, 60_000);

  it('ARCHITECTURE §15: a lock whose process is gone is stale: the next dispatch takes it over', async () => {
    freshJournal();
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const dead = Number(gone.stdout);
    expect(alive(dead)).toBe(false);
    mkdirSync(join(d.w.repo.repo, '.jst', 'dispatch'), { recursive: true });
    writeFileSync(lock, JSON.stringify({ pid: dead, startedAt: '2026-01-01T00:00:00.000Z' }));
    d.agents(d.script('ok.sh', 'true'), null);
    const r = await d.dispatch('--once', '--max-agents', '3', '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(lastDoc(r).started).toHaveLength(3);
    expect(existsSync(lock)).toBe(false);
  }, 60_000);

  it('ARCHITECTURE §15: an agent past AGENT_TIMEOUT_MINUTES has its process group stopped, counts as failed and is retried once', async () => {
    freshJournal();
    const A = d.keys[1]!;
    // The agent's shell waits on a child that would run for days; both are in the agent's group.
    const forever = String(900_000 + Math.floor(Math.random() * 99_999));
    d.agents(d.script('stuck.sh', `sleep ${forever} &\nwait`), null, ['AGENT_TIMEOUT_MINUTES=0.02']);
    const t0 = Date.now();
    const r = await d.dispatch('--once', '--max-agents', '3', '--json');
    expect(Date.now() - t0).toBeLessThan(30_000);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(`✗ ${A}: executor's agent, round 1, exited 143`);
    expect(r.stderr).toContain('stopped after 0.02 min (AGENT_TIMEOUT_MINUTES): it is started once more on a later round');
    expect(lastDoc(r).exited).toContainEqual(expect.objectContaining({ key: A, attempt: 1, exitCode: 143, next: 'retry', timedOut: true }));
    // Seen from here (a sandboxed agent's pids are its namespace's): no `sleep <forever>` is left.
    await sleep(300);
    expect(processesRunning(['sleep', forever])).toEqual([]);
    expect(readFileSync(join(d.w.repo.repo, '.jst', 'dispatch', `${A}-1.log`), 'utf8')).toContain('ran past its time limit (AGENT_TIMEOUT_MINUTES)');
    const again = await d.dispatch('--once', '--max-agents', '3', '--json');
    expect(again.code).toBe(1);
    expect(lastDoc(again).exited).toContainEqual(expect.objectContaining({ key: A, attempt: 2, next: 'left', timedOut: true }));
  }, 90_000);

  it('ARCHITECTURE §15: AGENT_TIMEOUT_MINUTES that is not minutes above 0 and at most 1440 is exit 2 naming it, nothing started', async () => {
    freshJournal();
    const before = d.runs().length;
    for (const value of ['0', 'soon', '1441', '-5', '1e3']) {
      d.agents(d.script('ok.sh', 'true'), null, [`AGENT_TIMEOUT_MINUTES=${value}`]);
      const r = await d.dispatch('--once');
      expect(r.code, value).toBe(2);
      expect(r.stderr).toContain(`AGENT_TIMEOUT_MINUTES must be a number of minutes above 0 and at most 1440 (got "${value}")`);
    }
    expect(d.runs().length).toBe(before);
    expect(readFileSync(journal, 'utf8')).toBe('{"version": 1, "agents": {}}\n');
  }, 60_000);

  it('ARCHITECTURE §15: a journal not in the shape dispatch writes is exit 2 naming the file and the entry; a log outside .jst/dispatch is never written', async () => {
    d.agents(d.script('ok.sh', 'true'), null);
    const A = d.keys[1]!;
    const outside = join(d.w.repo.repo, 'outside.log');
    const good = {
      key: A,
      round: 1,
      role: 'executor',
      handOff: 'start',
      worktree: d.worktrees[1],
      log: join(d.w.repo.repo, '.jst', 'dispatch', `${A}-1.log`),
      attempts: [{ startedAt: '2026-01-01T00:00:00.000Z', pid: null, endedAt: null, exitCode: 1 }],
    };
    const before = d.runs().length;
    for (const [entry, text] of [
      [null, 'is null, not an object'],
      [{ ...good, attempts: null }, 'has no "attempts" list'],
      [{ ...good, attempts: [null] }, 'has an attempt (1) that is not { startedAt, pid, endedAt, exitCode }'],
      [{ ...good, round: '1' }, 'has no "key" and whole "round" matching its name'],
      [{ ...good, role: 'assigner' }, 'has a "role" that is neither executor nor reviewer'],
      [{ ...good, log: outside }, `has a "log" outside ${join(d.w.repo.repo, '.jst', 'dispatch')}`],
      [{ ...good, log: join(d.w.repo.repo, '.jst', 'dispatch', '..', 'team.env') }, 'has a "log" outside'],
    ] as const) {
      const body = `${JSON.stringify({ version: 1, agents: { [`${A}#1`]: entry } })}\n`;
      writeFileSync(journal, body);
      const r = await d.dispatch('--once');
      expect(r.code, text).toBe(2);
      expect(r.stderr).toContain(`${journal}: the entry "${A}#1" ${text}`);
      expect(r.stderr).not.toContain('TypeError');
      expect(readFileSync(journal, 'utf8')).toBe(body);
    }
    expect(existsSync(outside)).toBe(false);
    expect(d.runs().length).toBe(before);
  }, 60_000);
});
