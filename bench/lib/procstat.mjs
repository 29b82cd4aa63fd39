// CPU time and resident memory of processes, read from /proc (Linux).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** utime + stime of one process in seconds, or null when it is gone. */
export function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may contain spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return null;
  }
}

/** VmRSS in MiB, or null when the process is gone. */
export function rssMiB(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** Context switches (voluntary + involuntary) of one process so far, or null when it is gone: about one per wake-up. */
export function contextSwitches(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/\nvoluntary_ctxt_switches:\s+(\d+)/.exec(status)[1]) + Number(/nonvoluntary_ctxt_switches:\s+(\d+)/.exec(status)[1]);
  } catch {
    return null;
  }
}

/** Context switches of some pids between now and when the returned function is called. */
export function contextSwitchesFrom(pids) {
  const before = new Map(pids.map((pid) => [pid, contextSwitches(pid)]));
  return () => pids.reduce((sum, pid) => sum + ((contextSwitches(pid) ?? 0) - (before.get(pid) ?? 0)), 0);
}

/** CPU seconds of each pid now. */
export function cpuSnapshot(pids) {
  const out = new Map();
  for (const pid of pids) {
    const s = cpuSeconds(pid);
    if (s !== null) out.set(pid, s);
  }
  return out;
}

/** CPU seconds spent between two snapshots; a process born in between counts from zero. */
export function cpuBetween(before, after) {
  let total = 0;
  for (const [pid, s] of after) total += s - (before.get(pid) ?? 0);
  return total;
}

/** Samples the RSS of some pids every `ms` until stopped; returns the peak per pid and summed. */
export function rssSampler(pids, ms = 200) {
  const peak = new Map();
  let peakSum = 0;
  const sample = () => {
    let sum = 0;
    for (const pid of pids) {
      const r = rssMiB(pid);
      if (r === null) continue;
      sum += r;
      if (r > (peak.get(pid) ?? 0)) peak.set(pid, r);
    }
    peakSum = Math.max(peakSum, sum);
  };
  sample();
  const timer = setInterval(sample, ms);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return { perPid: peak, max: Math.max(0, ...peak.values()), sum: peakSum };
    },
  };
}
