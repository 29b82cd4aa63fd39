import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import {
  JstError,
  SETTINGS,
  codehostTokenSetting,
  formatEnvValue,
  sandboxState,
  roleSettings,
  type SandboxState,
  type JstConfig,
  type SettingName,
} from '../config/index.js';
import { EXIT } from '../core/errors.js';
import { withGitConfig, withGitToken } from '../git/index.js';

/**
 * The sandbox `jst dispatch` runs each agent in (ARCHITECTURE §15, docs/dispatch.md "The sandbox"):
 * bubblewrap shows the system read-only, the agent's worktree and the repository's git directory
 * read-write, a private `/tmp`, and in place of `.jst/local.env` a file holding only its role's
 * credentials (JST_ONLY_ROLE). The main checkout's `.jst/`, the other worktrees and `$HOME` (with
 * `~/.git-credentials` and the user's credential stores) are empty folders inside. The network is
 * kept: the agent talks to the tracker, the code host and its model provider.
 */
export type SandboxRole = 'executor' | 'reviewer';

const INSTALL = 'install bubblewrap (Debian, Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap)';

/**
 * Dispatch never starts an agent unsandboxed by accident: with AGENT_SANDBOX=bwrap (the default)
 * and no working bubblewrap, it refuses (exit 2) and says how to install it or to opt out.
 */
export function requireSandbox(config: JstConfig, env: NodeJS.ProcessEnv): SandboxState {
  const state = sandboxState(config, env);
  if (state.mode === 'none') return state;
  const optOut = `or set AGENT_SANDBOX=none in ${config.files.team} to run agents with every role's credentials (not recommended)`;
  if (state.bwrap === null) {
    throw new JstError({
      code: 'SANDBOX_MISSING',
      exitCode: EXIT.usage,
      setting: 'AGENT_SANDBOX',
      problem: `AGENT_SANDBOX is bwrap${config.settings.AGENT_SANDBOX === undefined ? ' (the default)' : ''} and bubblewrap (bwrap) is not on PATH${process.platform === 'linux' ? '' : ` (it runs on Linux only, this is ${process.platform})`}, so no agent is started`,
      hint: `${INSTALL}, ${optOut}`,
    });
  }
  // A bubblewrap that cannot make a sandbox here (user namespaces switched off) is found out now, not per agent.
  const probe = spawnSync(state.bwrap, ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-pid', '--', 'true'], {
    encoding: 'utf8',
    timeout: 10_000,
  });
  if (probe.status !== 0) {
    const said = (probe.stderr ?? '').trim().split('\n')[0] ?? '';
    throw new JstError({
      code: 'SANDBOX_BROKEN',
      exitCode: EXIT.usage,
      setting: 'AGENT_SANDBOX',
      problem: `bubblewrap (${state.bwrap}) cannot make a sandbox here${said === '' ? '' : `: ${said}`}, so no agent is started`,
      hint: `Allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1), ${optOut}`,
    });
  }
  return state;
}

/** The local settings the role-only file carries besides credentials: addresses and paths, no secret. */
const PLAIN_LOCAL: readonly SettingName[] = SETTINGS.filter((s) => s.file === 'local' && s.kind !== 'token' && s.name !== 'JST_ONLY_ROLE').map((s) => s.name);

/**
 * The text of the role-only `.jst/local.env`: `JST_ONLY_ROLE`, the addresses and paths, the three
 * roles' e-mails (no secret: markers are attributed by them, ARCHITECTURE §11), and this role's
 * tracker token and code-host token only. Values are the effective ones (the environment included),
 * since the agent's environment loses every local setting.
 */
export function roleLocalFile(config: JstConfig, role: SandboxRole): string {
  const lines = [`# Written by jst dispatch for the ${role}'s agent: this role's credentials only (docs/dispatch.md "The sandbox").`, `JST_ONLY_ROLE=${role}`];
  const put = (name: string, value: string | undefined) => {
    if (value !== undefined && value !== '') lines.push(`${name}=${formatEnvValue(value)}`);
  };
  for (const name of PLAIN_LOCAL) put(name, config.settings[name]?.value);
  put(roleSettings(role).token, config.settings[roleSettings(role).token]?.value);
  put(role === 'executor' ? 'CODEHOST_EXECUTOR_TOKEN' : 'CODEHOST_REVIEWER_TOKEN', config.settings[codehostTokenSetting(config, role)]?.value);
  return `${lines.join('\n')}\n`;
}

/** The folders a sandbox is built around. */
export interface SandboxLayout {
  /** The agent's worktree (read-write), where it runs. */
  worktree: string;
  /** The repository's git directory (`git rev-parse --git-common-dir`, read-write: commits, refs). */
  gitCommonDir: string;
  /** The main checkout's `.jst/` (hidden). */
  mainJstDir: string;
  /** WORKTREES_DIR (hidden but for `worktree`); null when unset or relative. */
  worktreesDir: string | null;
  /** `$HOME` (hidden); null when unset or `/`. */
  home: string | null;
  /** Folders under `/tmp` or `home` shown again read-only: the programs the agent runs (PATH entries, node, jst). */
  programDirs: readonly string[];
  /** The entries of the worktree's `.jst/` shown read-only (all but local.env and dispatch's own files). */
  jstEntries: readonly string[];
  /** The role-only local file, mounted read-only over `<worktree>/.jst/local.env`. */
  roleFile: string;
}

/**
 * bubblewrap's arguments, in mount order (a later mount covers an earlier one): the whole system
 * read-only, then empty folders over what must not be seen, then the agent's own folders again.
 * No `--unshare-net` (the agent needs the network), no `--die-with-parent` (an agent outlives a
 * killed dispatch, which finds it running next time, docs/dispatch.md); `--unshare-pid` with a
 * fresh `/proc` keeps other processes' environments (dispatch's, with every token) out of sight.
 */
export function bwrapArgs(l: SandboxLayout): string[] {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];
  // A program under /tmp (a jst run from a checkout or an npx cache there) is shown again, read-only.
  for (const dir of l.programDirs) if (inside(dir, '/tmp')) args.push('--ro-bind', dir, dir);
  args.push('--unshare-pid', '--unshare-ipc', '--unshare-uts');
  if (l.home !== null) {
    args.push('--tmpfs', l.home);
    for (const dir of l.programDirs) if (inside(dir, l.home)) args.push('--ro-bind', dir, dir);
  }
  args.push('--tmpfs', l.mainJstDir);
  if (l.worktreesDir !== null) args.push('--tmpfs', l.worktreesDir);
  args.push('--bind', l.worktree, l.worktree, '--bind', l.gitCommonDir, l.gitCommonDir);
  const jst = join(l.worktree, '.jst');
  args.push('--tmpfs', jst);
  for (const entry of l.jstEntries) args.push('--ro-bind', join(jst, entry), join(jst, entry));
  args.push('--ro-bind', l.roleFile, join(jst, 'local.env'), '--chdir', l.worktree);
  return args;
}

/** True when `dir` is `parent` or below it. */
function inside(dir: string, parent: string): boolean {
  const rel = relative(parent, dir);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** The entries of a worktree's `.jst/` an agent may see (read-only): all but the credentials and dispatch's own files. */
export function visibleJstEntries(jstDir: string): string[] {
  try {
    return readdirSync(jstDir).filter((e) => !['local.env', 'dispatch', 'dispatch-journal.json'].includes(e) && !e.startsWith('dispatch-journal'));
  } catch {
    return [];
  }
}

/** The folders under `home` (a folder the sandbox hides: `$HOME`, `/tmp`) holding the programs an agent runs: PATH entries, node's prefix, jst's package. */
export function programDirsUnder(home: string, env: NodeJS.ProcessEnv): string[] {
  const candidates = [
    ...(env.PATH ?? '').split(delimiter).filter((d) => isAbsolute(d)),
    dirname(dirname(process.execPath)),
    // The folder of the program that runs this (jst's own script), and its parent (the package).
    ...(process.argv[1] === undefined ? [] : [dirname(dirname(resolve(process.argv[1])))]),
  ];
  // `home` itself is never shown again: that would undo hiding it.
  return [...new Set(candidates.map((d) => resolve(d)))].filter((d) => inside(d, home) && d !== resolve(home) && existsSync(d));
}

/** A sandbox made ready for one agent: bwrap's path and arguments, the agent's environment, and the cleanup. */
export interface PreparedSandbox {
  file: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  /** Removes the role-only file's private folder (after the agent ends). */
  cleanup(): void;
}

/** The names an agent's environment never carries into the sandbox: every local setting (credentials, and values the role file now holds). */
const LOCAL_NAMES: readonly string[] = SETTINGS.filter((s) => s.file === 'local').map((s) => s.name);

/**
 * Writes the role-only file (mode 0600, in a private folder of its own, mode 0700) and builds the
 * sandbox. The agent's environment loses every local setting (the environment outranks the files,
 * ARCHITECTURE §10, and would carry dispatch's tokens in), and git's credential for origin's
 * addresses (`origins`) is the role's code-host token (git/credential.ts); its commit identity is the one dispatch's
 * git sees, since `~/.gitconfig` is out of sight.
 */
export function prepareSandbox(
  bwrap: string,
  config: JstConfig,
  role: SandboxRole,
  layout: Omit<SandboxLayout, 'roleFile' | 'jstEntries' | 'programDirs'>,
  env: NodeJS.ProcessEnv,
  identity: { name: string | null; email: string | null },
  origins: readonly string[],
): PreparedSandbox {
  const dir = mkdtempSync(join(tmpdir(), 'jst-agent-'));
  chmodSync(dir, 0o700);
  const roleFile = join(dir, 'local.env');
  writeFileSync(roleFile, roleLocalFile(config, role), { mode: 0o600 });
  const full: SandboxLayout = {
    ...layout,
    roleFile,
    jstEntries: visibleJstEntries(join(layout.worktree, '.jst')),
    programDirs: [...programDirsUnder('/tmp', env), ...(layout.home === null ? [] : programDirsUnder(layout.home, env))],
  };
  const clean: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) if (!LOCAL_NAMES.includes(name) && !name.startsWith('GIT_CONFIG_')) clean[name] = value;
  clean.TMPDIR = '/tmp';
  const token = config.settings[codehostTokenSetting(config, role)]?.value;
  let agentEnv = token === undefined ? clean : withGitToken(clean, token, origins);
  const extra: [string, string][] = [];
  if (identity.name !== null) extra.push(['user.name', identity.name]);
  if (identity.email !== null) extra.push(['user.email', identity.email]);
  if (extra.length > 0) agentEnv = withGitConfig(agentEnv, extra);
  return {
    file: bwrap,
    args: bwrapArgs(full),
    env: agentEnv,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The home folder to hide: `$HOME`, unless it is unset, relative or `/` itself. */
export function homeToHide(env: NodeJS.ProcessEnv): string | null {
  const home = env.HOME;
  if (home === undefined || !isAbsolute(home)) return null;
  const resolved = resolve(home);
  return resolved === sep ? null : resolved;
}

/** What a dispatch run knows of confinement for all its agents: AGENT_SANDBOX, the repository's git folder, the commit identity, origin's addresses. */
export type RunSandbox = SandboxState & { gitCommonDir: string; identity: { name: string | null; email: string | null }; origins: string[] };

/** An agent's sandbox in `worktree`, or undefined with AGENT_SANDBOX=none. */
export function agentSandbox(
  config: JstConfig,
  run: RunSandbox,
  mainJstDir: string,
  role: SandboxRole,
  worktree: string,
  env: NodeJS.ProcessEnv,
): PreparedSandbox | undefined {
  if (run.mode === 'none' || run.bwrap === null) return undefined;
  const dir = config.worktreesDir;
  return prepareSandbox(
    run.bwrap,
    config,
    role,
    { worktree, gitCommonDir: run.gitCommonDir, mainJstDir, worktreesDir: dir !== null && isAbsolute(dir) ? dir : null, home: homeToHide(env) },
    env,
    run.identity,
    run.origins,
  );
}
