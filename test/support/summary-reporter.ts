import type { Reporter } from 'vitest/reporters';

type Task = { type: string; mode?: string; result?: { state?: string }; tasks?: Task[] };

/** Prints one plain closing line, `tests: N passed, N failed, N skipped`, that CI logs can count. */
export default class SummaryReporter implements Reporter {
  onFinished(files: Task[] = []): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const walk = (t: Task) => {
      if (t.type === 'test') {
        const state = t.result?.state;
        if (state === 'pass') passed++;
        else if (state === 'fail') failed++;
        else skipped++;
      }
      t.tasks?.forEach(walk);
    };
    files.forEach(walk);
    process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
