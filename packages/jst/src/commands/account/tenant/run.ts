import type { Role } from '../../../config/index.js';
import type { Context } from '../../../core/context.js';
import { EXIT } from '../../../core/errors.js';
import { table, type Outcome } from '../../../core/output.js';

/** The site's cloudId and {api_base} (spec §4 client rule 1). */
export async function tenant(ctx: Context, role: Role): Promise<Outcome<{ site: string | null; cloudId: string; apiBase: string }>> {
  const client = ctx.client(role);
  const { cloudId } = await client.tenantInfo();
  const apiBase = await client.apiBase();
  const site = ctx.config().trackerHost;
  const text = table([
    ['site', site ?? ''],
    ['cloudId', cloudId],
    ['api_base', apiBase],
  ]);
  return { json: { site, cloudId, apiBase }, text: `${text}\n`, code: EXIT.ok };
}
