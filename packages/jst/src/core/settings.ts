// The words of jst's configuration (ARCHITECTURE §10, spec §2): the settings and their files, the roles,
// and the shape of a loaded configuration. config/ reads, checks and redacts them; the context (core/context.ts)
// hands the loaded one to every command. Nothing here reads a file.

/** The two configuration files under `.jst/` (ARCHITECTURE §10). */
export type SettingFile = 'team' | 'local';

export const FILE_NAMES: Readonly<Record<SettingFile, string>> = { team: 'team.env', local: 'local.env' };

export type SettingKind =
  'branch' | 'status' | 'project-key' | 'path' | 'host' | 'url' | 'email' | 'token' | 'repo' | 'command' | 'role' | 'sandbox' | 'minutes';

export interface SettingSpec {
  readonly name: string;
  readonly file: SettingFile;
  readonly kind: SettingKind;
  /** Value used at run time when the setting is absent; undefined = no default. */
  readonly runtimeDefault?: string;
  /** Value `jst init` writes; may differ from the run-time default (PRODUCTION_BRANCH). */
  readonly initDefault?: string;
  readonly description: string;
}

// spec §2 "Toolkit configuration" table, plus the two optional addressing settings of ARCHITECTURE §4.
export const SETTINGS = [
  {
    name: 'DEFAULT_BASE_BRANCH',
    file: 'team',
    kind: 'branch',
    runtimeDefault: 'development',
    initDefault: 'development',
    description: 'base branch planned work starts from',
  },
  // spec §2: default `main` is what `jst init` writes; at run time a missing value reads `unset`
  // (ARCHITECTURE §10), because a production branch name is never invented.
  { name: 'PRODUCTION_BRANCH', file: 'team', kind: 'branch', initDefault: 'main', description: 'production branch hotfixes are cut from' },
  { name: 'PROJECT_KEY', file: 'team', kind: 'project-key', description: 'project key prefix of issue keys' },
  { name: 'STATUS_TODO', file: 'team', kind: 'status', runtimeDefault: 'To Do', initDefault: 'To Do', description: 'status new issues land in' },
  {
    name: 'STATUS_IN_PROGRESS',
    file: 'team',
    kind: 'status',
    runtimeDefault: 'In Progress',
    initDefault: 'In Progress',
    description: 'status while work is under way',
  },
  {
    name: 'STATUS_IN_REVIEW',
    file: 'team',
    kind: 'status',
    runtimeDefault: 'In Review',
    initDefault: 'In Review',
    description: 'status while a pull request is open',
  },
  { name: 'STATUS_DONE', file: 'team', kind: 'status', runtimeDefault: 'Done', initDefault: 'Done', description: 'status of finished work' },
  { name: 'WORKTREES_DIR', file: 'local', kind: 'path', description: 'absolute path of the folder worktrees are created in' },
  { name: 'TRACKER_ACCOUNT_URL', file: 'local', kind: 'host', description: 'tracker site host, e.g. acme.atlassian.net' },
  { name: 'TRACKER_ASSIGNER_EMAIL', file: 'local', kind: 'email', description: 'assigner account e-mail' },
  { name: 'TRACKER_ASSIGNER_TOKEN', file: 'local', kind: 'token', description: 'assigner API token' },
  { name: 'TRACKER_EXECUTOR_EMAIL', file: 'local', kind: 'email', description: 'executor account e-mail' },
  { name: 'TRACKER_EXECUTOR_TOKEN', file: 'local', kind: 'token', description: 'executor API token' },
  { name: 'TRACKER_REVIEWER_EMAIL', file: 'local', kind: 'email', description: 'reviewer account e-mail' },
  { name: 'TRACKER_REVIEWER_TOKEN', file: 'local', kind: 'token', description: 'reviewer API token' },
  { name: 'CODEHOST_PAT_TOKEN', file: 'local', kind: 'token', description: 'code host personal access token (granular)' },
  // ARCHITECTURE §10: one code-host identity per role; each falls back to CODEHOST_PAT_TOKEN.
  {
    name: 'CODEHOST_EXECUTOR_TOKEN',
    file: 'local',
    kind: 'token',
    description: "code host token of the executor's identity: push and pull request (optional; default CODEHOST_PAT_TOKEN)",
  },
  {
    name: 'CODEHOST_REVIEWER_TOKEN',
    file: 'local',
    kind: 'token',
    description: "code host token of the reviewer's identity: reviews (optional; default CODEHOST_PAT_TOKEN)",
  },
  { name: 'TRACKER_GATEWAY_URL', file: 'local', kind: 'url', runtimeDefault: 'https://api.atlassian.com', description: 'tracker REST gateway' },
  { name: 'CODEHOST_API_URL', file: 'local', kind: 'url', runtimeDefault: 'https://api.github.com', description: 'code host REST API' },
  // ARCHITECTURE §11: owner/name when origin's URL names no repository on the code host (a mirror or proxy).
  { name: 'CODEHOST_REPO', file: 'local', kind: 'repo', description: 'code host repository owner/name (default: read from origin)' },
  // ARCHITECTURE §23: a code host under TLS with its own authority (jst-tracker serve --tls): git trusts it for jst's pushes.
  {
    name: 'CODEHOST_CA_FILE',
    file: 'local',
    kind: 'path',
    description: "certificate authority (PEM) git trusts for jst's fetches and pushes with origin, e.g. jst-tracker --tls's <data>/tls/ca.pem (optional)",
  },
  // ARCHITECTURE §15: the agents `jst dispatch` starts, a command line each, run through the platform's shell.
  { name: 'AGENT_EXECUTOR_CMD', file: 'team', kind: 'command', description: "command jst dispatch runs as the executor's agent (optional)" },
  { name: 'AGENT_REVIEWER_CMD', file: 'team', kind: 'command', description: "command jst dispatch runs as the reviewer's agent (optional)" },
  // ARCHITECTURE §15: how dispatch confines each agent to its role (docs/dispatch.md "The sandbox").
  { name: 'AGENT_SANDBOX', file: 'team', kind: 'sandbox', runtimeDefault: 'bwrap', description: 'how jst dispatch confines its agents: bwrap or none' },
  // ARCHITECTURE §15: an agent still running after this many minutes is stopped and counted as failed.
  {
    name: 'AGENT_TIMEOUT_MINUTES',
    file: 'team',
    kind: 'minutes',
    runtimeDefault: '60',
    description: 'minutes jst dispatch lets one agent run before stopping it (default 60)',
  },
  // ARCHITECTURE §10: a local file written for one role (the one dispatch gives an agent) says so.
  { name: 'JST_ONLY_ROLE', file: 'local', kind: 'role', description: 'the one role this local file holds credentials for (written by jst dispatch)' },
] as const satisfies readonly SettingSpec[];

export type SettingName = (typeof SETTINGS)[number]['name'];

export const SETTING_NAMES: readonly SettingName[] = SETTINGS.map((s) => s.name);

const BY_NAME: ReadonlyMap<string, SettingSpec> = new Map(SETTINGS.map((s) => [s.name, s]));

export function isSettingName(name: string): name is SettingName {
  return BY_NAME.has(name);
}

export function settingSpec(name: SettingName): SettingSpec {
  return BY_NAME.get(name) as SettingSpec;
}

/** Settings whose values are secrets: never printed, logged or put into a message (ARCHITECTURE §4). */
export const SECRET_SETTINGS: readonly SettingName[] = SETTINGS.filter((s) => s.kind === 'token').map((s) => s.name);

export type Role = 'assigner' | 'executor' | 'reviewer';

export const ROLES: readonly Role[] = ['assigner', 'executor', 'reviewer'];

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

export type CodehostRole = 'executor' | 'reviewer';

/**
 * The code-host identity of a command's declared role (ARCHITECTURE §21): the executor pushes and
 * opens pull requests, the reviewer reviews. The assigner's commands never reach the code host.
 */
export function codehostRoleOf(role: Role): CodehostRole {
  if (role === 'assigner') throw new Error('the assigner has no code-host identity (ARCHITECTURE §21)');
  return role;
}

/** ARCHITECTURE §10: the role's own code-host token setting, and the shared one it falls back to. */
export function codehostTokenSettings(role: CodehostRole): { own: SettingName; shared: SettingName } {
  return { own: role === 'executor' ? 'CODEHOST_EXECUTOR_TOKEN' : 'CODEHOST_REVIEWER_TOKEN', shared: 'CODEHOST_PAT_TOKEN' };
}

/** spec §5 rule 3: `--role` picks `TRACKER_<ROLE>_EMAIL` and `TRACKER_<ROLE>_TOKEN`. */
export function roleSettings(role: Role): { email: SettingName; token: SettingName } {
  const upper = role.toUpperCase() as Uppercase<Role>;
  return { email: `TRACKER_${upper}_EMAIL`, token: `TRACKER_${upper}_TOKEN` };
}

export interface ConfigWarning {
  readonly code: 'UNKNOWN_SETTING' | 'WRONG_FILE' | 'DUPLICATE_SETTING' | 'FILE_MODE';
  /** The name as written in the file (for FILE_MODE, the file's name). */
  readonly setting: string;
  readonly file: string;
  /** Absent for a warning about the whole file. */
  readonly line?: number | undefined;
  readonly message: string;
  /** For an unknown name: the closest known one. */
  readonly suggestion?: SettingName | undefined;
}

/** Where a value came from, so every message can name its source. */
export type ValueSource = { kind: 'file'; file: string; line: number } | { kind: 'environment' } | { kind: 'default' };

export interface SettingValue {
  readonly value: string;
  readonly source: ValueSource;
}

export interface StatusNames {
  readonly todo: string;
  readonly inProgress: string;
  readonly inReview: string;
  readonly done: string;
}

/** A loaded configuration (config/load.ts `loadConfig`): the two files and the environment, read once per run. */
export interface JstConfig {
  readonly cwd: string;
  /** The `.jst/` folder in use, or null when none was found. */
  readonly jstDir: string | null;
  readonly repoRoot: string | null;
  /** Paths of the two files: where they were read from, or where they belong when absent. */
  readonly files: Readonly<Record<SettingFile, string>>;
  readonly filesFound: Readonly<Record<SettingFile, boolean>>;
  /** Every setting that has a value, after the environment override (empty values count as unset). */
  readonly settings: Readonly<Partial<Record<SettingName, SettingValue>>>;
  /**
   * Settings left unset by an empty value that won (an empty environment variable overrides the
   * files too, ARCHITECTURE §10), with where that empty value came from, so a message can say so.
   */
  readonly emptied: Readonly<Partial<Record<SettingName, ValueSource>>>;
  readonly defaultBaseBranch: string;
  /** null = the literal state `unset` (never a guessed name); see `displayProductionBranch`. */
  readonly productionBranch: string | null;
  readonly projectKey: string | null;
  /** Kept exactly as written: spec §2 says status names are matched literally. */
  readonly statuses: StatusNames;
  /** TRACKER_ACCOUNT_URL reduced to host[:port]; null when absent or empty. */
  readonly trackerHost: string | null;
  /** WORKTREES_DIR as written (lenient: may be relative); use `requireWorktreesDir` for the strict form. */
  readonly worktreesDir: string | null;
  /** Normalized TRACKER_GATEWAY_URL / CODEHOST_API_URL; null only when a set value is unusable. */
  readonly gatewayUrl: string | null;
  readonly codehostApiUrl: string | null;
  readonly warnings: readonly ConfigWarning[];
}
