import type { Role } from '../../../config/index.js';
import type { Context } from '../../../core/context.js';
import { EXIT } from '../../../core/errors.js';
import type { Outcome } from '../../../core/output.js';
import { issueCheckout } from '../../../phase/checkout.js';
import { resolvePrBase } from '../../../phase/pr-base.js';
import { stepper } from '../../../phase/steps.js';

/** `jst pr-base [--json]` (ARCHITECTURE §11): `<base>\t<source>`; unresolved is exit 1 with what was tried. */
export async function prBaseOutcome(ctx: Context, role: Role): Promise<Outcome> {
  const { say } = stepper(ctx);
  const here = await issueCheckout(ctx, 'jst pr-base');
  const r = await resolvePrBase({
    ctx,
    cwd: here.root,
    env: ctx.env,
    branch: here.branch,
    key: here.key,
    config: ctx.config(),
    client: ctx.client(role),
    say,
  });
  return { json: { key: here.key, branch: here.branch, base: r.base, source: r.source, tried: r.tried }, text: `${r.base}\t${r.source}\n`, code: EXIT.ok };
}
