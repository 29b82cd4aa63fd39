// What bench/ab-read.mjs and bench/ab-write.mjs share: the processes they start (each killed if the
// run fails), a tracker build started on a store, one load measured against a server, the log line
// and the median of rounds.
import { spawn } from 'node:child_process';
import { copyFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnUntilReady, stopProcess } from '../../scripts/lib/local-services.mjs';
import { summarize } from './cpuprofile.mjs';
import { cpuBetween, cpuSnapshot } from './procstat.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Every child process still running, so a failed run leaves none behind. */
export const procs = new Set();

export const log = (line) => process.stderr.write(`[ab] ${line}\n`);

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Starts a process and waits for the line that says it is ready; its first capture is its URL. */
export async function start(name, args, ready) {
  const started = spawnUntilReady(process.execPath, args, ready, { name, cwd: ROOT, timeoutMs: 60_000 });
  procs.add(started.proc);
  const m = await started.ready;
  return {
    name,
    pid: started.proc.pid,
    url: m[1],
    stop: () => {
      procs.delete(started.proc);
      return stopProcess(started.proc, 10_000);
    },
  };
}

/** `jst-tracker serve` of the build in `dir` on a store (`storeArgs`: `--data DIR` or `--database-url URL`), node flags first. */
export const startTracker = (dir, storeArgs, nodeFlags = []) =>
  start(
    `tracker ${dir}`,
    [...nodeFlags, join(dir, 'bin/jst-tracker.js'), 'serve', '--port', '0', '--log-level', 'warn', ...storeArgs],
    /jst-tracker listening on (http:\/\/\S+)/,
  );

export function killAll() {
  for (const p of procs) p.kill('SIGKILL');
}

/**
 * Runs one load (lib/load.mjs, `spec`) against `server` in a process of its own: its req/s, the
 * server's CPU µs per request over the measured seconds, its non-2xx count, and whatever `probe`
 * adds (`start` at the measured part's start, `end(state, result)` at its end).
 */
export function measureLoad(server, spec, probe = { start: () => undefined, end: () => ({}) }) {
  const bench = fileURLToPath(new URL('..', import.meta.url));
  const proc = spawn(process.execPath, [join(bench, 'lib/load.mjs'), JSON.stringify(spec)], { cwd: bench, stdio: ['ignore', 'pipe', 'inherit'] });
  procs.add(proc);
  let before;
  let state;
  let buffer = '';
  return new Promise((resolvePromise, reject) => {
    proc.stdout.on('data', (d) => {
      buffer += d.toString();
      let nl;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        if (line === 'measuring') {
          before = cpuSnapshot([server.pid]);
          state = probe.start();
        } else if (line.startsWith('{')) {
          const r = JSON.parse(line);
          const cpu = cpuBetween(before, cpuSnapshot([server.pid]));
          resolvePromise({ rps: r.rps, cpuUs: (1e6 * cpu) / r.requests, non2xx: r.requests - r.ok, ...probe.end(state, r) });
        }
      }
    });
    proc.on('exit', (code) => {
      procs.delete(proc);
      if (code !== 0) reject(new Error(`load exited with ${code}`));
    });
  });
}

/**
 * The profile a server wrote into `profDir` (--cpu-prof), summarised as report lines under `title`;
 * kept as `keepAs` in AB_PROFILE_DIR when that is set.
 */
export function profileLines(profDir, title, keepAs, top) {
  const profFile = join(
    profDir,
    readdirSync(profDir).find((f) => f.endsWith('.cpuprofile')),
  );
  if (process.env.AB_PROFILE_DIR) copyFileSync(profFile, join(process.env.AB_PROFILE_DIR, keepAs));
  const s = summarize(profFile, top);
  const line = (entries) => entries.map((x) => `${x.name} ${x.pct.toFixed(1)}%`).join('; ');
  return [`profile ${title}, % of busy samples):`, `  self: ${line(s.self)}`, `  areas: ${line(s.areas)}`, `  tracker, inclusive: ${line(s.tracker)}`];
}
