import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { JstError, findRepoRoot, looksLikeFilePath, serializeEnvFile, type EnvLine, type SettingName } from '../../../config/index.js';
import type { Context } from '../../../core/context.js';
import { EXIT } from '../../../core/errors.js';
import type { Outcome } from '../../../core/output.js';
import { problemWith, terminalAsker } from './init-ask.js';

export interface InitOptions {
  force?: boolean;
  projectKey?: string;
  site?: string;
  gateway?: string;
  worktreesDir?: string;
  baseBranch?: string;
  productionBranch?: string;
  codehostApi?: string;
  assignerEmail?: string;
  executorEmail?: string;
  reviewerEmail?: string;
}

const TOKEN_ENV = ['TRACKER_ASSIGNER_TOKEN', 'TRACKER_EXECUTOR_TOKEN', 'TRACKER_REVIEWER_TOKEN', 'CODEHOST_PAT_TOKEN'] as const;

/**
 * `jst init` (ARCHITECTURE §10): writes `.jst/team.env`, `.jst/local.env` (0600) and
 * `.jst/.gitignore`. Asks on a terminal; otherwise takes flags, and tokens from the environment
 * (never from flags, which other users can read in the process list). Never overwrites without --force.
 */
export async function init(ctx: Context, o: InitOptions): Promise<Outcome<{ files: string[]; empty: string[] }>> {
  const root = findRepoRoot(ctx.cwd) ?? ctx.cwd;
  const dir = join(root, '.jst');
  const files = { team: join(dir, 'team.env'), local: join(dir, 'local.env'), ignore: join(dir, '.gitignore') };
  const existing = Object.values(files).filter((f) => existsSync(f));
  if (existing.length && !o.force) {
    throw new JstError({
      code: 'EXISTS',
      problem: `${existing.join(', ')} already exist${existing.length === 1 ? 's' : ''}`,
      hint: 'Edit the files, or rerun with --force to overwrite them',
    });
  }
  const rl = ctx.io.interactive ? terminalAsker(ctx.io) : undefined;
  const typed: Record<string, string> = {};
  /** A value from its flag, else asked on a terminal and checked as typed (a bad one is asked again), else the fallback. */
  const ask = async (name: SettingName, label: string, given: string | undefined, fallback: string, secret = false): Promise<string> => {
    if (given !== undefined || !rl) return (typed[name] = given ?? fallback);
    for (;;) {
      const answer = (await rl.question(`${label}${fallback ? ` [${fallback}]` : ''}: `, secret)) || fallback;
      const problem = problemWith(name, answer, typed, root);
      if (problem === null) return (typed[name] = answer);
      ctx.io.stderr.write(`  ${problem}\n`);
    }
  };
  try {
    const values = {
      DEFAULT_BASE_BRANCH: await ask('DEFAULT_BASE_BRANCH', 'Default base branch', o.baseBranch, 'development'),
      PRODUCTION_BRANCH: await ask('PRODUCTION_BRANCH', 'Production branch', o.productionBranch, 'main'),
      PROJECT_KEY: await ask('PROJECT_KEY', 'Project key', o.projectKey, ''),
      TRACKER_ACCOUNT_URL: await ask('TRACKER_ACCOUNT_URL', 'Tracker site host (e.g. acme.atlassian.net)', o.site, ''),
      TRACKER_GATEWAY_URL: await ask('TRACKER_GATEWAY_URL', 'Tracker gateway URL', o.gateway, 'https://api.atlassian.com'),
      WORKTREES_DIR: await ask('WORKTREES_DIR', 'Worktrees folder (absolute path)', o.worktreesDir, resolve(root, '..', 'worktrees')),
      CODEHOST_API_URL: await ask('CODEHOST_API_URL', 'Code host API URL', o.codehostApi, 'https://api.github.com'),
      TRACKER_ASSIGNER_EMAIL: await ask('TRACKER_ASSIGNER_EMAIL', 'Assigner e-mail', o.assignerEmail, ''),
      TRACKER_EXECUTOR_EMAIL: await ask('TRACKER_EXECUTOR_EMAIL', 'Executor e-mail', o.executorEmail, ''),
      TRACKER_REVIEWER_EMAIL: await ask('TRACKER_REVIEWER_EMAIL', 'Reviewer e-mail', o.reviewerEmail, ''),
    };
    const tokens: Record<string, string> = {};
    for (const name of TOKEN_ENV) {
      // Tokens never come from flags (other users can read the process list), and are never echoed.
      tokens[name] = await ask(name, `${name} (the token itself, hidden as you type; Enter to fill it in later)`, ctx.env[name] || undefined, '', true);
      if (tokens[name] && looksLikeFilePath(tokens[name], [ctx.cwd, root]))
        throw new JstError({
          code: 'CONFIG',
          problem: `${name} looks like a file path`,
          setting: name,
          hint: 'Paste the token value itself, not the path of a file holding it',
        });
    }
    if (values.WORKTREES_DIR && !isAbsolute(values.WORKTREES_DIR))
      throw new JstError({ code: 'CONFIG', problem: `WORKTREES_DIR must be an absolute path (got "${values.WORKTREES_DIR}")`, setting: 'WORKTREES_DIR' });
    if (values.DEFAULT_BASE_BRANCH === values.PRODUCTION_BRANCH)
      throw new JstError({ code: 'CONFIG', problem: 'the default base branch and the production branch must differ', setting: 'PRODUCTION_BRANCH' });
    const team: EnvLine[] = [
      { comment: 'Shared team settings (committed). See ARCHITECTURE §10.' },
      ...(['DEFAULT_BASE_BRANCH', 'PRODUCTION_BRANCH', 'PROJECT_KEY'] as const).map((k) => ({ name: k, value: values[k] })),
      { name: 'STATUS_TODO', value: 'To Do' },
      { name: 'STATUS_IN_PROGRESS', value: 'In Progress' },
      { name: 'STATUS_IN_REVIEW', value: 'In Review' },
      { name: 'STATUS_DONE', value: 'Done' },
    ];
    const local: EnvLine[] = [
      { comment: 'Local settings: credentials and paths. Never committed (see .jst/.gitignore).' },
      ...(['TRACKER_ACCOUNT_URL', 'TRACKER_GATEWAY_URL', 'WORKTREES_DIR', 'CODEHOST_API_URL'] as const).map((k) => ({ name: k, value: values[k] })),
      ...(['ASSIGNER', 'EXECUTOR', 'REVIEWER'] as const).flatMap((r) => [
        { name: `TRACKER_${r}_EMAIL`, value: values[`TRACKER_${r}_EMAIL`] },
        { name: `TRACKER_${r}_TOKEN`, value: tokens[`TRACKER_${r}_TOKEN`] ?? '' },
      ]),
      { name: 'CODEHOST_PAT_TOKEN', value: tokens.CODEHOST_PAT_TOKEN ?? '' },
    ];
    mkdirSync(dir, { recursive: true });
    writeFileSync(files.team, serializeEnvFile(team));
    writeFileSync(files.local, serializeEnvFile(local), { mode: 0o600 });
    chmodSync(files.local, 0o600);
    writeFileSync(files.ignore, 'local.env\ncloud-id.json\nplan-journal*\ndispatch/\ndispatch-journal.json*\n');
    const empty = local.filter((l) => 'name' in l && l.value === '').map((l) => ('name' in l ? l.name : ''));
    const text = [
      `Wrote ${files.team}, ${files.local} (mode 0600) and ${files.ignore}.`,
      ...(empty.length ? [`Still empty in local.env: ${empty.join(', ')}. Fill them in, then run: jst healthcheck --role assigner`] : []),
    ];
    return { json: { files: Object.values(files), empty }, text: `${text.join('\n')}\n`, code: EXIT.ok };
  } finally {
    rl?.close();
  }
}
