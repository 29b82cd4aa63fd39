import type { Role } from '../config/index.js';
import type { HealthReport, RowStatus } from './types.js';

const COLORS: Record<RowStatus, string> = { PASS: '\x1b[32m', WARN: '\x1b[33m', FAIL: '\x1b[31m' };
const RESET = '\x1b[0m';
const GAP = '  ';

/**
 * The text form (ARCHITECTURE §6): one line per check, `name  STATUS  detail`, columns aligned; a
 * detail of several parts (env_config's problems) is joined with "; " so that every line is a row.
 * The assigner's and reviewer's output then ends with the rerun hint. Colour only marks the status
 * word, so the columns line up the same with and without it.
 */
export function formatReport(report: HealthReport, options: { color: boolean }): string {
  const nameWidth = Math.max(...report.rows.map((r) => r.name.length));
  const lines = report.rows.map((r) => {
    const status = options.color ? `${COLORS[r.status]}${r.status}${RESET}` : r.status;
    return `${r.name.padEnd(nameWidth)}${GAP}${status}${GAP}${oneLine(r.detail)}`.trimEnd();
  });
  const hint = rerunHint(report);
  return `${[...lines, ...(hint === null ? [] : [hint])].join('\n')}\n`;
}

/** A detail as one line: its lines joined with "; " (the --json form keeps them as they are). */
export function oneLine(detail: string): string {
  return detail.split('\n').map((l) => l.trim()).filter((l) => l !== '').join('; ');
}

/**
 * spec §4 "Local client commands": the assigner and the reviewer end with a hint to rerun after
 * fixing; the executor's output has none (its caller decides what comes next).
 */
export function rerunHint(report: HealthReport): string | null {
  if (!HINTED_ROLES.includes(report.role)) return null;
  const again = `jst healthcheck --role ${report.role}`;
  if (report.rows.some((r) => r.status === 'FAIL')) return `Fix the FAIL rows above, then rerun: ${again}`;
  if (report.rows.some((r) => r.status === 'WARN')) return `Check the WARN rows above; after fixing any of them, rerun: ${again}`;
  return `All checks passed; after changing the configuration, rerun: ${again}`;
}

const HINTED_ROLES: readonly Role[] = ['assigner', 'reviewer'];

/** The `--json` form: exactly `{"role": R, "rows": [{"name", "status", "detail"}]}`. */
export function reportJson(report: HealthReport): string {
  return `${JSON.stringify(reportObject(report), null, 2)}\n`;
}

export function reportObject(report: HealthReport): HealthReport {
  return { role: report.role, rows: report.rows.map((r) => ({ name: r.name, status: r.status, detail: r.detail })) };
}
