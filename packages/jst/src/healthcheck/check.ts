import { configSecrets, redact } from '../config/index.js';
import { codehostLoginRow } from './codehost-row.js';
import { contextRows } from './context-rows.js';
import { branchPairRow, branchRow, envConfigRow, platformRow, productionBranchRow, worktreeRow, worktreesDirRow } from './local-rows.js';
import { trackerLoginRow } from './tracker-row.js';
import { row, type ContextRow, type HealthReport, type HealthRow, type HealthcheckContext, type RowName, type RowStatus } from './types.js';

/**
 * `jst healthcheck --role R` (ARCHITECTURE §6). The probes do not depend on one another, so they
 * run at once: the check costs the slowest probe, not the sum. Rows keep the documented order.
 */
export async function runHealthcheck(ctx: HealthcheckContext): Promise<HealthReport> {
  const context = ctx.withContext
    ? contextRows(ctx).catch((error: unknown): ContextRow[] => [
        { name: 'working_tree', status: 'INFO', detail: `context not read: ${error instanceof Error ? error.message : String(error)}` },
      ])
    : null;
  const rows = await Promise.all([
    guarded('worktree', 'WARN', () => worktreeRow(ctx)),
    guarded('worktrees_dir', 'FAIL', () => worktreesDirRow(ctx.config)),
    guarded('branch', 'WARN', () => branchRow(ctx)),
    guarded('production_branch', 'FAIL', () => productionBranchRow(ctx.config)),
    guarded('branch_pair', 'FAIL', () => branchPairRow(ctx.config)),
    guarded('env_config', 'FAIL', () => envConfigRow(ctx)),
    guarded('tracker_login', 'FAIL', () => trackerLoginRow(ctx)),
    guarded('codehost_login', 'FAIL', () => codehostLoginRow(ctx)),
    guarded('platform', 'FAIL', () => platformRow(ctx)),
  ]);
  // The last line of defence (docs/style.md "redact at the one place that prints"): whatever a probe
  // or a server put into a detail, no configured secret leaves this function.
  const secrets = configSecrets(ctx.config);
  return {
    role: ctx.role,
    rows: rows.map((r) => ({ name: r.name, status: r.status, detail: redact(r.detail, secrets) })),
    ...(context === null ? {} : { context: (await context).map((r) => ({ ...r, detail: redact(r.detail, secrets) })) }),
  };
}

/**
 * A probe that throws still yields its row, so one broken check never hides the others. The
 * status on a crash is the row's own worst case (`worktree` never FAILs, spec §2).
 */
async function guarded(name: RowName, onCrash: RowStatus, probe: () => HealthRow | Promise<HealthRow>): Promise<HealthRow> {
  try {
    return await probe();
  } catch (error) {
    return row(name, onCrash, `check crashed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** ARCHITECTURE §3: exit 0 when no row FAILs, 1 otherwise. */
export function exitCodeOf(report: HealthReport): 0 | 1 {
  return report.rows.some((r) => r.status === 'FAIL') ? 1 : 0;
}
