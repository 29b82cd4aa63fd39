import { allComments, type Comment, type TrackerClient } from '@jst/client';
import { requireRoleEmail, roleSettings, type JstConfig, type Role } from '../config/index.js';
import type { Context } from '../core/context.js';
import { refuse } from '../core/errors.js';
import type { RoleComments } from './markers.js';

/**
 * Whose comment a marker is (ARCHITECTURE §11): each role's account, by accountId, resolved from
 * its `TRACKER_<ROLE>_EMAIL` through the tracker's user search (spec §4 client rule 4, as `jst
 * plan` finds the executor it assigns), once per run. Every marker reader of the CLI and of the
 * MCP tools (which run the same command code) takes its comments from `roleComments` here, so
 * the two faces cannot disagree about what counts.
 *
 * Fail closed: a role whose account cannot be resolved (the setting is missing, no account or
 * several accounts answer to the e-mail) has no comments at all, so none of its markers counts;
 * `RoleComments.problem` says why, and `requireRoleAccount` turns it into a refusal where a
 * decision rests on it (`jst done`, a verdict).
 */

/** A role's account on the tracker, or why it has none. */
export interface RoleAccount {
  role: Role;
  setting: string;
  accountId: string | null;
  problem: string | null;
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** Resolved accounts, per run (one Context = one CLI run or one MCP tool call). */
const cache = new WeakMap<Context, Map<Role, Promise<RoleAccount>>>();

/**
 * Accounts found, per configuration: a `jst mcp` session keeps its configuration object while no
 * file of `.jst/` (nor a setting in the environment) changes (config/cache.ts), so its tool calls
 * look each role up once, and again as soon as `.jst/` changes (a new e-mail for a role is a new
 * configuration). Only found accounts are kept: a role that resolved to none is asked again on the
 * next run, so an account made on the tracker meanwhile counts at once. A CLI run loads its
 * configuration once, so this is the run's cache there.
 */
const found = new WeakMap<JstConfig, Map<Role, { email: string; accountId: string }>>();

/**
 * The account of `role`, looked up with `via` (the caller's own client). The caller's own e-mail
 * is `/myself` (exact, one call); another role's is the user search, where the answer must be one
 * account: the one showing exactly that e-mail, or the only one found when the tracker hides
 * e-mail addresses (a Jira site shows one only to its owner). Anything else resolves to none.
 */
export function roleAccount(ctx: Context, role: Role, via: TrackerClient): Promise<RoleAccount> {
  let byRole = cache.get(ctx);
  if (!byRole) cache.set(ctx, (byRole = new Map<Role, Promise<RoleAccount>>()));
  let account = byRole.get(role);
  if (!account) byRole.set(role, (account = keptOrLookup(ctx.config(), role, via)));
  return account;
}

async function keptOrLookup(config: JstConfig, role: Role, via: TrackerClient): Promise<RoleAccount> {
  const setting = roleSettings(role).email;
  const email = config.settings[setting]?.value.trim() ?? '';
  let kept = found.get(config);
  const hit = kept?.get(role);
  if (hit && hit.email === email) return { role, setting, accountId: hit.accountId, problem: null };
  const account = await lookup(config, role, via);
  if (account.accountId !== null) {
    if (!kept) found.set(config, (kept = new Map<Role, { email: string; accountId: string }>()));
    kept.set(role, { email, accountId: account.accountId });
  }
  return account;
}

async function lookup(config: JstConfig, role: Role, via: TrackerClient): Promise<RoleAccount> {
  const setting = roleSettings(role).email;
  const none = (problem: string): RoleAccount => ({ role, setting, accountId: null, problem });
  const email = config.settings[setting]?.value.trim() ?? '';
  if (!email) return none(`${setting} is not set, so the ${role}'s account is unknown`);
  if (!EMAIL.test(email)) return none(`${setting} is not an e-mail address, so the ${role}'s account is unknown`);
  if (email.toLowerCase() === via.email.trim().toLowerCase()) return { role, setting, accountId: (await via.myself()).accountId, problem: null };
  const users = (await via.findUsers(email)).filter((u) => typeof u.accountId === 'string' && u.accountId !== '');
  const exact = users.filter((u) => u.emailAddress?.toLowerCase() === email.toLowerCase());
  if (exact.length === 1) return { role, setting, accountId: exact[0]!.accountId, problem: null };
  if (users.length === 1 && users[0]!.emailAddress === undefined) return { role, setting, accountId: users[0]!.accountId, problem: null };
  if (users.length === 0) return none(`no account on the tracker answers to ${setting} (${email}), so the ${role}'s account is unknown`);
  return none(
    `${users.length} accounts on the tracker answer to ${setting} (${email}) and none shows exactly that e-mail, so the ${role}'s account is unknown`,
  );
}

/**
 * "The marker comments of role R": the comments of an issue that R's account wrote, oldest first
 * (none when R's account cannot be resolved). Every marker reader (markers.ts, handover.ts,
 * start/phase2.ts) takes this and nothing else.
 */
export async function roleComments<R extends Role>(ctx: Context, role: R, via: TrackerClient, comments: readonly Comment[]): Promise<RoleComments<R>> {
  const account = await roleAccount(ctx, role, via);
  if (account.accountId === null) return { role, accountId: null, problem: account.problem, comments: [] };
  return commentsBy(role, account.accountId, comments);
}

/** The comments `accountId` wrote, as role R's (for a caller that knows the account already, such as `jst dispatch`). */
export function commentsBy<R extends Role>(role: R, accountId: string, comments: readonly Comment[]): RoleComments<R> {
  return { role, accountId, problem: null, comments: comments.filter((c) => c.author?.accountId === accountId) };
}

/** `roleComments` over every comment of `key` (all pages). */
export async function readRoleComments<R extends Role>(ctx: Context, role: R, via: TrackerClient, key: string): Promise<RoleComments<R>> {
  return roleComments(ctx, role, via, await allComments(via, key));
}

/** Where a decision rests on a role's markers (`jst done`, a verdict): its account, or exit 1 naming the setting. */
export function requireRoleAccount(posted: RoleComments, what: string): string {
  if (posted.accountId !== null) return posted.accountId;
  const setting = roleSettings(posted.role).email;
  throw refuse(
    'ROLE_ACCOUNT_UNKNOWN',
    `${posted.problem ?? `the ${posted.role}'s account is unknown`}: ${what} counts only from the ${posted.role}'s account (ARCHITECTURE §11)`,
    `Nothing was changed. Set ${setting} in .jst/local.env to the e-mail of the ${posted.role}'s tracker account, then rerun`,
  );
}

/** EMAIL | @me | executor (the executor's e-mail from local configuration only, spec §1 rule 9). */
export function resolveWho(ctx: Context, who: string): string {
  return who === 'executor' ? requireRoleEmail(ctx.config(), 'executor') : who;
}
