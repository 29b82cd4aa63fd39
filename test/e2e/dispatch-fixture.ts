import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { codehostOf, type EmbeddedCodehost } from '../support/embedded-codehost.js';
import { JST_BIN, runJst, type CliResult } from '../support/jst-cli.js';
import { bwrapAvailable } from '../support/bwrap.js';
import { testSeed, withCodehost } from '../support/seed.js';
import { startTestTracker, type TestTracker } from '../support/tracker.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { JST_TEST_CACHE } from '../support/jst-cli.js';
import { MULTISTEP, planWorld, SINGLE, type PlanWorld } from './plan-fixture.js';

/**
 * A world for `jst dispatch` (ARCHITECTURE §15): a real jst-tracker that is also the code host, a
 * repository planned with `steps` sub-tasks, and scripted agents (shell scripts) that do what an
 * agent would, through jst's own commands, appending `start|end KEY ROLE ROUND MS` to one shared
 * log so the test can see every agent that ran, when, and for which issue and round.
 */
export interface DispatchWorld {
  t: TestTracker;
  ch: EmbeddedCodehost;
  w: PlanWorld;
  keys: string[];
  branches: string[];
  worktrees: string[];
  /** The shared log's lines, parsed. */
  runs(): { what: 'start' | 'end'; key: string; role: string; round: number; ms: number; code?: number }[];
  /** Writes a script under the world's folder, returns the command line that runs it. */
  script(name: string, body: string): string;
  /**
   * Sets AGENT_EXECUTOR_CMD / AGENT_REVIEWER_CMD in the main checkout's `.jst/team.env` (null leaves
   * one out), and `extra` team lines. Without a usable bubblewrap the agents run with AGENT_SANDBOX=none
   * (test/support/bwrap.ts), unless `extra` says otherwise.
   */
  agents(executor: string | null, reviewer: string | null, extra?: string[]): void;
  dispatch(...args: string[]): Promise<CliResult>;
  /** A dispatch left running (for a kill or a Ctrl-C): the process, and its output so far. */
  spawnDispatch(...args: string[]): { child: ChildProcess; out: { stdout: string; stderr: string }; exited: Promise<number | null> };
  close(): Promise<void>;
}

const sh = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export async function dispatchWorld(steps = 3): Promise<DispatchWorld> {
  const t = await startTestTracker('sqlite', withCodehost(testSeed()));
  const ch = codehostOf(t);
  const w = planWorld(t, { codehost: ch });
  const plan = await w.plan([
    '--plan',
    w.planFile(
      steps === 0
        ? SINGLE
        : {
            ...MULTISTEP,
            steps: Array.from({ length: steps }, (_, i) => ({ ...MULTISTEP.steps[i % 3]!, summary: `Step ${i + 1}: ${MULTISTEP.steps[i % 3]!.summary}` })),
          },
    ),
    '--json',
  ]);
  if (plan.code !== 0) throw new Error(`jst plan failed: ${plan.stderr}`);
  const { keys, branches, worktrees } = JSON.parse(plan.stdout) as { keys: string[]; branches: string[]; worktrees: string[] };
  // Inside the repository's git directory: the one folder outside its worktree a sandboxed agent
  // sees read-write (docs/dispatch.md "The sandbox"), so the scripts and their shared log work in it.
  const dir = join(w.repo.repo, '.git', 'test-agents');
  mkdirSync(join(dir, 'state'), { recursive: true });
  const shared = join(dir, 'runs.log');
  const team = join(w.repo.repo, '.jst', 'team.env');
  const base = readFileSync(team, 'utf8');
  return {
    t,
    ch,
    w,
    keys,
    branches,
    worktrees,
    runs: () =>
      (existsSync(shared) ? readFileSync(shared, 'utf8') : '')
        .split('\n')
        .filter(Boolean)
        .map((l) => {
          const [what, key, role, round, ms, code] = l.split(' ');
          return {
            what: what as 'start' | 'end',
            key: key!,
            role: role!,
            round: Number(round),
            ms: Number(ms),
            ...(code !== undefined ? { code: Number(code) } : {}),
          };
        }),
    script(name, body) {
      const file = join(dir, name);
      writeFileSync(
        file,
        [
          '#!/bin/sh',
          `jst() { ${sh(process.execPath)} ${sh(JST_BIN)} "$@"; }`,
          `SHARED=${sh(shared)}`,
          `STATE=${sh(join(dir, 'state'))}`,
          'now() { date +%s%3N; }',
          'echo "start $JST_ISSUE_KEY $JST_ROLE $JST_DISPATCH_ROUND $(now)" >> "$SHARED"',
          'finish() { code=$?; echo "end $JST_ISSUE_KEY $JST_ROLE $JST_DISPATCH_ROUND $(now) $code" >> "$SHARED"; }',
          'trap finish EXIT',
          'set -e',
          body,
        ].join('\n') + '\n',
      );
      chmodSync(file, 0o755);
      return sh(file);
    },
    agents(executor, reviewer, extra = []) {
      const sandbox = extra.some((l) => l.startsWith('AGENT_SANDBOX=')) || bwrapAvailable() ? [] : ['AGENT_SANDBOX=none'];
      const lines = [...(executor ? [`AGENT_EXECUTOR_CMD=${executor}`] : []), ...(reviewer ? [`AGENT_REVIEWER_CMD=${reviewer}`] : []), ...extra, ...sandbox];
      writeFileSync(team, base + lines.map((l) => `${l}\n`).join(''));
    },
    dispatch: (...args) => runJst(['dispatch', ...args], { cwd: w.repo.repo }),
    spawnDispatch(...args) {
      const child = spawn(process.execPath, [JST_BIN, 'dispatch', ...args], {
        cwd: w.repo.repo,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { PATH: process.env.PATH ?? '', HOME: w.repo.repo, XDG_CACHE_HOME: JST_TEST_CACHE, NO_COLOR: '1' },
      });
      const out = { stdout: '', stderr: '' };
      child.stdout.setEncoding('utf8').on('data', (c: string) => {
        out.stdout += c;
      });
      child.stderr.setEncoding('utf8').on('data', (c: string) => {
        out.stderr += c;
      });
      const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      return { child, out, exited };
    },
    async close() {
      w.repo.cleanup();
      await t.close();
    },
  };
}

/** The executor's scripted agent: start, a commit, a note, the pull request (ARCHITECTURE §11). */
export const EXECUTOR_AGENT = [
  'test "$JST_ROLE" = executor',
  'test "$(pwd -P)" = "$(cd "$JST_WORKTREE_DIR" && pwd -P)"',
  'jst start > /dev/null',
  'f="work-$JST_ISSUE_KEY-$JST_DISPATCH_ROUND.txt"',
  'echo "round $JST_DISPATCH_ROUND" > "$f"',
  'git add "$f"',
  'git -c user.name=Agent -c user.email=agent@example.test commit --quiet -m "$JST_ISSUE_KEY: $f"',
  'jst note "committed $f"',
  'jst pr > /dev/null',
].join('\n');

/**
 * The reviewer's scripted agent: for a parent, opens its pull request then approves it; for any
 * other issue, asks for changes on its first review and approves on its second.
 */
export const REVIEWER_AGENT = [
  'test "$JST_ROLE" = reviewer',
  'if [ "$JST_DISPATCH_HANDOFF" = parent-pr ]; then',
  '  jst review "$JST_ISSUE_KEY" --open-parent-pr > /dev/null',
  '  jst review "$JST_ISSUE_KEY" --approve --summary "Parent ships" > /dev/null',
  '  exit 0',
  'fi',
  'n=$(cat "$STATE/$JST_ISSUE_KEY.reviews" 2>/dev/null || echo 0); n=$((n + 1)); echo $n > "$STATE/$JST_ISSUE_KEY.reviews"',
  'if [ "$n" -eq 1 ]; then',
  '  jst review "$JST_ISSUE_KEY" --request-changes --summary "Add a test" > /dev/null',
  'else',
  '  jst review "$JST_ISSUE_KEY" --approve --summary "Looks right" > /dev/null',
  'fi',
].join('\n');

/** The last JSON document dispatch printed (one per round, one line each). */
export const lastDoc = (r: CliResult) => JSON.parse(r.stdout.trim().split('\n').at(-1)!);
