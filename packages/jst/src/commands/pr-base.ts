import type { Context } from '../context.js';
import { EXIT } from '../exit.js';
import { issueCheckout } from '../phase/locate.js';
import { resolvePrBase } from '../phase/pr-base.js';
import { stepper } from '../phase/steps.js';

/** `jst pr-base [--json]` (ARCHITECTURE §11): `<base>\t<source>`; unresolved is exit 1 with what was tried. */
export async function prBase(ctx: Context, o: { json?: boolean | undefined }): Promise<number> {
  const { say } = stepper(ctx);
  const here = await issueCheckout(ctx, 'jst pr-base');
  const r = await resolvePrBase({ cwd: here.root, env: ctx.env, branch: here.branch, key: here.key, config: ctx.config(), client: ctx.client('executor'), say });
  if (o.json) ctx.io.stdout.write(`${JSON.stringify({ key: here.key, branch: here.branch, base: r.base, source: r.source, tried: r.tried }, null, 2)}\n`);
  else ctx.io.stdout.write(`${r.base}\t${r.source}\n`);
  return EXIT.ok;
}
