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
    // Vitest's default is one worker per CPU but one, which on a 2-CPU CI machine is a single
    // worker; most suites wait on child processes, git and the databases, so two overlap well there.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
