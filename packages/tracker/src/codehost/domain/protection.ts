import { CodehostError, notFound } from './errors.js';
import type { CodeHost } from './host.js';
import type { ChRepo, ChUser } from './model.js';
import { permissionOn } from './permission.js';
import { branchSha } from './refs.js';
import type { ChTx } from '../store/schema.js';
import type { CodehostStore } from '../store/store.js';
import { storeOf } from './store-access.js';
import type { PullView, RepoAccess } from './views.js';

/**
 * Branch protection (ARCHITECTURE §21, GitHub's own): the rules of a protected branch, who may
 * read and set them (admins), and what they refuse — a merge without the approvals (merges.ts),
 * a direct push, force push or deletion (git's pre-receive hook, git/protect-hook.ts, told the
 * rules by gitAccess).
 */

export interface BranchRules {
  /** GitHub's `required_pull_request_reviews`; null: no pull request is required. */
  reviews: { requiredApprovals: number; dismissStale: boolean; codeOwners: boolean; lastPush: boolean } | null;
  enforceAdmins: boolean;
  allowForcePushes: boolean;
  allowDeletions: boolean;
  /** Accepted and echoed as GitHub does; the code host has no status checks to wait for. */
  statusChecks: { strict: boolean; contexts: string[]; checks: { context: string; app_id: number | null }[] } | null;
  linearHistory: boolean;
  blockCreations: boolean;
  conversationResolution: boolean;
  lockBranch: boolean;
  allowForkSyncing: boolean;
}

/** GitHub's PUT body, as the HTTP edge has checked its types. */
export interface ProtectionInput {
  required_status_checks: { strict: boolean; contexts: string[]; checks?: { context: string; app_id?: number }[] | undefined } | null;
  enforce_admins: boolean | null;
  required_pull_request_reviews: {
    dismiss_stale_reviews?: boolean | undefined;
    require_code_owner_reviews?: boolean | undefined;
    required_approving_review_count?: number | undefined;
    require_last_push_approval?: boolean | undefined;
  } | null;
  restrictions: { users: string[]; teams: string[]; apps?: string[] | undefined } | null;
  required_linear_history?: boolean | undefined;
  allow_force_pushes?: boolean | null | undefined;
  allow_deletions?: boolean | undefined;
  block_creations?: boolean | undefined;
  required_conversation_resolution?: boolean | undefined;
  lock_branch?: boolean | undefined;
  allow_fork_syncing?: boolean | undefined;
}

/** The seed's `repos[].protect[]` entry (seed.ts), in the rules' terms. */
export interface SeedProtection {
  branch: string;
  requiredApprovals: number;
  dismissStaleReviews: boolean;
  allowForcePushes: boolean;
  allowDeletions: boolean;
  enforceAdmins: boolean;
}

const noAdmin = () => new CodehostError('no_push', 'Must have admin rights to Repository.');
const branchNotProtected = () => new CodehostError('not_found', 'Branch not protected');
const branchNotFound = () => new CodehostError('not_found', 'Branch not found');

/** GitHub's sentence for missing approvals (the merge's 405 and the push's GH006 reason). */
export function approvalsSentence(n: number): string {
  return n === 1
    ? 'At least 1 approving review is required by reviewers with write access.'
    : `At least ${n} approving reviews are required by reviewers with write access.`;
}

export function rulesOfSeed(p: SeedProtection): BranchRules {
  return {
    reviews:
      p.requiredApprovals > 0 ? { requiredApprovals: p.requiredApprovals, dismissStale: p.dismissStaleReviews, codeOwners: false, lastPush: false } : null,
    enforceAdmins: p.enforceAdmins,
    allowForcePushes: p.allowForcePushes,
    allowDeletions: p.allowDeletions,
    statusChecks: null,
    linearHistory: false,
    blockCreations: false,
    conversationResolution: false,
    lockBranch: false,
    allowForkSyncing: false,
  };
}

function rulesOfInput(input: ProtectionInput): BranchRules {
  const r = input.required_pull_request_reviews;
  const s = input.required_status_checks;
  return {
    reviews:
      r === null
        ? null
        : {
            requiredApprovals: r.required_approving_review_count ?? 1,
            dismissStale: r.dismiss_stale_reviews ?? false,
            codeOwners: r.require_code_owner_reviews ?? false,
            lastPush: r.require_last_push_approval ?? false,
          },
    enforceAdmins: input.enforce_admins ?? false,
    allowForcePushes: input.allow_force_pushes ?? false,
    allowDeletions: input.allow_deletions ?? false,
    statusChecks:
      s === null ? null : { strict: s.strict, contexts: s.contexts, checks: (s.checks ?? []).map((c) => ({ context: c.context, app_id: c.app_id ?? null })) },
    linearHistory: input.required_linear_history ?? false,
    blockCreations: input.block_creations ?? false,
    conversationResolution: input.required_conversation_resolution ?? false,
    lockBranch: input.lock_branch ?? false,
    allowForkSyncing: input.allow_fork_syncing ?? false,
  };
}

const parse = (text: string): BranchRules => JSON.parse(text) as BranchRules;

/** The rules of a branch, or undefined when it is not protected. */
export async function rulesOf(host: CodeHost, repo: ChRepo, branch: string): Promise<BranchRules | undefined> {
  const text = await storeOf(host).protections.get(repo.id, branch);
  return text === undefined ? undefined : parse(text);
}

/** GET …/branches/{branch}/protection: admins only (anyone else is answered Not Found, as on GitHub). */
export async function getProtection(host: CodeHost, access: RepoAccess, branch: string): Promise<BranchRules> {
  if (access.permission !== 'admin') throw notFound();
  if ((await branchSha(host, access.repo, branch)) === null) throw branchNotFound();
  const rules = await rulesOf(host, access.repo, branch);
  if (!rules) throw branchNotProtected();
  return rules;
}

/** PUT …/branches/{branch}/protection: replaces the branch's rules (admins only). */
export async function putProtection(host: CodeHost, access: RepoAccess, branch: string, input: ProtectionInput): Promise<BranchRules> {
  if (access.permission !== 'admin') throw noAdmin();
  if ((await branchSha(host, access.repo, branch)) === null) throw branchNotFound();
  // GitHub's answer for a repository a user owns: restrictions are an organization's.
  if (input.restrictions !== null)
    throw new CodehostError('refused', 'Validation Failed', [], ['Only organization repositories can have users and team restrictions']);
  const n = input.required_pull_request_reviews?.required_approving_review_count;
  if (n !== undefined && (n < 0 || n > 6))
    throw new CodehostError('refused', 'Validation Failed', [], ['Invalid request. "required_approving_review_count" must be between 0 and 6.']);
  const rules = rulesOfInput(input);
  await storeOf(host).protections.put(access.repo.id, branch, JSON.stringify(rules), host.now());
  return rules;
}

/** DELETE …/branches/{branch}/protection (admins only). */
export async function deleteProtection(host: CodeHost, access: RepoAccess, branch: string): Promise<void> {
  if (access.permission !== 'admin') throw noAdmin();
  if (!(await storeOf(host).protections.remove(access.repo.id, branch))) throw branchNotProtected();
}

/** The seed's protections (apply-seed.ts): each listed branch's rules set as written. */
export async function seedProtections(store: CodehostStore, tx: ChTx, repoId: number, protections: SeedProtection[], now: string): Promise<void> {
  for (const p of protections) {
    const text = JSON.stringify(rulesOfSeed(p));
    if ((await store.protections.get(repoId, p.branch, tx)) !== text) await store.protections.put(repoId, p.branch, text, now, tx);
  }
}

/** Whether the rules' pull-request requirement binds this caller (admins pass unless enforce_admins). */
const binds = (rules: BranchRules, permission: string | undefined) => rules.reviews !== null && (permission !== 'admin' || rules.enforceAdmins);

/**
 * Why an open pull request may not be merged into its protected base yet, or null. GitHub's
 * count: the latest deciding review (APPROVED, CHANGES_REQUESTED, DISMISSED) of each reviewer who
 * is not the author and has write access; the approvals are those whose latest is APPROVED. With
 * dismiss_stale_reviews, the push that moved the head made approvals of an earlier head DISMISSED
 * (pushes.ts, where GitHub does it); one of another head is not counted here either (read only).
 */
export async function mergeBlock(host: CodeHost, view: PullView, caller?: { user: ChUser; permission: string }): Promise<string | null> {
  const rules = await rulesOf(host, view.repo, view.pull.base_ref);
  if (!rules?.reviews) return null;
  const store = storeOf(host);
  if (caller && !binds(rules, caller.permission)) return null;
  const latest = new Map<number, string>();
  for (const r of await store.reviews.all(view.pull.id)) {
    if (r.state === 'COMMENTED' || r.state === 'PENDING') continue;
    latest.set(r.user_id, r.state === 'APPROVED' && rules.reviews.dismissStale && r.commit_id !== view.headSha ? 'DISMISSED' : r.state);
  }
  let approvals = 0;
  const users = await store.users.byIds([...latest.keys()]);
  for (const user of users) {
    if (user.id === view.pull.user_id || latest.get(user.id) !== 'APPROVED') continue;
    const permission = await permissionOn(host, user, view.repo);
    if (permission === 'write' || permission === 'admin') approvals += 1;
  }
  return approvals >= rules.reviews.requiredApprovals ? null : approvalsSentence(rules.reviews.requiredApprovals);
}

/** What git's pre-receive hook enforces on one protected branch for one pusher (git/protect-hook.ts). */
export interface RefRule {
  ref: string;
  allowForcePushes: boolean;
  allowDeletions: boolean;
  /** GitHub's reason a direct update is refused to this pusher, or null when it may push. */
  refuseUpdate: string | null;
}

/** The rules of every protected branch of a repository, as they bind a pusher with `permission`. */
export async function refRulesFor(host: CodeHost, repo: ChRepo, permission: string): Promise<RefRule[]> {
  return (await storeOf(host).protections.all(repo.id)).map(({ branch, rules: text }) => {
    const rules = parse(text);
    const refuseUpdate = !binds(rules, permission)
      ? null
      : rules.reviews!.requiredApprovals > 0
        ? approvalsSentence(rules.reviews!.requiredApprovals)
        : 'Changes must be made through a pull request.';
    return { ref: `refs/heads/${branch}`, allowForcePushes: rules.allowForcePushes, allowDeletions: rules.allowDeletions, refuseUpdate };
  });
}
