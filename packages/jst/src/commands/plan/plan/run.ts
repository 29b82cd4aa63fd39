import type { Role } from '../../../config/index.js';
import type { Context } from '../../../core/context.js';
import type { Outcome } from '../../../core/output.js';
import { runHealthcheck } from '../../../healthcheck/index.js';
import { planOutcome, type PlanJson, type PlanOptions } from '../../../plan/phase1.js';

/**
 * `jst plan` and its tools (ARCHITECTURE §7): phase 1 as `role` (the assigner, as the spec
 * declares), its status check made here and handed in, so phase 1 never imports the healthcheck.
 */
export async function plan(ctx: Context, role: Role, o: Omit<PlanOptions, 'role' | 'healthcheck'>): Promise<Outcome<PlanJson>> {
  const out = await planOutcome(ctx, {
    ...o,
    role,
    healthcheck: () => runHealthcheck({ cwd: ctx.cwd, role, config: ctx.config(), env: ctx.env, makeClient: (r) => ctx.client(r) }),
  });
  if (o.dryRun && !o.json && !o.tool) ctx.io.stderr.write('Dry run: nothing was created; the hand-off lines below show what a real run would print.\n');
  return out;
}
