import { projectVisible } from '@jst/client';
import type { Role } from '../../../config/index.js';
import type { Context } from '../../../core/context.js';
import { EXIT } from '../../../core/errors.js';
import type { Outcome } from '../../../core/output.js';

/** spec §4 client rule 2: exit 0 when the project is visible (exact key), 1 when not. */
export async function projectExists(ctx: Context, role: Role, key: string): Promise<Outcome<{ key: string; visible: boolean }>> {
  const visible = await projectVisible(ctx.client(role), key);
  const text = visible ? `${key}: visible to the ${role}` : `${key}: not visible to the ${role} (missing, or the account is not a member)`;
  return { json: { key, visible }, text: `${text}\n`, code: visible ? EXIT.ok : EXIT.failed };
}
