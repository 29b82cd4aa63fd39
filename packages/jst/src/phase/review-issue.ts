import type { Context } from '../core/context.js';
import { usage } from '../core/errors.js';
import { requireIssueKey } from '../core/issue-key.js';
import { issueCheckout } from './checkout.js';

/** What the reviewer's commands read of an issue first (jst review, the verdict). */
export const ISSUE_FIELDS = ['summary', 'status', 'parent', 'subtasks', 'issuetype'];

/** The issue a reviewer names, or the one of the worktree the command runs in. */
export async function reviewKey(ctx: Context, key: string | undefined, command: string): Promise<{ key: string; cwd: string }> {
  if (key) return { key: requireIssueKey(key), cwd: ctx.cwd };
  const here = await issueCheckout(ctx, `${command} KEY`).catch(() => null);
  if (!here)
    throw usage(
      'USAGE',
      ctx.tool ? `${ctx.tool} needs key outside an issue's worktree` : `${command} needs an issue KEY outside an issue's worktree`,
      ctx.tool ? 'Pass key (e.g. "ABC-1"), or set cwd to the issue\'s worktree' : `Pass the key: ${command} ABC-1`,
    );
  return { key: here.key, cwd: here.root };
}
