import type { Context } from '../core/context.js';
import { refuse, usage } from '../core/errors.js';
import * as git from '../git/index.js';
import { issueKeyFromBranch } from './handover.js';

export interface IssueCheckout {
  root: string;
  mainPath: string;
  branch: string;
  key: string;
  kind: 'feature' | 'hotfix';
}

/** The issue worktree `cwd` is in (spec §1 rule 1): the key comes from the branch name. */
export async function issueCheckout(ctx: Context, command: string): Promise<IssueCheckout> {
  const g = { env: ctx.env };
  const info = await git.worktreeBranch(ctx.cwd, g).catch((e: unknown) => {
    if (e instanceof git.GitError && e.code === 'GIT_FAILED')
      throw usage('NOT_IN_WORKTREE', `${ctx.cwd} is not inside a git checkout`, `cd into the worktree jst plan created for the issue, then run ${command}`);
    throw e;
  });
  const { branch } = info;
  const parsed = branch === null ? null : issueKeyFromBranch(branch);
  if (branch === null || parsed === null) {
    throw usage(
      'NOT_IN_WORKTREE',
      `${command} runs in an issue's worktree, on feature/<KEY>-… or hotfix/<KEY>-…, and ${info.root} is on ${branch ?? 'a detached HEAD'}`,
      `cd into the issue's worktree (see jst plan's hand-off lines), then run ${command}`,
    );
  }
  return { root: info.root, mainPath: info.mainPath, branch, key: parsed.key, kind: parsed.kind };
}

/** Short names of local and origin branches whose issue key is `key` (feature/KEY-… or hotfix/KEY-…). */
export async function branchesOfKey(cwd: string, key: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  // Once per command while it changes nothing (git/reads.ts): the review brief asks for each sub-task.
  const out = await git.keptRead(
    git.readKey('refs', cwd, env),
    async () => (await git.runGit(['for-each-ref', '--format=%(refname)', 'refs/heads', 'refs/remotes/origin'], cwd, { env, keptRead: true })).stdout,
  );
  const names = new Set<string>();
  for (const ref of out.split('\n')) {
    const short = ref.replace(/^refs\/heads\//, '').replace(/^refs\/remotes\/origin\//, '');
    if (short !== ref && issueKeyFromBranch(short)?.key === key) names.add(short);
  }
  return [...names].sort();
}

/** The one branch of `key`, or a refusal naming what was found. */
export async function branchOfKey(cwd: string, key: string, env: NodeJS.ProcessEnv): Promise<string> {
  const found = await branchesOfKey(cwd, key, env);
  if (found.length === 1) return found[0]!;
  throw refuse(
    'NO_BRANCH',
    found.length === 0
      ? `no branch feature/${key}-… or hotfix/${key}-… exists here or on origin`
      : `${key} has several branches (${found.join(', ')}), so which one is under review is not clear`,
    found.length === 0 ? "Run git fetch origin, or run the command in the issue's worktree" : "Run the command in the issue's worktree instead",
  );
}

/** What `git status --porcelain` lists: empty when the work tree is clean. */
export async function dirtyFiles(cwd: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  // `.jst/` is the toolkit's own configuration, which the plan copies into every worktree.
  const out = (await git.runGit(['status', '--porcelain', '--', '.', ':(exclude).jst'], cwd, { env })).stdout;
  return out.split('\n').filter((l) => l.trim() !== '');
}

/** The first of `refs` that exists, or null. */
export async function firstRef(cwd: string, refs: string[], env: NodeJS.ProcessEnv): Promise<string | null> {
  for (const ref of refs) {
    if ((await git.runGit(['rev-parse', '--verify', '--quiet', ref], cwd, { env, okCodes: [0, 1] })).code === 0) return ref;
  }
  return null;
}
