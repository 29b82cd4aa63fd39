import { existsSync, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { isJstError, sandboxState } from '../config/index.js';
import { configGet, currentBranch, runGit } from '../git/index.js';
import { issueKeyFromBranch } from '../phase/handover.js';
import type { ContextRow, HealthcheckContext } from './types.js';

/**
 * The context rows the original status check had (kantorv/jira-sdlc-tools statuscheck.sh):
 * `issue_key` from the branch, `parent_branch` from git config, `working_tree` clean or dirty.
 * They describe where the check ran and never decide the exit code, so they are kept apart from
 * the contract rows of ARCHITECTURE §6 (docs/healthcheck.md): INFO where they do not apply.
 */
export async function contextRows(ctx: HealthcheckContext): Promise<ContextRow[]> {
  const o = { env: ctx.env };
  let branch: string | null;
  try {
    branch = await currentBranch(ctx.cwd, o);
  } catch {
    const none = 'not inside a git checkout';
    return [info('issue_key', none), info('parent_branch', none), info('working_tree', none), agentsRow(ctx), sandboxRow(ctx)];
  }
  const [parent, tree] = await Promise.all([parentBranchRow(ctx, branch), workingTreeRow(ctx)]);
  return [issueKeyRow(branch), parent, tree, agentsRow(ctx), sandboxRow(ctx)];
}

const info = (name: ContextRow['name'], detail: string): ContextRow => ({ name, status: 'INFO', detail });

/** The assigner stands on a base branch, where no key applies; the executor and the reviewer need one. */
function issueKeyRow(branch: string | null): ContextRow {
  const parsed = branch === null ? null : issueKeyFromBranch(branch);
  if (parsed !== null)
    return { name: 'issue_key', status: 'PASS', detail: `${parsed.key} (from the branch ${branch}): check it is the issue you mean to work on` };
  return info(
    'issue_key',
    branch === null ? 'does not apply: HEAD is detached' : `does not apply: ${branch} is not an issue branch (feature/<KEY>-… or hotfix/<KEY>-…)`,
  );
}

/** spec §1 rule 10: phase 1 records `branch.<b>.parentbranch` for every issue branch. */
async function parentBranchRow(ctx: HealthcheckContext, branch: string | null): Promise<ContextRow> {
  if (branch === null) return info('parent_branch', 'does not apply: HEAD is detached');
  const parent = await configGet(ctx.cwd, `branch.${branch}.parentbranch`, { env: ctx.env });
  if (parent !== null) return { name: 'parent_branch', status: 'PASS', detail: `${parent} (git config branch.${branch}.parentbranch: the PR base)` };
  if (issueKeyFromBranch(branch) === null) return info('parent_branch', `does not apply: ${branch} is not an issue branch`);
  return {
    name: 'parent_branch',
    status: 'WARN',
    detail: `unset: git config branch.${branch}.parentbranch is missing (jst plan records it); the PR base falls back to the "PR target branch:" comment, then DEFAULT_BASE_BRANCH`,
  };
}

async function workingTreeRow(ctx: HealthcheckContext): Promise<ContextRow> {
  const out = await runGit(['status', '--porcelain'], ctx.cwd, { env: ctx.env });
  const changes = out.stdout.split('\n').filter((l) => l.trim() !== '').length;
  if (changes === 0) return { name: 'working_tree', status: 'PASS', detail: 'clean' };
  return { name: 'working_tree', status: 'WARN', detail: `dirty: ${changes} uncommitted change${changes === 1 ? '' : 's'} (git status)` };
}

/**
 * ARCHITECTURE §15: the agent commands `jst dispatch` runs (AGENT_EXECUTOR_CMD, AGENT_REVIEWER_CMD),
 * each with whether its first word is found (on PATH, or as the path it names). INFO when neither
 * is set (dispatch is optional); WARN when one is set and its program is not found.
 */
export function agentsRow(ctx: HealthcheckContext): ContextRow {
  const env = ctx.env ?? process.env;
  const parts: string[] = [];
  let missing = false;
  let set = 0;
  for (const [role, name] of [
    ['executor', 'AGENT_EXECUTOR_CMD'],
    ['reviewer', 'AGENT_REVIEWER_CMD'],
  ] as const) {
    const command = ctx.config.settings[name]?.value;
    if (!command) {
      parts.push(`${role}: unset (${name})`);
      continue;
    }
    set += 1;
    const program = firstWord(command);
    const where = program ? findProgram(program, env, ctx.cwd) : null;
    if (!where) missing = true;
    parts.push(`${role}: ${program ?? '(empty)'} ${where ? `found (${where})` : 'NOT found on PATH'}`);
  }
  if (set === 0) return info('agents', `does not apply: ${parts.join('; ')}; jst dispatch needs at least one`);
  return { name: 'agents', status: missing ? 'WARN' : 'PASS', detail: parts.join('; ') };
}

/**
 * ARCHITECTURE §15: the sandbox `jst dispatch` runs agents in (AGENT_SANDBOX): PASS with bubblewrap
 * found, WARN when it is missing (dispatch would refuse to start agents) or when agents run
 * unsandboxed (AGENT_SANDBOX=none).
 */
export function sandboxRow(ctx: HealthcheckContext): ContextRow {
  let state;
  try {
    state = sandboxState(ctx.config, ctx.env ?? process.env);
  } catch (error) {
    return { name: 'sandbox', status: 'WARN', detail: isJstError(error) ? error.problem : String(error) };
  }
  if (state.mode === 'none')
    return { name: 'sandbox', status: 'WARN', detail: "none (AGENT_SANDBOX=none): jst dispatch runs agents unsandboxed, with every role's credentials" };
  if (state.bwrap === null)
    return {
      name: 'sandbox',
      status: 'WARN',
      detail: 'bwrap NOT found on PATH: jst dispatch refuses to start agents; install bubblewrap (apt-get install bubblewrap) or set AGENT_SANDBOX=none',
    };
  return { name: 'sandbox', status: 'PASS', detail: `bwrap (${state.bwrap}): jst dispatch runs each agent with its role's credentials only` };
}

/** The program of a shell command line: its first word, quotes removed (`"C:/x y/a.exe" -p` → `C:/x y/a.exe`). */
export function firstWord(command: string): string | null {
  const m = /^\s*(?:"([^"]+)"|'([^']+)'|(\S+))/.exec(command);
  return m ? (m[1] ?? m[2] ?? m[3]!) : null;
}

function findProgram(program: string, env: NodeJS.ProcessEnv, cwd: string): string | null {
  const isFile = (p: string) => {
    try {
      return existsSync(p) && statSync(p).isFile();
    } catch {
      return false;
    }
  };
  const exts = process.platform === 'win32' ? ['', ...(env.PATHEXT ?? '.COM;.EXE;.BAT;.CMD').split(';')] : [''];
  if (program.includes('/') || program.includes('\\')) {
    const full = isAbsolute(program) ? program : join(cwd, program);
    return exts.map((e) => full + e).find(isFile) ?? null;
  }
  for (const dir of (env.PATH ?? env.Path ?? '').split(delimiter).filter(Boolean)) {
    const hit = exts.map((e) => join(dir, program + e)).find(isFile);
    if (hit) return hit;
  }
  return null;
}
