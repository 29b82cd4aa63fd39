import { LIMIT_SETTINGS } from '@jst/client';
import { type Role } from '../../../config/index.js';
import { clientLimits } from '../../../core/limits.js';
import type { Context } from '../../../core/context.js';
import { exitCodeOf, formatReport, reportObject, runHealthcheck, type HealthReport } from '../../../healthcheck/index.js';
import type { Outcome } from '../../../core/output.js';

/** `jst healthcheck --role R [--json]` (ARCHITECTURE §6): exit 0 when no row FAILs, 1 otherwise. */
export async function healthcheckOutcome(ctx: Context, role: Role, o: { context?: boolean | undefined } = {}): Promise<Outcome<HealthReport>> {
  const limits = clientLimits(ctx.env);
  // A status check answers within 10 s per probe unless JST_TIMEOUT_MS says otherwise.
  const timeoutMs = ctx.env[LIMIT_SETTINGS.timeout] ? limits.timeoutMs : undefined;
  const report = await runHealthcheck({
    cwd: ctx.cwd,
    role,
    config: ctx.config(),
    env: ctx.env,
    timeoutMs,
    maxResponseBytes: limits.maxResponseBytes,
    withContext: o.context,
  });
  return { json: reportObject(report), text: formatReport(report, { color: ctx.io.color }), code: exitCodeOf(report) };
}
