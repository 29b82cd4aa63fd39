import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Issue } from '@jst/client';
import type { Context } from '../core/context.js';
import { EXIT } from '../core/errors.js';
import * as git from '../git/index.js';
import { firstRef } from '../phase/checkout.js';
import { refuse } from '../core/errors.js';
import { markedComments, TASK_MEMORY, type RoleComments } from '../phase/markers.js';
import { promptFor } from '../core/terminal-prompt.js';
import { JstError } from '../config/index.js';

/**
 * What `jst start` does beyond phase 1's hand-over (ARCHITECTURE §11): the parent gate, the merge
 * of the parent branch, the bootstrap script and the task memory. Kept apart from start.ts so each
 * is one small function start calls in order.
 */

/** A parent (it has sub-tasks) is a merge target, not an implementation surface: only on an explicit yes. */
export async function confirmParent(ctx: Context, issue: Issue, onParent: boolean | undefined): Promise<void> {
  const subs = issue.fields.subtasks ?? [];
  if (!subs.length || onParent) return;
  const question = `${issue.key} has sub-tasks (${subs.map((t) => t.key).join(', ')}): it is their merge target, and the work is normally done in their worktrees. Start work on the parent itself?`;
  const hint = `Nothing was moved or pushed. Work in a sub-task's worktree, or confirm with ${ctx.tool ? `${ctx.tool} and onParent: true once the person has said yes` : 'jst start --on-parent'}`;
  // A terminal asks; jst mcp asks through elicitation; otherwise the question ends the run (exit 3).
  const prompter = promptFor(ctx, ctx.io.interactive, 'Nothing was moved or pushed; run jst start again when ready');
  try {
    if (!(await prompter.yesNo(question, hint))) throw refuse('START_PARENT_DECLINED', `work on the parent ${issue.key} was not confirmed`, hint);
  } finally {
    prompter.close();
  }
}

export interface SyncResult {
  parent: string;
  ref: string;
  outcome: 'up-to-date' | 'merged';
}

/**
 * A stale branch: `git fetch origin`, then merge the branch's own `origin/<branch>` (what others
 * pushed to it: on a parent's branch, the merged sub-task pull requests), then `origin/<parent>`
 * (the local ref when the parent was never pushed). A conflict aborts that merge, changes nothing
 * else and stops naming the files.
 */
export async function mergeParent(root: string, branch: string, parent: string, env: NodeJS.ProcessEnv, say: (l: string) => void): Promise<SyncResult> {
  const g = { env };
  say('→ git fetch origin');
  await git.fetch(root, g);
  const ref = await firstRef(root, [`refs/remotes/origin/${parent}`, `refs/heads/${parent}`], env);
  if (ref === null)
    throw refuse(
      'START_NO_PARENT_BRANCH',
      `git config branch.${branch}.parentbranch names ${parent}, which exists neither on origin nor here`,
      `Nothing was moved or pushed. Fix the setting (git config branch.${branch}.parentbranch <branch>), then rerun jst start`,
    );
  const before = (await git.runGit(['rev-parse', 'HEAD'], root, g)).stdout;
  const own = await firstRef(root, [`refs/remotes/origin/${branch}`], env);
  if (own !== null) await mergeRef(root, branch, `origin/${branch}`, env, say);
  const short = ref.replace(/^refs\/remotes\//, '').replace(/^refs\/heads\//, '');
  await mergeRef(root, branch, short, env, say);
  const after = (await git.runGit(['rev-parse', 'HEAD'], root, g)).stdout;
  return { parent, ref: short, outcome: before === after ? 'up-to-date' : 'merged' };
}

async function mergeRef(root: string, branch: string, short: string, env: NodeJS.ProcessEnv, say: (l: string) => void): Promise<void> {
  const g = { env };
  say(`→ git merge --no-edit ${short}`);
  const r = await git.runGit(['merge', '--no-edit', short], root, { ...g, okCodes: [0, 1, 2, 128] });
  if (r.code === 0) return;
  const files = (await git.runGit(['diff', '--name-only', '--diff-filter=U'], root, g)).stdout.split('\n').filter(Boolean);
  const inMerge = (await git.runGit(['rev-parse', '-q', '--verify', 'MERGE_HEAD'], root, { ...g, okCodes: [0, 1] })).code === 0;
  if (inMerge) {
    say('→ git merge --abort');
    await git.runGit(['merge', '--abort'], root, g);
  }
  throw new JstError({
    code: 'START_MERGE_CONFLICT',
    exitCode: EXIT.failed,
    problem: files.length
      ? `merging ${short} into ${branch} conflicts in ${files.join(', ')}; the merge was aborted and nothing else was changed`
      : `git merge ${short} into ${branch} failed (${(r.stderr || r.stdout).split('\n').slice(0, 3).join(' | ')}); nothing else was changed`,
    hint: `Merge it yourself: git merge ${short}, resolve ${files.length ? 'those files' : 'what git reports'}, git add them, git commit; then rerun jst start`,
  });
}

export interface BootstrapResult {
  script: string;
  ok: boolean;
  exitCode: number | null;
}

/** `.jst/bootstrap.sh` (Windows: `bootstrap.ps1`) from the worktree root; a failure is reported, not fatal. */
export async function runBootstrap(
  root: string,
  vars: Record<string, string>,
  env: NodeJS.ProcessEnv,
  say: (l: string) => void,
): Promise<BootstrapResult | null> {
  const windows = process.platform === 'win32';
  const script = join(root, '.jst', windows ? 'bootstrap.ps1' : 'bootstrap.sh');
  if (!existsSync(script)) return null;
  say(`→ ${script}`);
  const [cmd, args] = windows ? (['powershell', ['-NoProfile', '-ExecutionPolicy', 'Bypass', '-File', script]] as const) : (['sh', [script]] as const);
  const code = await new Promise<number | null>((resolve) => {
    // Its output goes to stderr: stdout stays the command's own (and its --json).
    const child = spawn(cmd, [...args], { cwd: root, env: { ...env, ...vars }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (c: Buffer) => say(c.toString('utf8').trimEnd()));
    child.stderr.on('data', (c: Buffer) => say(c.toString('utf8').trimEnd()));
    child.on('error', () => resolve(null));
    child.on('close', (c) => resolve(c));
  });
  return { script, ok: code === 0, exitCode: code };
}

/** The issue's earlier `Task memory` notes (the executor's account's only), oldest first, without the marker line. */
export function taskMemory(executor: RoleComments<'executor'>): { created: string | null; text: string }[] {
  return markedComments(executor, TASK_MEMORY).map((c) => ({ created: c.comment.created ?? null, text: c.text.split('\n').slice(1).join('\n').trim() }));
}
