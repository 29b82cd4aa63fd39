import type { Comment, Issue, TrackerClient } from '@jst/client';
import type { JstConfig } from '../config/index.js';
import type { Context } from '../core/context.js';
import * as git from '../git/index.js';
import { prTargetFrom } from './handover.js';
import { branchesOfKey } from './checkout.js';
import { refuse } from '../core/errors.js';
import { PR_TARGET_MARKER } from './markers.js';
import { readRoleComments, roleComments } from './roles.js';

export type PrBaseSource = 'parentbranch' | 'pr-target-comment' | 'parent-branch' | 'default-base-branch';

export interface PrBase {
  base: string;
  source: PrBaseSource;
  tried: string[];
}

export interface PrBaseInput {
  /** The run: whose `PR target branch:` comments count (the assigner's, phase/roles.ts). */
  ctx: Context;
  cwd: string;
  env: NodeJS.ProcessEnv;
  branch: string;
  key: string;
  config: JstConfig;
  client: TrackerClient;
  /** The issue with at least `parent`; read when absent. */
  issue?: Issue | undefined;
  /** Every comment of the issue when the caller has read them already (not read again). */
  comments?: readonly Comment[] | undefined;
  say?: ((line: string) => void) | undefined;
}

/**
 * ARCHITECTURE §11 `jst pr-base`, in its order: `branch.<b>.parentbranch` → the issue's
 * `PR target branch:` comment from the assigner's account → for a sub-task, the single branch (local or on origin) carrying its
 * parent's key → DEFAULT_BASE_BRANCH for a top-level issue only. Unresolved is a refusal listing
 * what was tried, never a guess. Each source is read only when the ones before it gave nothing.
 */
export async function resolvePrBase(i: PrBaseInput): Promise<PrBase> {
  const tried: string[] = [];
  const say = i.say ?? (() => undefined);
  const parentbranch = await git.configGet(i.cwd, `branch.${i.branch}.parentbranch`, { env: i.env });
  if (parentbranch) return { base: parentbranch, source: 'parentbranch', tried };
  tried.push(`git config branch.${i.branch}.parentbranch: not set`);

  say(`→ comments of ${i.key} (${PR_TARGET_MARKER}, the assigner's)`);
  const assigner = i.comments ? await roleComments(i.ctx, 'assigner', i.client, i.comments) : await readRoleComments(i.ctx, 'assigner', i.client, i.key);
  const target = prTargetFrom(assigner);
  if (target) return { base: target.branch, source: 'pr-target-comment', tried };
  // ARCHITECTURE §11: only the assigner's comment counts; an unknown assigner counts none (said, not hidden).
  if (assigner.problem) say(`! ${assigner.problem}: no "${PR_TARGET_MARKER}" comment counts`);
  tried.push(`a "${PR_TARGET_MARKER}" comment by the assigner on ${i.key}: ${assigner.problem ? `not read (${assigner.problem})` : 'none'}`);

  const issue = i.issue ?? (await i.client.getIssue(i.key, ['parent']));
  const parent = issue.fields.parent?.key;
  if (parent) {
    const found = await branchesOfKey(i.cwd, parent, i.env);
    if (found.length === 1) return { base: found[0]!, source: 'parent-branch', tried };
    tried.push(`the branch of the parent ${parent} (local or on origin): ${found.length === 0 ? 'none' : `several (${found.join(', ')})`}`);
    tried.push('DEFAULT_BASE_BRANCH: used for a top-level issue only, and this is a sub-task');
    throw refuse(
      'PR_BASE_UNRESOLVED',
      `the PR base of ${i.branch} could not be resolved; tried: ${tried.join('; ')}`,
      `Record it with git config branch.${i.branch}.parentbranch <parent branch>, then rerun`,
    );
  }
  return { base: i.config.defaultBaseBranch, source: 'default-base-branch', tried };
}
