import { existsSync, statSync } from 'node:fs';
import type { Context } from '../core/context.js';
import type { TrackerClient } from '@jst/client';
import type { PlanInput } from './plan-file.js';
import { refused, type Prompt } from '../core/terminal-prompt.js';

/** The status check's rows phase 1 reads (healthcheck/'s report, injected by the command). */
export interface HealthRows {
  rows: readonly { name: string; status: 'PASS' | 'WARN' | 'FAIL'; detail: string }[];
}

/** The branch context of spec §1 rule 4, read from the healthcheck rows (git is not asked again). */
export interface BranchContext {
  linkedWorktree: boolean;
  /** The `worktree` row found no git checkout here at all. */
  notACheckout: boolean;
  /** null = detached HEAD. */
  branch: string | null;
  /** null = the `production_branch` row reads unset. */
  production: string | null;
  worktreesDir: { status: 'PASS' | 'WARN' | 'FAIL'; detail: string };
}

export function branchContext(report: HealthRows): BranchContext {
  const row = (name: string) => report.rows.find((r) => r.name === name)!;
  const branch = row('branch');
  const prod = row('production_branch');
  const dir = row('worktrees_dir');
  return {
    linkedWorktree: row('worktree').detail.startsWith('linked worktree'),
    notACheckout: row('worktree').detail.startsWith('not inside a git checkout'),
    branch: branch.status === 'PASS' ? branch.detail : null,
    production: prod.status === 'PASS' ? prod.detail : null,
    worktreesDir: { status: dir.status, detail: dir.detail },
  };
}

/** What rule 2 says of the branch the assigner stands on. */
export type StartBranch = 'base' | 'production' | 'other';

/**
 * spec §1 rules 1 and 2: never in a linked worktree; refuse on a `feature/` or `hotfix/` branch or a
 * detached HEAD; the default base branch and the production branch are known; anything else is
 * `other` (the caller asks how to proceed).
 */
export function startBranchGate(bc: BranchContext, defaultBase: string): StartBranch {
  // spec §1 rule 1: phase 1 creates worktrees; it never runs inside one.
  if (bc.notACheckout)
    throw refused(
      'jst plan runs in the main checkout of the git repository, and this folder is not inside a git checkout',
      "cd to the repository's main checkout and rerun",
    );
  if (bc.linkedWorktree) throw refused('jst plan runs from the main checkout only, and this is a linked worktree', 'cd to the main checkout and rerun');
  if (bc.branch === null) throw refused('jst plan does not run on a detached HEAD (spec §1 rule 2)', `Check out ${defaultBase} and rerun`);
  if (/^(feature|hotfix)\//.test(bc.branch))
    throw refused(`jst plan does not run on the issue branch ${bc.branch} (spec §1 rule 2)`, `Check out ${defaultBase} in the main checkout and rerun`);
  if (bc.branch === defaultBase) return 'base';
  if (bc.production !== null && bc.branch === bc.production) return 'production';
  return 'other';
}

/** spec §1 rules 6 and 7: planned and hotfix never mix; the further stops that apply regardless. */
export function pathGate(plan: PlanInput, start: StartBranch, bc: BranchContext): void {
  if (plan.path === 'hotfix' && plan.steps.length > 0) {
    throw refused(
      'a hotfix is a single issue: planned and hotfix work never mix in one run, and multistep work is always planned (spec §1 rule 6)',
      'Drop the steps for a hotfix, or plan the work without "path": "hotfix"',
    );
  }
  if (plan.path === 'hotfix' && bc.production === null) {
    throw refused(
      'the hotfix path needs the production branch, and PRODUCTION_BRANCH is unset (spec §1 rule 7: the name is never invented)',
      'Set PRODUCTION_BRANCH in .jst/team.env and rerun',
    );
  }
  if (plan.path === 'planned' && start === 'production') {
    throw refused(
      `you stand on the production branch ${bc.production}, which is accepted only for an emergency hotfix, and this is planned work (spec §1 rule 7)`,
      'Check out the default base branch and rerun',
    );
  }
}

/**
 * spec §1 rule 2: on any other branch the user is asked how to proceed, before the questionnaire
 * (an answer then is not wasted). `--from-branch <name>` is the non-interactive yes, and it must
 * name the branch: `--yes` (skip the final confirmation) never accepts an unusual branch.
 */
export async function otherBranchGate(
  bc: BranchContext,
  start: StartBranch,
  defaultBase: string,
  fromBranch: string | undefined,
  prompt: Prompt,
  tool?: string,
): Promise<void> {
  // A tool's refusal names its input (fromBranch), the CLI's its flag.
  const spell = (branch: string) => (tool ? `fromBranch: "${branch}"` : `--from-branch ${branch}`);
  if (fromBranch !== undefined && fromBranch !== bc.branch) {
    throw refused(
      `${spell(fromBranch)} does not name the current branch ${bc.branch ?? '(detached)'}`,
      `Pass ${spell(bc.branch ?? '<branch>')}, or check out ${defaultBase}`,
    );
  }
  if (start !== 'other' || fromBranch !== undefined) return;
  const from = bc.production === null ? `origin/${defaultBase}` : `origin/${defaultBase} (a hotfix from origin/${bc.production})`;
  const question = `You are on ${bc.branch}, neither the default base branch ${defaultBase} nor the production branch ${bc.production ?? '(unset)'}. New branches would be cut from ${from}. Plan from here anyway?`;
  if (!(await prompt.yesNo(question, `Check out ${defaultBase}, or pass ${spell(bc.branch ?? '<branch>')} to plan from it anyway`))) {
    throw refused(`not planning from ${bc.branch}`, `Check out ${defaultBase} and rerun`);
  }
}

/** A FAIL row stops the plan before anything is created (spec §7 toolkit-level stops). */
export function failOnHealth(report: HealthRows, say: (l: string) => void): void {
  const fails = report.rows.filter((r) => r.status === 'FAIL');
  if (!fails.length) return;
  for (const r of fails) say(`  ${r.name}  FAIL  ${r.detail.split('\n').join('\n    ')}`);
  throw refused(`the healthcheck has FAIL rows (${fails.map((r) => r.name).join(', ')})`, 'Fix them, then rerun: jst healthcheck --role assigner');
}

/** spec §1 rule 4: a missing worktrees folder is a stop and a question; the folder is never created here. */
export async function worktreesDirGate(bc: BranchContext, prompt: Prompt): Promise<void> {
  if (bc.worktreesDir.status === 'PASS') return;
  const dir = bc.worktreesDir.detail;
  const path = dir.split(' ')[0]!;
  let message = `The worktrees folder is not ready: ${dir}. Create it yourself (jst never creates it), then press Enter to continue.`;
  for (;;) {
    await prompt.pause(message, 'Create the folder named by WORKTREES_DIR in .jst/local.env, then rerun');
    if (existsSync(path) && statSync(path).isDirectory()) return;
    message = `  (${path} is still not a folder) press Enter once it is:`;
  }
}

/** The configured status names must exist, literally, in the project's workflow. */
export async function statusesGate(ctx: Context, client: TrackerClient, project: string): Promise<void> {
  const config = ctx.config();
  const types = await client.projectStatuses(project);
  const names = new Set(types.flatMap((t) => t.statuses.map((s) => s.name)));
  const missing = (Object.entries(config.statuses) as [string, string][]).filter(([, name]) => !names.has(name));
  if (missing.length) {
    throw refused(
      `the project ${project} has no status ${missing.map(([, n]) => `"${n}"`).join(', ')} (STATUS_* in ${config.files.team}; names match literally)`,
      `Its statuses are: ${[...names].map((n) => `"${n}"`).join(', ')}`,
    );
  }
}
