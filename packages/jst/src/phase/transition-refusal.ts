import { pickTransition, TransitionMissing } from '@jst/client';
import { checkRoleCredentials, ROLES, roleSettings, type Role } from '../config/index.js';
import type { Context } from '../core/context.js';
import { refuse } from '../core/errors.js';

/**
 * spec §3 rule 5 (ARCHITECTURE §21): a move jst needs that the tracker does not offer because of a
 * workflow condition. The tracker hides such a transition (as the vendor does), so jst asks again
 * for the transitions the caller fails (`includeUnavailableTransitions`): one into the status with
 * `isAvailable: false` is a condition, not a missing transition. Who may make it is not something
 * the tracker tells; jst asks, read-only, with each other role's account that `.jst/local.env`
 * holds, and says only what those answers show: "only the reviewer" when every role was asked,
 * "the reviewer" when some could not be. An agent holding only its own role's credentials gets
 * the refusal without the others' answers. Any other missing transition keeps the client's words.
 */
export async function explainRefusal(ctx: Context, error: unknown): Promise<unknown> {
  if (!(error instanceof TransitionMissing)) return error;
  try {
    return (await conditionRefusal(ctx, error)) ?? error;
  } catch {
    // Asking again failed (the network, a token): the client's own refusal is still true.
    return error;
  }
}

/** The role(s) whose configured account is `email` (all three may share one), in role order. */
function rolesOf(ctx: Context, email: string): Role[] {
  const settings = ctx.config().settings;
  return ROLES.filter((r) => settings[roleSettings(r).email]?.value.trim().toLowerCase() === email.trim().toLowerCase());
}

const list = (roles: readonly string[]) => (roles.length <= 1 ? (roles[0] ?? '') : `${roles.slice(0, -1).join(', ')} or ${roles.at(-1)!}`);

async function conditionRefusal(ctx: Context, e: TransitionMissing): Promise<Error | undefined> {
  const own = rolesOf(ctx, e.email);
  if (own.length === 0) return undefined;
  const offer = await ctx.client(own[0]!).transitions(e.key, { includeUnavailable: true });
  if (pickTransition(offer.transitions, e.status)?.isAvailable !== false) return undefined;

  // Each other role's account, asked read-only; a role not configured (or not answering) stays unknown.
  const may: Role[] = [];
  let unknown = 0;
  for (const role of ROLES) {
    if (own.includes(role)) continue;
    if (checkRoleCredentials(ctx.config(), role).length > 0) {
      unknown++;
      continue;
    }
    const offered = await ctx
      .client(role)
      .transitions(e.key)
      .then((r) => pickTransition(r.transitions, e.status) !== undefined)
      .catch(() => undefined);
    if (offered === undefined) unknown++;
    else if (offered) may.push(role);
  }
  const who = own.length > 1 ? `${own.join(' and ')} (one account)` : own[0]!;
  const move = `move ${e.key} to "${e.status}"`;
  const problem =
    may.length > 0 && unknown === 0
      ? `the tracker's workflow lets only the ${list(may)} ${move}`
      : may.length > 0
        ? `the tracker's workflow lets the ${list(may)} ${move}, not the ${who}`
        : `the tracker's workflow does not let the ${who} ${move}`;
  const done = ctx.config().statuses.done;
  // In jst's flow Done is the reviewer's move (jst done); another role's refusal points there, the reviewer's own points at the condition.
  const flow =
    e.status !== done
      ? ''
      : own.includes('reviewer')
        ? ` "${done}" is the reviewer's move in jst's flow (jst done), so the condition names a role this account is not in: the project's admin puts ${e.email} in that role, or changes the condition.`
        : ` In jst's flow the reviewer makes it: jst done ${e.key}.`;
  return refuse(
    'WORKFLOW_CONDITION',
    `${problem}: the transition into "${e.status}" has a condition ${e.email} does not meet, so the tracker does not offer it to the ${who}`,
    `Nothing was changed.${flow} The condition is part of the project's workflow (on Jira Cloud: a rule "Restrict who can move a work item", or the condition "User Is In Project Role", on the transition into "${e.status}").`,
  );
}
