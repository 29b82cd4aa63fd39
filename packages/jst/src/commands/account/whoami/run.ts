import type { User } from '@jst/client';
import type { Role } from '../../../config/index.js';
import type { Context } from '../../../core/context.js';
import { EXIT } from '../../../core/errors.js';
import { bold, type Outcome } from '../../../core/output.js';

/** GET /myself as the role: who its token belongs to. */
export async function whoami(ctx: Context, role: Role): Promise<Outcome<User>> {
  const me = await ctx.client(role).myself({ fresh: true });
  return { json: me, text: `${bold(ctx.io, me.displayName ?? '')} <${me.emailAddress ?? '?'}>  accountId ${me.accountId}  (role ${role})\n`, code: EXIT.ok };
}
