import { LIMIT_SETTINGS } from '@jst/client';
import { type Role } from '../config/index.js';
import { clientLimits } from '../limits.js';
import type { Context } from '../context.js';
import { exitCodeOf, formatReport, reportJson, runHealthcheck } from '../healthcheck/index.js';

/** `jst healthcheck --role R [--json]` (ARCHITECTURE §6): exit 0 when no row FAILs, 1 otherwise. */
export async function healthcheck(ctx: Context, role: Role, o: { json?: boolean; context?: boolean }): Promise<number> {
  const limits = clientLimits(ctx.env);
  // A status check answers within 10 s per probe unless JST_TIMEOUT_MS says otherwise.
  const timeoutMs = ctx.env[LIMIT_SETTINGS.timeout] ? limits.timeoutMs : undefined;
  const report = await runHealthcheck({ cwd: ctx.cwd, role, config: ctx.config(), env: ctx.env, timeoutMs, maxResponseBytes: limits.maxResponseBytes, withContext: o.context });
  // The text form is the contract's default (ARCHITECTURE §6), also when piped; --json asks for JSON.
  if (o.json) ctx.io.stdout.write(reportJson(report));
  else ctx.io.stdout.write(formatReport(report, { color: ctx.io.color }));
  return exitCodeOf(report);
}
