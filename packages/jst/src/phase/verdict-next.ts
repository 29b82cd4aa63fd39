import type { Context } from '../core/context.js';
import * as git from '../git/index.js';

/**
 * The next step after changes are requested (ARCHITECTURE §11), naming the worktree by its path
 * when this checkout has one for the branch. A parent's pull request is the reviewer's: its fix is
 * pushed with git, and the reviewer's `--open-parent-pr` takes it back to review.
 */
export async function changesRequestedNext(ctx: Context, key: string, branch: string, parent: boolean): Promise<string[]> {
  const worktrees = await git.worktreeList(ctx.cwd, { env: ctx.env }).catch(() => []);
  const path = worktrees.find((w) => w.branch === branch)?.path;
  const where = path ? `in ${path} (${branch})` : `in ${branch}'s worktree`;
  if (!parent) return [`The executor, ${where}: fix, commit, then jst pr`];
  return [
    `The executor, ${where}: jst start --on-parent, fix, commit, then git push origin HEAD:${branch}`,
    `Then the reviewer: jst review ${key} --open-parent-pr (a new round's Run report)`,
  ];
}
