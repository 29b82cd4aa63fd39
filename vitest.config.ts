import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (pkg: string) => fileURLToPath(new URL(`./packages/${pkg}/src/index.ts`, import.meta.url));

export default defineConfig({
  resolve: {
    // Tests run against the TypeScript sources; the built dist is used only by child processes.
    alias: {
      '@jst/adf': src('adf'),
      '@jst/client': src('client'),
      '@jst/protocol': src('protocol'),
      '@jst/url': src('url'),
    },
  },
  test: {
    // A command's own unit tests sit beside it (packages/jst/src/commands/<noun>/<verb>/*.test.ts).
    include: ['packages/*/test/**/*.test.ts', 'packages/*/src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One worker process runs file after file with its module cache kept, where isolation started a
    // fresh process per file and loaded vitest and the sources again (on 2026-11-28, the whole suite on a
    // 2-CPU machine: 622 s isolated, 489 s not; "collect" 145 s → 18 s). Test files share no state
    // through modules: each starts its own trackers, repositories and databases, and the three that
    // set process.env or spy on a module put it back in afterEach/afterAll.
    isolate: false,
    // Vitest's default is one worker per CPU but one, which on a 2-CPU CI machine is a single
    // worker; most suites wait on child processes, git and the databases, so two overlap well there.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
