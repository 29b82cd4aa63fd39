import os from 'node:os';
import path from 'node:path';
import {
  FILE_NAMES,
  joinSentences,
  unsetWhere,
  describeSource,
  readWorktreesDir,
  validateConfig,
  type ConfigProblem,
  type JstConfig,
} from '../config/index.js';
import { currentBranch, gitVersion, isIgnored, worktreeInfo } from '../git/index.js';
import { row, type HealthRow, type HealthcheckContext } from './types.js';

const gitEnv = (ctx: HealthcheckContext) => ({ env: ctx.env });
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** spec §2: `worktree` never FAILs; whether a run may proceed there is the caller's judgement. */
export async function worktreeRow(ctx: HealthcheckContext): Promise<HealthRow> {
  try {
    const info = await worktreeInfo(ctx.cwd, gitEnv(ctx));
    return row('worktree', 'PASS', info.linked ? `linked worktree of ${info.mainPath}` : 'main checkout');
  } catch (error) {
    return row('worktree', 'WARN', `not inside a git checkout (${messageOf(error)})`);
  }
}

/** spec §2: FAIL only when the path is not absolute; WARN when unset or missing (never created here). */
export function worktreesDirRow(config: JstConfig): HealthRow {
  const state = readWorktreesDir(config);
  const from = describeSource(state.source);
  switch (state.status) {
    case 'unset':
      return row('worktrees_dir', 'WARN', `WORKTREES_DIR is unset: add WORKTREES_DIR=<absolute path> to ${config.files.local}`);
    case 'relative':
      return row('worktrees_dir', 'FAIL', `WORKTREES_DIR "${state.raw}" (from ${from}) is relative; it must be an absolute path`);
    case 'missing':
      return row('worktrees_dir', 'WARN', `${state.raw} (from ${from}) does not exist; create it yourself (jst never creates it)`);
    case 'not-a-directory':
      return row('worktrees_dir', 'WARN', `${state.raw} (from ${from}) is not a directory`);
    case 'ok':
      return row('worktrees_dir', 'PASS', state.raw ?? '');
  }
}

/** ARCHITECTURE §6: the detail is the bare value (branch name or `detached`) so the plan can read it. */
export async function branchRow(ctx: HealthcheckContext): Promise<HealthRow> {
  try {
    const branch = await currentBranch(ctx.cwd, gitEnv(ctx));
    return branch === null ? row('branch', 'WARN', 'detached') : row('branch', 'PASS', branch);
  } catch (error) {
    return row('branch', 'WARN', `unknown: not inside a git checkout (${messageOf(error)})`);
  }
}

/** spec §2: may read `unset`; a production branch name is never invented. */
export function productionBranchRow(config: JstConfig): HealthRow {
  return config.productionBranch === null ? row('production_branch', 'WARN', 'unset') : row('production_branch', 'PASS', config.productionBranch);
}

/** spec §2 / §7: FAIL when base and production are the same branch (two distinct long-lived branches). */
export function branchPairRow(config: JstConfig): HealthRow {
  const base = config.defaultBaseBranch;
  const production = config.productionBranch;
  if (production === null) return row('branch_pair', 'WARN', `${base} → unset (PRODUCTION_BRANCH ${unsetWhere(config, 'PRODUCTION_BRANCH')})`);
  if (production === base) {
    return row(
      'branch_pair',
      'FAIL',
      `DEFAULT_BASE_BRANCH and PRODUCTION_BRANCH are both "${base}": set two different branches in ${config.files.team}, e.g. development and main`,
    );
  }
  return row('branch_pair', 'PASS', `${base} → ${production}`);
}

// Problems another row owns are left to it: one rule, one row, one verdict.
const OWNED_ELSEWHERE = (p: ConfigProblem) => p.setting === 'WORKTREES_DIR' || p.code === 'CONFIG_BRANCH_PAIR';

/**
 * spec §2: both files present and valid, `local.env` kept out of commits, the role's settings all
 * there. Each problem names its file and setting and says what to do, one per line.
 */
export async function envConfigRow(ctx: HealthcheckContext): Promise<HealthRow> {
  const { config } = ctx;
  const problems = validateConfig(config)
    .filter((p) => !OWNED_ELSEWHERE(p))
    .map((p) => joinSentences(p.message, p.fix));
  if (config.jstDir !== null) {
    for (const kind of ['team', 'local'] as const) {
      if (!config.filesFound[kind])
        problems.unshift(`${config.files[kind]} is missing: run jst init in the main checkout, or copy .jst/ from it into this worktree`);
    }
  }
  const notes: string[] = [];
  if (config.jstDir !== null && config.filesFound.local) {
    const ignore = await localFileIgnored(ctx, config.jstDir);
    if (ignore.problem !== null) problems.push(ignore.problem);
    if (ignore.note !== null) notes.push(ignore.note);
  }
  const warnings = config.warnings.map((w) => w.message);
  if (problems.length > 0) return row('env_config', 'FAIL', [...problems, ...warnings].join('\n'));
  if (warnings.length > 0 || notes.length > 0) return row('env_config', 'WARN', [...warnings, ...notes].join('\n'));
  return row('env_config', 'PASS', `${config.jstDir}: ${FILE_NAMES.team} and ${FILE_NAMES.local} valid for ${ctx.role}; ${FILE_NAMES.local} ignored by git`);
}

/** ARCHITECTURE §10: local.env holds the tokens and must never be committed. */
async function localFileIgnored(ctx: HealthcheckContext, jstDir: string): Promise<{ problem: string | null; note: string | null }> {
  const file = path.join(jstDir, FILE_NAMES.local);
  const gitignore = path.join(jstDir, '.gitignore');
  const o = gitEnv(ctx);
  try {
    if (await isIgnored(jstDir, FILE_NAMES.local, o)) return { problem: null, note: null };
    // Ignored by the rules yet not by git means it was committed before the rule was added.
    if (await isIgnored(jstDir, FILE_NAMES.local, { ...o, noIndex: true })) {
      return {
        problem: `${file} is committed to git although ${gitignore} lists it: run git rm --cached ${file}, commit, and replace the tokens it exposed`,
        note: null,
      };
    }
    return { problem: `${file} is not ignored by git, so its tokens could be committed: add the line ${FILE_NAMES.local} to ${gitignore}`, note: null };
  } catch (error) {
    // Outside a repository there is nothing to commit into; say so rather than guess.
    return { problem: null, note: `could not ask git whether ${file} is ignored (${messageOf(error)})` };
  }
}

/** OS, Node.js and git versions: the first things asked when a report comes from another machine. */
export async function platformRow(ctx: HealthcheckContext): Promise<HealthRow> {
  const system = `${os.type()} ${os.release()} ${process.arch}`;
  const node = `Node.js ${process.version}`;
  let git: string;
  try {
    git = `git ${await gitVersion(gitEnv(ctx))}`;
  } catch (error) {
    return row('platform', 'FAIL', `${system}, ${node}, git not usable: ${messageOf(error)}`);
  }
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 20) return row('platform', 'FAIL', `${system}, ${node} (Node.js 20 or newer is required), ${git}`);
  return row('platform', 'PASS', `${system}, ${node}, ${git}`);
}
