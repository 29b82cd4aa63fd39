import { transitionTo } from '@jst/client';
import type { Role } from '../../../config/index.js';
import type { Context } from '../../../core/context.js';
import { EXIT } from '../../../core/errors.js';
import { issueKeyArg } from '../../../core/issue-key.js';
import type { Outcome } from '../../../core/output.js';

/** spec §4 client rule 5: by destination status name; none matching stops with nothing posted. */
export async function issueTransition(ctx: Context, role: Role, key: string, status: string): Promise<Outcome> {
  key = issueKeyArg(key); // abc-1 = ABC-1
  const t = await transitionTo(ctx.client(role), key, status);
  return { json: { key, status, transition: { id: t.id, name: t.name } }, text: `${key} → ${status} (transition "${t.name}", id ${t.id})\n`, code: EXIT.ok };
}
