import { afterAll, afterEach, beforeAll } from 'vitest';
import { codehostOf, type EmbeddedCodehost } from '../../../test/support/embedded-codehost.js';
import { FIXTURE_GIT_ENV, makeRepo, writeJstFiles, type JstFilesOptions, type MakeRepoOptions, type TestRepo } from '../../../test/support/repo.js';
import { testSeed, withCodehost } from '../../../test/support/seed.js';
import { startTestTracker, type TestTracker } from '../../../test/support/tracker.js';
import { loadConfig, type Role } from '../src/config/index.js';
import { runHealthcheck, type HealthReport, type HealthcheckContext, type RowName } from '../src/healthcheck/index.js';

/**
 * The world every healthcheck suite needs: a real tracker that is also the code host (its seed's
 * `"codehost"` section, ARCHITECTURE §14), repositories whose origin is acme/widgets on that code
 * host (pushed over git's HTTP) with `.jst/` for both, cleaned up after each test.
 */
export function healthWorld(o: { seed?: object } = {}) {
  let tracker: TestTracker;
  let codehost: EmbeddedCodehost;
  const cleanups: (() => void)[] = [];
  beforeAll(async () => {
    tracker = await startTestTracker('sqlite', withCodehost(o.seed ?? testSeed()));
    codehost = codehostOf(tracker);
  });
  afterAll(async () => {
    await tracker?.close();
  });
  afterEach(() => {
    for (const c of cleanups.splice(0)) c();
  });
  return {
    /** Runs after the current test. */
    cleanup: (c: () => void) => {
      cleanups.push(c);
    },
    tracker: () => tracker,
    codehost: () => codehost,
    /** A checkout with origin on the code host (acme/widgets), or as `repo` says. */
    project(edit: Partial<JstFilesOptions> = {}, repo?: MakeRepoOptions): TestRepo {
      const r = makeRepo(repo ?? { codehost: codehost.origin('acme/widgets') });
      cleanups.push(r.cleanup);
      writeJstFiles(r.repo, { trackerUrl: tracker.url, codehostUrl: codehost.api, worktreesDir: r.worktreesDir, ...edit });
      return r;
    },
  };
}

export function check(cwd: string, role: Role = 'assigner', extra: Partial<HealthcheckContext> = {}): Promise<HealthReport> {
  return runHealthcheck({ cwd, role, config: loadConfig({ cwd, env: {} }), env: FIXTURE_GIT_ENV, ...extra });
}

export function rowOf(report: HealthReport, name: RowName) {
  const found = report.rows.find((r) => r.name === name);
  if (found === undefined) throw new Error(`no row ${name}`);
  return found;
}
