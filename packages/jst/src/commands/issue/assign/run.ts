import { assignByEmail } from '@jst/client';
import type { Role } from '../../../config/index.js';
import type { Context } from '../../../core/context.js';
import { EXIT } from '../../../core/errors.js';
import { issueKeyArg } from '../../../core/issue-key.js';
import type { Outcome } from '../../../core/output.js';
import { resolveWho } from '../../../phase/roles.js';

/** spec §4 client rule 4: EMAIL | @me | executor | none. */
export async function issueAssign(ctx: Context, role: Role, key: string, who: string): Promise<Outcome<{ key: string; accountId: string | null }>> {
  key = issueKeyArg(key); // abc-1 = ABC-1
  const accountId = await assignByEmail(ctx.client(role), key, who === 'none' ? null : resolveWho(ctx, who));
  return { json: { key, accountId }, text: `${accountId ? `${key} assigned to ${accountId}` : `${key} unassigned`}\n`, code: EXIT.ok };
}
