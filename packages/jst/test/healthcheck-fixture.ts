import { afterAll, afterEach, beforeAll } from 'vitest';
import { startCodehost, type CodehostOptions, type TestCodehost } from '../../../test/support/codehost.js';
import { CODEHOST_TOKEN, FIXTURE_GIT_ENV, makeRepo, writeJstFiles, type JstFilesOptions, type MakeRepoOptions, type TestRepo } from '../../../test/support/repo.js';
import { startTestTracker, type TestTracker } from '../../../test/support/tracker.js';
import { loadConfig, type Role } from '../src/config/index.js';
import { runHealthcheck, type HealthReport, type HealthcheckContext, type RowName } from '../src/healthcheck/index.js';

/**
 * The world every healthcheck suite needs: a real tracker and the code-host stand-in for the file,
 * repositories whose origin names acme/widgets with `.jst/` for both, cleaned up after each test.
 */
export function healthWorld(o: { seed?: unknown; codehost?: Partial<CodehostOptions> } = {}) {
  let tracker: TestTracker;
  let codehost: TestCodehost;
  const cleanups: (() => void)[] = [];
  beforeAll(async () => {
    tracker = await startTestTracker('sqlite', ...(o.seed === undefined ? [] : [o.seed]));
    codehost = await startCodehost({ token: CODEHOST_TOKEN, repos: ['acme/widgets'], ...o.codehost });
  });
  afterAll(async () => {
    await codehost?.close();
    await tracker?.close();
  });
  afterEach(() => {
    for (const c of cleanups.splice(0)) c();
  });
  return {
    /** Runs after the current test. */
    cleanup: (c: () => void) => { cleanups.push(c); },
    tracker: () => tracker,
    codehost: () => codehost,
    project(edit: Partial<JstFilesOptions> = {}, repo: MakeRepoOptions = { originUrl: 'https://github.com/acme/widgets.git' }): TestRepo {
      const r = makeRepo(repo);
      cleanups.push(r.cleanup);
      writeJstFiles(r.repo, { trackerUrl: tracker.url, codehostUrl: codehost.url, worktreesDir: r.worktreesDir, ...edit });
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
