import type { Role } from '../config/index.js';
import type { Context } from '../context.js';
import { exitCodeOf, formatReport, reportObject, runHealthcheck, type HealthReport } from '../healthcheck/index.js';
import { emit, type Outcome } from '../output.js';

/** `jst healthcheck --role R [--json]` (ARCHITECTURE §6): exit 0 when no row FAILs, 1 otherwise. */
export async function healthcheck(ctx: Context, role: Role, o: { json?: boolean }): Promise<number> {
  // The text form is the contract's default (ARCHITECTURE §6), also when piped; --json asks for JSON.
  return emit(ctx.io, await healthcheckOutcome(ctx, role), Boolean(o.json));
}

export async function healthcheckOutcome(ctx: Context, role: Role): Promise<Outcome<HealthReport>> {
  const report = await runHealthcheck({ cwd: ctx.cwd, role, config: ctx.config(), env: ctx.env });
  return { json: reportObject(report), text: formatReport(report, { color: ctx.io.color }), code: exitCodeOf(report) };
}
