import { join } from 'node:path';
import { textToAdf } from '@jst/adf';
import { commentText, TrackerHttpError } from '@jst/client';
import { prTargetLine } from '@jst/protocol';
import { JstError } from '../config/index.js';
import * as git from '../git/index.js';
import { issueDescription } from './description.js';
import type { Effects } from './effects.js';
import { pathExists } from './effects.js';
import type { PlanInput, WorkItem } from './plan-file.js';
import type { Journal } from './plan-journal.js';
import { SUBTASK_TYPE, TASK_TYPE } from './plan-types.js';
import { featureBranch, hotfixBranch } from './slug.js';

/** One provisioned leaf (spec §1 rule 10): its issue, branch, worktree and PR target. */
export interface Leaf {
  key: string;
  summary: string;
  branch: string;
  worktree: string;
  /** The recorded parentbranch: the base for a top-level branch, the parent's branch for a sub-task. */
  prTarget: string;
  role: 'single' | 'parent' | 'subtask';
}

export interface ProvisionContext {
  plan: PlanInput;
  project: string;
  executorAccountId: string;
  /** The branch a top-level branch is recorded against (never `origin/…`). */
  base: string;
  /** Where the top-level branch is cut from: `<base>` (planned) or `origin/<production>` (hotfix). */
  startPoint: string;
  worktreesDir: string;
  repo: string;
  env: NodeJS.ProcessEnv;
  effects: Effects;
  journal: Journal | null;
  progress: (line: string) => void;
}

/** `PR target branch: <branch> Worktree: <absolute_path>` (spec §1 rule 11). */
export const targetComment = (leaf: Leaf) => prTargetLine(leaf.prTarget, leaf.worktree);

/**
 * Runs one named step once: a step the journal records as done is skipped with its recorded
 * result; otherwise it is recorded as started, run, and recorded as done. A step that was started
 * but not finished (the run was killed) runs again with `resuming` set, and must first look for
 * what its first attempt may already have done.
 */
async function step(
  c: ProvisionContext,
  id: string,
  label: string,
  work: (resuming: boolean) => Promise<Record<string, string>>,
): Promise<Record<string, string>> {
  const rec = c.journal?.get(id);
  if (rec?.state === 'done') {
    c.progress(`✓ ${label} (done in an earlier run)`);
    return rec.result ?? {};
  }
  c.progress(`→ ${label}`);
  c.journal?.started(id);
  let result: Record<string, string>;
  try {
    // A step that failed in an earlier run is looked at as one cut off: its call may have landed.
    result = await work(rec?.state === 'started' || rec?.state === 'failed');
  } catch (e) {
    // Kept for a corrected plan and for --abandon: a 4xx from the tracker changed nothing there.
    const refused = e instanceof TrackerHttpError && e.status >= 400 && e.status < 500;
    c.journal?.failed(id, e instanceof Error ? e.message.split('\n')[0]!.slice(0, 300) : String(e), refused);
    throw e;
  }
  c.journal?.done(id, result);
  return result;
}

const marker = (c: ProvisionContext, id: string) => `jst${c.journal?.runId ?? 'dryrun'}${id.replace(/[^a-z0-9]/gi, '')}`;

async function createIssueStep(c: ProvisionContext, id: string, item: WorkItem, role: Leaf['role'], parentKey?: string): Promise<string> {
  const tag = marker(c, id);
  const r = await step(c, `${id}:issue`, `create ${role === 'subtask' ? 'sub-task' : 'issue'} "${item.summary}"`, async (resuming) => {
    if (resuming) {
      const found = await c.effects.findIssueByMarker(c.project, tag);
      if (found) return { key: found };
    }
    // spec §1 rule 9: every issue is created with the executor as assignee, by the assigner.
    const key = await c.effects.createIssue({
      project: { key: c.project },
      issuetype: { name: role === 'subtask' ? SUBTASK_TYPE : TASK_TYPE },
      summary: item.summary,
      description: issueDescription(c.plan, item, role, tag),
      assignee: { accountId: c.executorAccountId },
      ...(parentKey ? { parent: { key: parentKey } } : {}),
    });
    return { key };
  });
  return r.key!;
}

/** The exact branch name, here and on origin (as last fetched): a slug shared with older work is no collision. */
async function wholeNameFree(c: ProvisionContext, branch: string): Promise<void> {
  const out = await git.runGit(['for-each-ref', '--format=%(refname:short)', `refs/heads/${branch}`, `refs/remotes/origin/${branch}`], c.repo, { env: c.env });
  const clash = out.stdout.split('\n').find(Boolean);
  if (clash)
    throw new JstError({
      code: 'PLAN_COLLISION',
      exitCode: 1,
      problem: `branch ${branch} exists already (${clash}), left from an earlier issue with the same key`,
      hint: 'The tracker reused a key: rename or delete that branch, then rerun jst plan to finish this run',
    });
}

/** spec §1 rule 10: branch + worktree, `.jst/` copied, parentbranch (and gh-merge-base) recorded. */
async function provisionLeaf(
  c: ProvisionContext,
  id: string,
  key: string,
  item: WorkItem,
  role: Leaf['role'],
  prTarget: string,
  startPoint: string,
): Promise<Leaf> {
  const branch = c.plan.path === 'hotfix' ? hotfixBranch(key, item.summary) : featureBranch(key, item.summary);
  const worktree = join(c.worktreesDir, `worktree-${key}`);
  const leaf: Leaf = { key, summary: item.summary, branch, worktree, prTarget, role };
  await step(c, `${id}:worktree`, `create branch ${branch} and worktree ${worktree}`, async (resuming) => {
    // A fresh run judges a collision on the whole branch name, which holds a key minted moments
    // ago: only a key reused after a tracker reset can meet an old branch (issue 14 item 7).
    if (!resuming && !c.effects.dryRun) await wholeNameFree(c, branch);
    if (resuming && !c.effects.dryRun) {
      const o = { env: c.env };
      const entries = await git.worktreeList(c.repo, o);
      if (entries.some((e) => e.path === worktree && e.branch === branch)) return { branch, worktree };
      if (await git.branchExists(c.repo, branch, o))
        throw new JstError({
          code: 'PLAN_COLLISION',
          exitCode: 1,
          problem: `branch ${branch} already exists but has no worktree at ${worktree}`,
          hint: 'Remove or rename that branch, then rerun jst plan',
        });
      if (pathExists(worktree))
        throw new JstError({ code: 'PLAN_COLLISION', exitCode: 1, problem: `${worktree} already exists`, hint: 'Move it away, then rerun jst plan' });
    }
    await c.effects.worktreeAdd(worktree, branch, startPoint);
    // Recorded so that --abandon removes exactly these, whatever the configuration says later.
    return { branch, worktree };
  });
  await step(c, `${id}:jst`, `copy .jst/ into ${worktree}`, async () => {
    await c.effects.copyJstDir(worktree);
    // Refuse to leave credentials where git would commit them (issue 6 rule 10).
    if (!c.effects.dryRun && !(await git.isIgnored(worktree, '.jst/local.env', { env: c.env, noIndex: true }))) {
      throw new JstError({
        code: 'PLAN_UNSAFE',
        problem: `git would not ignore ${join(worktree, '.jst/local.env')}`,
        hint: 'Make sure .jst/.gitignore lists local.env, then rerun jst plan',
      });
    }
    return {};
  });
  await step(c, `${id}:config`, `record ${branch} → ${prTarget} (parentbranch, gh-merge-base)`, async () => {
    await c.effects.configSet(`branch.${branch}.parentbranch`, prTarget);
    await c.effects.configSet(`branch.${branch}.gh-merge-base`, prTarget);
    return {};
  });
  return leaf;
}

/** Posts a comment once: a rerun finds the text already there and does not post it again. */
async function commentOnce(c: ProvisionContext, id: string, key: string, text: string, confirm: boolean): Promise<void> {
  const wanted = text
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '')
    .join('\n');
  const has = async () => (await c.effects.comments(key)).some((cm) => commentText(cm).join('\n') === wanted);
  await step(c, id, `comment on ${key}: ${text.split('\n')[0]}`, async (resuming) => {
    // Only a step cut off in an earlier run may already have posted its comment.
    if (!resuming || !(await has())) await c.effects.addComment(key, textToAdf(text), text);
    // spec §1 rule 11: on the hotfix path the comment is confirmed by reading it back.
    if (confirm && !c.effects.dryRun && !(await has())) {
      throw new JstError({
        code: 'PLAN_COMMENT',
        exitCode: 1,
        problem: `the PR target comment on ${key} was posted but cannot be read back`,
        hint: 'Rerun jst plan to post it again',
      });
    }
    return {};
  });
}

/** The provisioning of spec §1 rules 9-11, top-level leaf first, then the sub-tasks. */
export async function provision(c: ProvisionContext): Promise<Leaf[]> {
  const multistep = c.plan.steps.length > 0;
  const topRole = multistep ? 'parent' : 'single';
  const topKey = await createIssueStep(c, 'top', c.plan, topRole);
  const top = await provisionLeaf(c, 'top', topKey, c.plan, topRole, c.base, c.startPoint);
  // spec §1 rule 10: the only push of phase 1 is the top-level branch.
  await step(c, 'top:push', `push ${top.branch} to origin`, async () => {
    await c.effects.push(top.branch);
    return {};
  });
  const leaves: Leaf[] = [top];
  if (!multistep) {
    await commentOnce(c, 'top:comment', top.key, targetComment(top), c.plan.path === 'hotfix');
    return leaves;
  }
  for (const [i, item] of c.plan.steps.entries()) {
    const id = `sub${i + 1}`;
    const key = await createIssueStep(c, id, item, 'subtask', top.key);
    const leaf = await provisionLeaf(c, id, key, item, 'subtask', top.branch, top.branch);
    await commentOnce(c, `${id}:comment`, key, targetComment(leaf), false);
    leaves.push(leaf);
  }
  // A corrected plan changed the steps after the parent was created: its "Steps" list follows.
  if (c.journal?.amended) {
    await step(c, 'top:describe', `update the description of ${top.key} to the corrected plan`, async () => {
      await c.effects.editDescription(top.key, issueDescription(c.plan, c.plan, 'parent', marker(c, 'top')));
      return {};
    });
  }
  // spec §1 rule 11: once more on the parent, after the sub-task loop.
  await commentOnce(c, 'top:comment', top.key, targetComment(top), false);
  return leaves;
}

export { commentOnce };
