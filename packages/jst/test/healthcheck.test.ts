import { describe, expect, it } from 'vitest';
import { check, healthWorld } from './healthcheck-fixture.js';
import { setting } from '../../../test/support/repo.js';
import { TOKENS } from '../../../test/support/seed.js';
import { ROLES } from '../src/config/index.js';
import { gitProcessCount } from '../src/git/index.js';
import { ROW_NAMES, exitCodeOf, formatReport, reportJson, type HealthReport } from '../src/healthcheck/index.js';
import { terminalText } from '../src/core/text.js';

const world = healthWorld();
const project = world.project;

describe('ARCHITECTURE §6: the status check report', () => {
  it.each(ROLES)('%s: every row in the documented order, all PASS on a complete set-up, exit 0', async (role) => {
    const report = await check(project().repo, role);
    expect(report.role).toBe(role);
    expect(report.rows.map((r) => r.name)).toEqual([...ROW_NAMES]);
    expect(report.rows.filter((r) => r.status !== 'PASS')).toEqual([]);
    expect(exitCodeOf(report)).toBe(0);
  });

  it('--json form is exactly {"role", "rows": [{"name", "status", "detail"}]}', async () => {
    const parsed = JSON.parse(reportJson(await check(project().repo, 'reviewer'))) as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual(['role', 'rows']);
    expect(parsed.role).toBe('reviewer');
    for (const r of parsed.rows as Record<string, unknown>[]) {
      expect(Object.keys(r)).toEqual(['name', 'status', 'detail']);
      expect(['PASS', 'WARN', 'FAIL']).toContain(r.status);
      expect(typeof r.detail).toBe('string');
    }
  });

  it('ARCHITECTURE §3: exit 1 when any row FAILs', async () => {
    const report = await check(project({ local: setting('TRACKER_ASSIGNER_TOKEN', 'tok-bad-1234') }).repo);
    expect(report.rows.find((r) => r.name === 'tracker_login')?.status).toBe('FAIL');
    expect(exitCodeOf(report)).toBe(1);
  });
});

describe('spec §4 "Local client commands": text form and the rerun hint', () => {
  const fixed: HealthReport = {
    role: 'assigner',
    rows: [
      { name: 'worktree', status: 'PASS', detail: 'main checkout' },
      { name: 'env_config', status: 'FAIL', detail: 'first problem\nsecond problem' },
      { name: 'platform', status: 'WARN', detail: 'Linux' },
    ],
  };

  it('ARCHITECTURE §6: one row per check, `name  STATUS  detail`, columns aligned; a detail of several parts lists the rest one per line under its row', () => {
    const text = formatReport({ ...fixed, role: 'executor' }, { color: false });
    expect(text.split('\n')).toEqual([
      'worktree    PASS  main checkout',
      'env_config  FAIL  first problem',
      '                  second problem',
      'platform    WARN  Linux',
      '',
    ]);
  });

  it('assigner and reviewer end with a hint to rerun after fixing, right after the rows; the executor has none', () => {
    const lines = formatReport(fixed, { color: false }).split('\n');
    expect(lines).toHaveLength(fixed.rows.length + 3);
    expect(lines.at(-2)).toBe('Fix the FAIL rows above, then rerun: jst healthcheck --role assigner');
    expect(lines.at(-1)).toBe('');
    expect(formatReport({ ...fixed, role: 'reviewer' }, { color: false })).toContain('rerun: jst healthcheck --role reviewer');
    expect(formatReport({ ...fixed, role: 'executor' }, { color: false })).not.toMatch(/rerun/i);
  });

  it('the hint is there for a real assigner and reviewer report too, also when all rows PASS', async () => {
    const r = project();
    for (const role of ['assigner', 'reviewer'] as const) {
      expect(formatReport(await check(r.repo, role), { color: false })).toContain(`rerun: jst healthcheck --role ${role}`);
    }
    expect(formatReport(await check(r.repo, 'executor'), { color: false })).not.toMatch(/rerun/i);
  });

  it('colour marks only the status word, so the plain text stays aligned', () => {
    const colored = formatReport(fixed, { color: true });
    expect(terminalText(colored, true)).toContain('\x1b[31mFAIL\x1b[0m');
    expect(terminalText(colored, false)).toBe(formatReport(fixed, { color: false }));
  });
});

describe('ARCHITECTURE §4: no token in any detail', () => {
  it('a secret that reaches a detail anyway is redacted as the last line of defence', async () => {
    const makeClient = () => {
      throw new Error(`client exploded with ${TOKENS.assigner}`);
    };
    const report = await check(project().repo, 'assigner', { makeClient });
    const row = report.rows.find((r) => r.name === 'tracker_login');
    expect(row?.detail).toBe('check crashed: client exploded with ***');
    expect(formatReport(report, { color: false })).not.toContain(TOKENS.assigner);
  });
});

describe('ARCHITECTURE §6: the probes run concurrently', () => {
  it('a full check against the local tracker (time printed, not asserted)', async () => {
    const r = project();
    const timed = async () => {
      const spawnedBefore = gitProcessCount();
      const started = performance.now();
      const report = await check(r.repo, 'assigner');
      return { report, ms: performance.now() - started, spawned: gitProcessCount() - spawnedBefore };
    };
    // The first run also pays for module loading and the first connection; the second is the check itself.
    const first = await timed();
    const second = await timed();
    expect(exitCodeOf(second.report)).toBe(0);
    console.log(
      `${formatReport(second.report, { color: false })}healthcheck --role assigner: first ${first.ms.toFixed(1)} ms, then ${second.ms.toFixed(1)} ms; ${second.spawned} git processes, ${second.report.rows.length} rows`,
    );
  });
});
