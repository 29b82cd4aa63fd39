// What bench/ab-read.mjs and bench/ab-write.mjs share: the processes they start (each killed if the
// run fails), a tracker build started on a store, the log line and the median of rounds.
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { spawnUntilReady, stopProcess } from '../../scripts/lib/local-services.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Every child process still running, so a failed run leaves none behind. */
export const procs = new Set();

export const log = (line) => process.stderr.write(`[ab] ${line}\n`);

export const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };

/** Starts a process and waits for the line that says it is ready; its first capture is its URL. */
export async function start(name, args, ready) {
  const started = spawnUntilReady(process.execPath, args, ready, { name, cwd: ROOT, timeoutMs: 60_000 });
  procs.add(started.proc);
  const m = await started.ready;
  return { name, pid: started.proc.pid, url: m[1], stop: () => { procs.delete(started.proc); return stopProcess(started.proc, 10_000); } };
}

/** `jst-tracker serve` of the build in `dir` on a store (`storeArgs`: `--data DIR` or `--database-url URL`), node flags first. */
export const startTracker = (dir, storeArgs, nodeFlags = []) => start(`tracker ${dir}`,
  [...nodeFlags, join(dir, 'bin/jst-tracker.js'), 'serve', '--port', '0', '--log-level', 'warn', ...storeArgs],
  /jst-tracker listening on (http:\/\/\S+)/);

export function killAll() {
  for (const p of procs) p.kill('SIGKILL');
}
