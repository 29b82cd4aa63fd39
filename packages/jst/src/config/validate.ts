import { statSync } from 'node:fs';
import path from 'node:path';
import { isProjectKey } from '@jst/protocol';
import { checkOnlyRole, checkRoleCredentials, checkToken, onlyRole } from './credentials.js';
import { describeSource, type JstConfig, type ValueSource } from './load.js';
import { JST_DIR_NAME } from './locate.js';
import { bad, missing, orThrow, type ConfigProblem } from './problems.js';
import { FILE_NAMES, ROLES, SECRET_SETTINGS, settingSpec, type SettingName } from '../core/settings.js';
import { isInsecureUrl, siteUrlForHost } from './values.js';

/** Every problem of the configuration, in file order; empty means the strict check passes. */
export function validateConfig(config: JstConfig): ConfigProblem[] {
  return [
    ...checkJstDir(config),
    ...checkProjectKey(config),
    ...checkBranches(config),
    ...checkWorktreesDir(config),
    ...checkTrackerHost(config),
    ...checkOnlyRole(config),
    // ARCHITECTURE §10: a file limited to one role (JST_ONLY_ROLE) is complete with that role's pair.
    ...(onlyRole(config) === null ? ROLES : [onlyRole(config)!]).flatMap((role) => checkRoleCredentials(config, role)),
    ...checkToken(config, 'CODEHOST_PAT_TOKEN', false),
    ...checkToken(config, 'CODEHOST_EXECUTOR_TOKEN', false),
    ...checkToken(config, 'CODEHOST_REVIEWER_TOKEN', false),
    ...checkAgentSandbox(config),
    ...checkBaseUrl(config, 'TRACKER_GATEWAY_URL', config.gatewayUrl),
    ...checkBaseUrl(config, 'CODEHOST_API_URL', config.codehostApiUrl),
    ...checkSecretsInTeamFile(config),
  ];
}

// ---- WORKTREES_DIR (spec §2: absolute, never relative; the directory must already exist) ----

export type WorktreesDirStatus = 'unset' | 'relative' | 'missing' | 'not-a-directory' | 'ok';

export interface WorktreesDirState {
  readonly status: WorktreesDirStatus;
  /** The value as written; null when unset. */
  readonly raw: string | null;
  readonly source: ValueSource;
}

/** Lenient reader for the healthcheck: `relative` is its FAIL, `missing` its WARN (ARCHITECTURE §6). */
export function readWorktreesDir(config: JstConfig): WorktreesDirState {
  const setting = config.settings.WORKTREES_DIR;
  if (setting === undefined) return { status: 'unset', raw: null, source: { kind: 'default' } };
  const base = { raw: setting.value, source: setting.source };
  if (!path.isAbsolute(setting.value)) return { ...base, status: 'relative' };
  const stat = statQuietly(setting.value);
  return { ...base, status: stat === undefined ? 'missing' : stat.isDirectory() ? 'ok' : 'not-a-directory' };
}

function checkWorktreesDir(config: JstConfig): ConfigProblem[] {
  const state = readWorktreesDir(config);
  if (state.status === 'unset') return [missing(config, 'WORKTREES_DIR', 'absolute path of the worktrees folder, e.g. /home/you/worktrees')];
  if (state.status !== 'relative') return []; // a missing directory is a WARN for the worktrees_dir row, not a config error
  const tilde = state.raw?.startsWith('~') === true ? ' (~ is not expanded)' : '';
  return [
    bad(
      config,
      'WORKTREES_DIR',
      'CONFIG_RELATIVE_PATH',
      `is the relative path "${state.raw}"; it must be absolute`,
      `Write the full path${tilde}, e.g. WORKTREES_DIR=/home/you/worktrees`,
    ),
  ];
}

/** Strict form: the absolute path, or a JstError naming file and setting. Existence is the caller's question. */
export function requireWorktreesDir(config: JstConfig): string {
  return orThrow(checkWorktreesDir(config), () => config.worktreesDir ?? '');
}

// ---- team settings ----

function checkBranches(config: JstConfig): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  for (const name of ['DEFAULT_BASE_BRANCH', 'PRODUCTION_BRANCH'] as const) {
    const value = config.settings[name]?.value;
    if (value !== undefined && !isValidBranchName(value)) {
      problems.push(
        bad(
          config,
          name,
          'CONFIG_BRANCH_NAME',
          `"${value}" is not a valid git branch name`,
          `Set ${name} to an existing branch name, e.g. ${settingSpec(name).initDefault ?? 'main'}`,
        ),
      );
    }
  }
  // spec §2: PRODUCTION_BRANCH must differ from the base branch (two distinct long-lived branches).
  if (config.productionBranch !== null && config.productionBranch === config.defaultBaseBranch) {
    const base = describeSource(config.settings.DEFAULT_BASE_BRANCH?.source ?? { kind: 'default' });
    problems.push(
      bad(
        config,
        'PRODUCTION_BRANCH',
        'CONFIG_BRANCH_PAIR',
        `is "${config.productionBranch}", the same as DEFAULT_BASE_BRANCH (from ${base}); the two long-lived branches must differ`,
        `Set PRODUCTION_BRANCH and DEFAULT_BASE_BRANCH in ${config.files.team} to two different branches, e.g. main and development`,
      ),
    );
  }
  return problems;
}

/** Strict: base and production branch must differ (spec §2); production may still be unset (null). */
export function requireBranchPair(config: JstConfig): { base: string; production: string | null } {
  const pair = checkBranches(config).filter((p) => p.code === 'CONFIG_BRANCH_PAIR');
  return orThrow(pair, () => ({ base: config.defaultBaseBranch, production: config.productionBranch }));
}

/** Strict: the production branch name; unset is an error, never replaced by a guess (spec §1 rule 7). */
export function requireProductionBranch(config: JstConfig): string {
  const unset = config.productionBranch === null ? [missing(config, 'PRODUCTION_BRANCH', 'the production branch, e.g. main')] : [];
  return orThrow([...unset, ...checkBranches(config)], () => config.productionBranch ?? '');
}

function checkProjectKey(config: JstConfig): ConfigProblem[] {
  const key = config.projectKey;
  if (key === null) return [missing(config, 'PROJECT_KEY', 'the project key, e.g. ABC for issues ABC-1, ABC-2')];
  if (isProjectKey(key)) return [];
  return [
    bad(
      config,
      'PROJECT_KEY',
      'CONFIG_PROJECT_KEY',
      `"${key}" is not a project key`,
      'Use the prefix of the issue keys, e.g. PROJECT_KEY=ABC for ABC-123 (2 to 10 uppercase letters, digits and _, starting with a letter)',
    ),
  ];
}

export function requireProjectKey(config: JstConfig): string {
  return orThrow(checkProjectKey(config), () => config.projectKey ?? '');
}

// ---- addressing (spec §4, ARCHITECTURE §4) ----

function checkTrackerHost(config: JstConfig): ConfigProblem[] {
  if (config.settings.TRACKER_ACCOUNT_URL === undefined) return [missing(config, 'TRACKER_ACCOUNT_URL', 'the tracker site host, e.g. acme.atlassian.net')];
  if (config.trackerHost !== null) return [];
  return [bad(config, 'TRACKER_ACCOUNT_URL', 'CONFIG_HOST', 'holds no host name', 'Set it to the site host, e.g. TRACKER_ACCOUNT_URL=acme.atlassian.net')];
}

export function requireTrackerHost(config: JstConfig): string {
  return orThrow(checkTrackerHost(config), () => config.trackerHost ?? '');
}

/** `{site_url}`: `http://` only for a loopback host, otherwise always `https://` (ARCHITECTURE §4). */
export function siteUrl(config: JstConfig): string {
  return siteUrlForHost(requireTrackerHost(config), config.gatewayUrl);
}

function checkBaseUrl(config: JstConfig, name: SettingName, normalized: string | null): ConfigProblem[] {
  if (normalized === null)
    return [
      bad(
        config,
        name,
        'CONFIG_URL',
        'is not an http(s) URL',
        `Set ${name} to a URL such as ${settingSpec(name).runtimeDefault ?? 'https://host'}, or remove it to use the default`,
      ),
    ];
  if (!isInsecureUrl(normalized)) return [];
  return [
    bad(
      config,
      name,
      'CONFIG_INSECURE_URL',
      'uses http:// for a host that is not loopback, so credentials would travel unencrypted',
      `Use https:// in ${name}; http is allowed only for localhost, 127.0.0.0/8 and [::1]`,
    ),
  ];
}

export function requireGatewayUrl(config: JstConfig): string {
  return orThrow(checkBaseUrl(config, 'TRACKER_GATEWAY_URL', config.gatewayUrl), () => config.gatewayUrl ?? '');
}

export function requireCodehostApiUrl(config: JstConfig): string {
  return orThrow(checkBaseUrl(config, 'CODEHOST_API_URL', config.codehostApiUrl), () => config.codehostApiUrl ?? '');
}

// ---- dispatch (ARCHITECTURE §15) ----

export type AgentSandbox = 'bwrap' | 'none';

function checkAgentSandbox(config: JstConfig): ConfigProblem[] {
  const set = config.settings.AGENT_SANDBOX;
  if (set === undefined || set.value === 'bwrap' || set.value === 'none') return [];
  return [
    bad(
      config,
      'AGENT_SANDBOX',
      'CONFIG_SANDBOX',
      `is "${set.value}", not bwrap or none`,
      "Set AGENT_SANDBOX=bwrap (the default: each agent in a bubblewrap sandbox with its role's credentials only) or AGENT_SANDBOX=none",
    ),
  ];
}

/** How `jst dispatch` confines its agents: `bwrap` unless AGENT_SANDBOX says `none`. */
export function requireAgentSandbox(config: JstConfig): AgentSandbox {
  return orThrow(checkAgentSandbox(config), () => (config.settings.AGENT_SANDBOX?.value === 'none' ? 'none' : 'bwrap'));
}

// ---- folder and file placement ----

function checkJstDir(config: JstConfig): ConfigProblem[] {
  if (config.jstDir !== null) return [];
  const reach = config.repoRoot === null ? 'or any parent folder' : `or its parents up to the repository root ${config.repoRoot}`;
  return [
    {
      code: 'CONFIG_NOT_FOUND',
      setting: null,
      file: path.dirname(config.files.team),
      message: `no ${JST_DIR_NAME}/ folder found in ${config.cwd} ${reach}`,
      fix: `Run jst init in the main checkout; inside a worktree, copy ${JST_DIR_NAME}/ from the main checkout (it must be copied into every new worktree)`,
    },
  ];
}

/** A secret in the committed team file is a leak waiting to be pushed, not just a misplacement. */
function checkSecretsInTeamFile(config: JstConfig): ConfigProblem[] {
  return SECRET_SETTINGS.flatMap((name) => {
    const source = config.settings[name]?.source;
    if (source?.kind !== 'file' || source.file !== config.files.team) return [];
    return [
      bad(
        config,
        name,
        'CONFIG_SECRET_IN_TEAM_FILE',
        `is in the team file ${FILE_NAMES.team}, which is committed`,
        `Move ${name} to ${config.files.local}; if ${FILE_NAMES.team} was already pushed, revoke the token and create a new one`,
      ),
    ];
  });
}

/** The subset of `git check-ref-format --branch` rules that a typo can break. */
export function isValidBranchName(name: string): boolean {
  if (name === '' || name === '@' || /[\s~^:?*[\\\x00-\x1f\x7f]/.test(name)) return false;
  if (name.includes('..') || name.includes('@{') || name.includes('//') || name.includes('/.')) return false;
  return !/^[-/.]/.test(name) && !/[/.]$/.test(name) && !name.endsWith('.lock');
}

// A folder we may not stat reads as missing (a WARN), never as a crash of the healthcheck.
function statQuietly(p: string): ReturnType<typeof statSync> | undefined {
  try {
    return statSync(p, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}
