import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codehostOf, type EmbeddedCodehost } from '../support/embedded-codehost.js';
import { runJst } from '../support/jst-cli.js';
import { makeRepo, setting, writeJstFiles, type TestRepo } from '../support/repo.js';
import { CODEHOST_LOGIN, TOKENS, testSeed, withCodehost } from '../support/seed.js';
import { startTestTracker, type TestTracker } from '../support/tracker.js';

describe('jst healthcheck, the binary (ARCHITECTURE §6)', () => {
  let t: TestTracker;
  let host: EmbeddedCodehost;
  let repo: TestRepo;
  beforeAll(async () => {
    // The tracker is the code host too (ARCHITECTURE §14); origin is acme/widgets on it, no CODEHOST_REPO.
    t = await startTestTracker('sqlite', withCodehost(testSeed()));
    host = codehostOf(t);
    repo = makeRepo({ codehost: host.origin('acme/widgets') });
    writeJstFiles(repo.repo, { trackerUrl: t.url, codehostUrl: host.api, worktreesDir: repo.worktreesDir });
  });
  afterAll(async () => {
    await t?.close();
    repo?.cleanup();
  });

  it("all rows PASS for each role on a well-configured checkout: exit 0; --json has {role, rows}; codehost_login reads origin's repository on the embedded code host", async () => {
    for (const role of ['assigner', 'executor', 'reviewer']) {
      const r = await runJst(['healthcheck', '--role', role, '--json'], { cwd: repo.repo });
      const report = JSON.parse(r.stdout);
      expect(report.role).toBe(role);
      expect(report.rows.map((x: any) => x.name)).toEqual([
        'worktree',
        'worktrees_dir',
        'branch',
        'production_branch',
        'branch_pair',
        'env_config',
        'tracker_login',
        'codehost_login',
        'platform',
      ]);
      expect(
        report.rows.filter((x: any) => x.status !== 'PASS'),
        JSON.stringify(report.rows),
      ).toEqual([]);
      expect(report.rows.find((x: any) => x.name === 'codehost_login').detail).toBe(
        `read acme/widgets (private) at ${host.api}; executor: ${CODEHOST_LOGIN} (CODEHOST_PAT_TOKEN), reviewer: ${CODEHOST_LOGIN} (CODEHOST_PAT_TOKEN)`,
      );
      expect(r.code).toBe(0);
    }
  });

  it("spec §4: the assigner and reviewer text ends with the rerun hint; the executor's does not", async () => {
    const a = await runJst(['healthcheck', '--role', 'assigner'], { cwd: repo.repo });
    const e = await runJst(['healthcheck', '--role', 'executor'], { cwd: repo.repo });
    const rv = await runJst(['healthcheck', '--role', 'reviewer'], { cwd: repo.repo });
    expect(a.stdout.trim().split('\n').at(-1)).toMatch(/rerun/i);
    expect(rv.stdout.trim().split('\n').at(-1)).toMatch(/rerun/i);
    expect(e.stdout).not.toMatch(/rerun/i);
    expect(a.stdout).toMatch(/^worktree\s+PASS\s+main checkout/m);
  });

  it('--role is required (exit 2); a stale token FAILs tracker_login with exit 1 and no token in the output', async () => {
    expect((await runJst(['healthcheck'], { cwd: repo.repo })).code).toBe(2);
    const stale = makeRepo();
    try {
      writeJstFiles(stale.repo, {
        trackerUrl: t.url,
        codehostUrl: host.api,
        worktreesDir: stale.worktreesDir,
        local: setting('TRACKER_REVIEWER_TOKEN', 'revoked-token-123'),
      });
      const r = await runJst(['healthcheck', '--role', 'reviewer'], { cwd: stale.repo });
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/^tracker_login\s+FAIL\s+.*(stale|revoked)/m);
      expect(r.stdout + r.stderr).not.toContain('revoked-token-123');
      expect(r.stdout + r.stderr).not.toContain(TOKENS.assigner);
    } finally {
      stale.cleanup();
    }
  });

  it('ARCHITECTURE §6: the text form is one row line per check, a detail of several problems listed one per indented line under its row, then the hint; JSON keeps them all; no trailing blank line', async () => {
    const bare = makeRepo();
    try {
      // no .jst/ at all: env_config has several problems to report
      for (const role of ['assigner', 'executor'] as const) {
        const r = await runJst(['healthcheck', '--role', role], { cwd: bare.repo });
        expect(r.code).toBe(1);
        expect(r.stdout.endsWith('\n')).toBe(true);
        expect(r.stdout.endsWith('\n\n')).toBe(false);
        const lines = r.stdout.slice(0, -1).split('\n');
        const body = role === 'assigner' ? lines.slice(0, -1) : lines;
        const rows = body.filter((l) => !l.startsWith(' '));
        expect(rows.map((l) => l.split(/\s+/)[0])).toEqual([
          'worktree',
          'worktrees_dir',
          'branch',
          'production_branch',
          'branch_pair',
          'env_config',
          'tracker_login',
          'codehost_login',
          'platform',
        ]);
        for (const l of rows) expect(l).toMatch(/^\S+\s+(PASS|WARN|FAIL)(\s+\S.*)?$/);
        // The problems after the first sit under env_config, each on its own line at the detail column.
        const at = body.findIndex((l) => l.startsWith('env_config'));
        const under = body.slice(at + 1).filter((l, i, all) => all.slice(0, i + 1).every((x) => x.startsWith(' ')));
        expect(under.length).toBeGreaterThan(0);
        const column = body[at]!.search(/FAIL/) + 'FAIL  '.length;
        for (const l of under) expect(l.search(/\S/)).toBe(column);
        for (const l of [...rows, ...under]) expect(l.length).toBeLessThan(400);
        if (role === 'assigner') expect(lines.at(-1)).toMatch(/rerun: jst healthcheck --role assigner$/);
      }
      const j = await runJst(['healthcheck', '--role', 'reviewer', '--json'], { cwd: bare.repo });
      expect(j.stdout.endsWith('}\n')).toBe(true);
      const json = JSON.parse(j.stdout);
      expect(json.rows).toHaveLength(9);
      const text = await runJst(['healthcheck', '--role', 'reviewer'], { cwd: bare.repo });
      const detail: string = json.rows.find((x: { name: string }) => x.name === 'env_config').detail;
      for (const problem of detail.split('\n')) expect(text.stdout).toContain(problem.trim());
    } finally {
      bare.cleanup();
    }
  });
});
