import type { User } from '@jst/client';
import type { Role } from '../../../config/index.js';
import type { Context } from '../../../core/context.js';
import { EXIT, usageError } from '../../../core/errors.js';
import { dim, table, type Outcome } from '../../../core/output.js';

/** The accounts the tracker finds for a name or an e-mail address, as the role sees them (GET /user/search). */
export async function userSearch(ctx: Context, role: Role, query: string): Promise<Outcome<User[]>> {
  const q = query.trim();
  if (!q) throw usageError('the query is empty', `Pass part of a name or an e-mail address: jst --role ${role} user search ada@acme.test`);
  const users = await ctx.client(role).findUsers(q);
  const text = users.length ? table(users.map((u) => [u.accountId, u.displayName ?? '', u.emailAddress ?? ''])) : dim(ctx.io, `No account matches "${q}".`);
  return { json: users, text: `${text}\n`, code: EXIT.ok };
}
