import type { Role } from '../../../config/index.js';
import type { Context } from '../../../core/context.js';
import { EXIT } from '../../../core/errors.js';
import { table, type Outcome } from '../../../core/output.js';

/** The statuses of a project, per issue type. */
export async function projectStatuses(ctx: Context, role: Role, key: string): Promise<Outcome> {
  const types = await ctx.client(role).projectStatuses(key);
  return { json: types, text: `${table(types.map((t) => [t.name, t.statuses.map((s) => s.name).join(', ')]))}\n`, code: EXIT.ok };
}
