import type { Role } from '../config/index.js';
import { colourMark, jsonText } from '../core/text.js';
import type { ContextRow, HealthReport, HealthRow } from './types.js';

type AnyStatus = HealthRow['status'] | ContextRow['status'];
/** jst's colour marks (core/text.ts), which the printer turns into escape sequences on a colour terminal. */
const COLORS: Record<AnyStatus, string> = { PASS: colourMark('32'), WARN: colourMark('33'), FAIL: colourMark('31'), INFO: colourMark('2') };
const RESET = colourMark('0');
const GAP = '  ';

/**
 * The text form (ARCHITECTURE §6): one line per check, `name  STATUS  detail`, columns aligned.
 * A detail of several parts (env_config's problems) keeps its first part on the row and lists the
 * rest one per line beneath, indented to the detail column, so no line runs to a screen's width
 * times ten and a parser of `name  STATUS  detail` lines still finds every row (continuation lines
 * start with a space). The context rows (`--context`: `issue_key`, `parent_branch`,
 * `working_tree`) follow the contract rows; then the assigner's and reviewer's rerun hint. Colour
 * only marks the status word.
 */
export function formatReport(report: HealthReport, options: { color: boolean }): string {
  const all: { name: string; status: AnyStatus; detail: string }[] = [...report.rows, ...(report.context ?? [])];
  const nameWidth = Math.max(...all.map((r) => r.name.length));
  const statusWidth = 4;
  const indent = ' '.repeat(nameWidth + GAP.length + statusWidth + GAP.length);
  const lines = all.flatMap((r) => {
    const status = options.color ? `${COLORS[r.status]}${r.status}${RESET}` : r.status;
    const [first = '', ...rest] = detailLines(r.detail);
    return [`${r.name.padEnd(nameWidth)}${GAP}${status}${GAP}${first}`.trimEnd(), ...rest.map((l) => `${indent}${l}`)];
  });
  const hint = rerunHint(report);
  return `${[...lines, ...(hint === null ? [] : [hint])].join('\n')}\n`;
}

/** A detail's non-empty lines, trimmed (the --json form keeps the detail as it is). */
export function detailLines(detail: string): string[] {
  return detail
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
}

/** A detail as one line, its parts joined with "; " (for a one-line summary such as the plan's). */
export function oneLine(detail: string): string {
  return detailLines(detail).join('; ');
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

/**
 * The `--json` form: exactly `{"role": R, "rows": [{"name", "status", "detail"}]}` (ARCHITECTURE
 * §6; every problem kept, `\n`-separated), plus `"context": […]` in the same shape with --context.
 */
export function reportJson(report: HealthReport): string {
  return `${jsonText(reportObject(report))}\n`;
}

/** The JSON form of a report: `{role, rows}` (ARCHITECTURE §6), and `context` when --context asked for it. */
export function reportObject(report: HealthReport): HealthReport {
  const rows = report.rows.map((r) => ({ name: r.name, status: r.status, detail: r.detail }));
  const context = report.context?.map((r) => ({ name: r.name, status: r.status, detail: r.detail }));
  return context === undefined ? { role: report.role, rows } : { role: report.role, rows, context };
}
