import type { Role } from '../../../config/index.js';
import type { Context } from '../../../core/context.js';
import { EXIT } from '../../../core/errors.js';
import { issueKeyArg } from '../../../core/issue-key.js';
import { dim, table, type Outcome } from '../../../core/output.js';

/** The transitions available from the issue's current status. */
export async function issueTransitions(ctx: Context, role: Role, key: string): Promise<Outcome> {
  key = issueKeyArg(key); // abc-1 = ABC-1
  const { transitions } = await ctx.client(role).transitions(key);
  const text = transitions.length
    ? table(transitions.map((t) => [t.id, t.name, `→ ${t.to?.name ?? '?'}`]))
    : dim(ctx.io, 'No transition is available from the current status.');
  return { json: transitions, text: `${text}\n`, code: EXIT.ok };
}
