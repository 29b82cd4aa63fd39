import { PerformanceObserver } from 'node:perf_hooks';
import v8 from 'node:v8';

/**
 * Keeps V8's young generation at most `semiSpaceMiB` per semi-space in a running process.
 *
 * V8 grows the young generation of a busy server from 1 MiB to 16 MiB per semi-space (Node.js 20
 * on 64-bit), and what survives the more frequent collections of a smaller one is cheaper than the
 * headroom of a larger one: measured on PostgreSQL, 50 concurrent searches over 100,000 issues
 * peaked at 188–198 MiB RSS with the default and at 151 MiB with 4 MiB semi-spaces, at the same CPU
 * per request (`git show fcb3418:bench/RESULTS.md`, the run of 2026-11-23 05:00 UTC). `--max-semi-space-size` does that but is read only when
 * the process starts (V8 ignores it at run time); the growth factor is read each time the young
 * generation grows, so this lets it grow (factor 2) until it reaches the cap and then holds it there
 * (factor 1), watching every collection (from the event loop, so between requests: Node delivers
 * the gc entry a turn or two after the collection, and a collection in that window or in one long
 * synchronous stretch may still grow it one step past the cap); should V8 shrink it when idle, it
 * may grow back.
 *
 * Does nothing when the process was started with its own `--max-semi-space-size` or
 * `--semi-space-growth-factor` (in execArgv or NODE_OPTIONS): the operator's choice wins.
 * Returns a function that stops watching.
 */
export function capYoungGeneration(semiSpaceMiB: number): () => void {
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].some((arg) =>
    /^--(max[-_]semi[-_]space[-_]size|semi[-_]space[-_]growth[-_]factor)\b/.test(arg),
  );
  if (given) return () => undefined;
  // Two semi-spaces make the new space; V8 reports the new space's size.
  const capBytes = 2 * semiSpaceMiB * 1024 * 1024;
  let holding = false;
  const check = () => {
    const space = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
    if (!space) return;
    const atCap = space.space_size >= capBytes;
    if (atCap !== holding) {
      v8.setFlagsFromString(`--semi-space-growth-factor=${atCap ? 1 : 2}`);
      holding = atCap;
    }
  };
  check();
  const observer = new PerformanceObserver(check);
  observer.observe({ entryTypes: ['gc'] });
  return () => observer.disconnect();
}
