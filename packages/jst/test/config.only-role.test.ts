import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  JstError,
  codehostTokenSetting,
  loadConfig,
  onlyRole,
  requireAgentSandbox,
  requireCodehostToken,
  requireRoleCredentials,
  validateConfig,
  type JstConfig,
} from '../src/config/index.js';
import { forgetReads, remoteOrigins, withGitToken } from '../src/git/index.js';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
});

const TEAM = ['PROJECT_KEY=ABC', 'DEFAULT_BASE_BRANCH=development', 'PRODUCTION_BRANCH=main'];

/** A `.jst/` with the given local lines (and the team file), loaded with an empty environment. */
function load(local: string[], team: string[] = TEAM): JstConfig {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'jst-only-role-')));
  roots.push(root);
  fs.mkdirSync(path.join(root, '.jst'));
  fs.mkdirSync(path.join(root, 'worktrees'));
  fs.writeFileSync(path.join(root, '.jst', 'team.env'), `${team.join('\n')}\n`);
  fs.writeFileSync(path.join(root, '.jst', 'local.env'), `${[`WORKTREES_DIR=${path.join(root, 'worktrees')}`, ...local].join('\n')}\n`, { mode: 0o600 });
  return loadConfig({ cwd: root, env: {} });
}

const EXECUTOR_ONLY = [
  'JST_ONLY_ROLE=executor',
  'TRACKER_ACCOUNT_URL=acme.atlassian.net',
  'TRACKER_ASSIGNER_EMAIL=assigner@acme.test',
  'TRACKER_EXECUTOR_EMAIL=executor@acme.test',
  'TRACKER_EXECUTOR_TOKEN=tok-executor-51ab7e',
  'TRACKER_REVIEWER_EMAIL=reviewer@acme.test',
  'CODEHOST_EXECUTOR_TOKEN=github_pat_exec_9f0e21',
];

const thrown = (f: () => unknown): JstError => {
  try {
    f();
  } catch (error) {
    if (error instanceof JstError) return error;
    throw error;
  }
  throw new Error('expected a JstError');
};

describe('ARCHITECTURE §10: a local file for one role (JST_ONLY_ROLE)', () => {
  it('is complete with that role’s pair: no configuration problem, and the role’s own commands get their credentials', () => {
    const config = load(EXECUTOR_ONLY);
    expect(onlyRole(config)).toBe('executor');
    expect(validateConfig(config)).toEqual([]);
    expect(requireRoleCredentials(config, 'executor')).toEqual({ email: 'executor@acme.test', token: 'tok-executor-51ab7e' });
    expect(requireCodehostToken(config, 'executor')).toEqual({ setting: 'CODEHOST_EXECUTOR_TOKEN', token: 'github_pat_exec_9f0e21' });
  });

  it('another role’s tracker credential: exit 2 naming the missing setting and the limit, never a token', () => {
    const error = thrown(() => requireRoleCredentials(load(EXECUTOR_ONLY), 'reviewer'));
    expect(error.exitCode).toBe(2);
    expect(error.code).toBe('CONFIG_ROLE_LIMITED');
    expect(error.setting).toBe('TRACKER_REVIEWER_TOKEN');
    expect(error.message).toContain('TRACKER_REVIEWER_TOKEN is not set: ');
    expect(error.message).toContain("holds only the executor's credentials (JST_ONLY_ROLE=executor)");
    expect(error.message).not.toContain('tok-executor-51ab7e');
  });

  it('another role’s code-host token: its own setting is the missing one (no fallback to a shared token there)', () => {
    const config = load([...EXECUTOR_ONLY, 'CODEHOST_PAT_TOKEN=github_pat_shared_00aa11']);
    expect(codehostTokenSetting(config, 'reviewer')).toBe('CODEHOST_REVIEWER_TOKEN');
    const error = thrown(() => requireCodehostToken(config, 'reviewer'));
    expect(error).toMatchObject({ exitCode: 2, code: 'CONFIG_ROLE_LIMITED', setting: 'CODEHOST_REVIEWER_TOKEN' });
  });

  it('without JST_ONLY_ROLE a half-filled local file is the usual error: every missing setting, and how to add it', () => {
    const config = load(EXECUTOR_ONLY.filter((l) => !l.startsWith('JST_ONLY_ROLE=')));
    const missing = validateConfig(config).filter((p) => p.code === 'CONFIG_MISSING');
    expect(missing.map((p) => p.setting)).toEqual(['TRACKER_ASSIGNER_TOKEN', 'TRACKER_REVIEWER_TOKEN']);
    const error = thrown(() => requireRoleCredentials(config, 'reviewer'));
    expect(error.code).toBe('CONFIG_MISSING');
    expect(error.message).toContain('TRACKER_REVIEWER_TOKEN is not set in');
    expect(error.message).toContain('Add TRACKER_REVIEWER_TOKEN=<');
  });

  it('a JST_ONLY_ROLE that names no role is an error naming the setting', () => {
    const config = load(['JST_ONLY_ROLE=admin', ...EXECUTOR_ONLY.slice(1)]);
    expect(onlyRole(config)).toBeNull();
    expect(validateConfig(config).find((p) => p.setting === 'JST_ONLY_ROLE')).toMatchObject({
      code: 'CONFIG_ROLE',
      message: expect.stringContaining('is "admin", not assigner, executor or reviewer'),
    });
  });
});

describe('ARCHITECTURE §10: one code-host identity per role, each falling back to CODEHOST_PAT_TOKEN', () => {
  it('the role’s own token when set, else CODEHOST_PAT_TOKEN; the shared token alone serves both', () => {
    const shared = load(['CODEHOST_PAT_TOKEN=github_pat_shared_00aa11']);
    expect(requireCodehostToken(shared, 'executor')).toEqual({ setting: 'CODEHOST_PAT_TOKEN', token: 'github_pat_shared_00aa11' });
    expect(requireCodehostToken(shared, 'reviewer')).toEqual({ setting: 'CODEHOST_PAT_TOKEN', token: 'github_pat_shared_00aa11' });
    const split = load(['CODEHOST_PAT_TOKEN=github_pat_shared_00aa11', 'CODEHOST_REVIEWER_TOKEN=github_pat_rev_77cc00']);
    expect(requireCodehostToken(split, 'executor').setting).toBe('CODEHOST_PAT_TOKEN');
    expect(requireCodehostToken(split, 'reviewer')).toEqual({ setting: 'CODEHOST_REVIEWER_TOKEN', token: 'github_pat_rev_77cc00' });
  });

  it('none set: exit 2 naming CODEHOST_PAT_TOKEN, as before', () => {
    expect(thrown(() => requireCodehostToken(load([]), 'reviewer'))).toMatchObject({ exitCode: 2, code: 'CONFIG_MISSING', setting: 'CODEHOST_PAT_TOKEN' });
  });

  it('a role token holding a file path is refused like any token setting', () => {
    const config = load(['CODEHOST_EXECUTOR_TOKEN=/home/me/pat.txt']);
    expect(validateConfig(config).find((p) => p.setting === 'CODEHOST_EXECUTOR_TOKEN')?.code).toBe('CONFIG_TOKEN_IS_PATH');
  });

  it('git authenticates with the role’s token to origin’s address, whatever credential helper the repository configures', () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'jst-git-token-')));
    roots.push(root);
    execFileSync('git', ['init', '-q', root]);
    const store = path.join(root, 'store');
    fs.writeFileSync(store, 'https://x-access-token:github_pat_store_1234@code.example\n', { mode: 0o600 });
    execFileSync('git', ['-C', root, 'config', 'credential.helper', `store --file=${store}`]);
    const fill = (env: NodeJS.ProcessEnv, url = 'https://code.example/acme/widgets.git') =>
      execFileSync('git', ['-C', root, 'credential', 'fill'], { input: `url=${url}\n\n`, env, encoding: 'utf8' });
    const base = { PATH: process.env.PATH, HOME: root, GIT_TERMINAL_PROMPT: '0' };
    expect(fill(base)).toContain('password=github_pat_store_1234');
    const out = fill(withGitToken(base, 'github_pat_role_5678', ['https://code.example']));
    expect(out).toContain('password=github_pat_role_5678');
    expect(out).not.toContain('github_pat_store_1234');
    // Configuration already given in the environment is kept; the helpers come after it.
    const kept = withGitToken({ GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'user.name', GIT_CONFIG_VALUE_0: 'Ada' }, 't', ['https://code.example']);
    expect(kept).toMatchObject({
      GIT_CONFIG_COUNT: '3',
      GIT_CONFIG_KEY_0: 'user.name',
      GIT_CONFIG_KEY_1: 'credential.https://code.example.helper',
      GIT_CONFIG_VALUE_1: '',
    });
  });

  it('the role’s token reaches no other host: a submodule’s or a redirect’s host keeps the user’s own helpers and never sees it', () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'jst-git-token-')));
    roots.push(root);
    execFileSync('git', ['init', '-q', root]);
    const store = path.join(root, 'store');
    fs.writeFileSync(store, 'https://x-access-token:github_pat_store_1234@other.example\n', { mode: 0o600 });
    execFileSync('git', ['-C', root, 'config', 'credential.helper', `store --file=${store}`]);
    const env = withGitToken({ PATH: process.env.PATH, HOME: root, GIT_TERMINAL_PROMPT: '0' }, 'github_pat_role_5678', ['http://127.0.0.1:8080']);
    const fill = (url: string) => {
      try {
        return execFileSync('git', ['-C', root, 'credential', 'fill'], { input: `url=${url}\n\n`, env, encoding: 'utf8', stdio: 'pipe' });
      } catch (e) {
        return String((e as { stdout?: string }).stdout ?? '') + String((e as { stderr?: string }).stderr ?? '');
      }
    };
    expect(fill('http://127.0.0.1:8080/acme/widgets.git')).toContain('password=github_pat_role_5678');
    // Another host: the user's store answers, as without jst.
    const other = fill('https://other.example/lib/sub.git');
    expect(other).toContain('password=github_pat_store_1234');
    expect(other).not.toContain('github_pat_role_5678');
    // The same host on another port or scheme is another address.
    for (const url of ['http://127.0.0.1:9090/acme/widgets.git', 'https://127.0.0.1:8080/acme/widgets.git', 'http://localhost:8080/acme/widgets.git']) {
      expect(fill(url), url).not.toContain('github_pat_role_5678');
    }
    // No http(s) address (an ssh origin): no token is given to git at all.
    expect(withGitToken({ PATH: '/usr/bin' }, 'github_pat_role_5678', [])).toEqual({ PATH: '/usr/bin' });
    expect(withGitToken({ PATH: '/usr/bin' }, 'github_pat_role_5678', ['git@github.com:acme/widgets.git'])).toEqual({ PATH: '/usr/bin' });
  });

  it('remoteOrigins: origin’s fetch and push addresses as git asks its helpers about them, insteadOf applied', async () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'jst-git-origins-')));
    roots.push(root);
    execFileSync('git', ['init', '-q', root]);
    const env = { PATH: process.env.PATH, HOME: root, GIT_CONFIG_NOSYSTEM: '1' };
    const origins = async () => {
      forgetReads();
      return remoteOrigins(root, 'origin', { env });
    };
    expect(await origins()).toEqual([]);
    execFileSync('git', ['-C', root, 'remote', 'add', 'origin', 'http://x-access-token@127.0.0.1:8080/acme/widgets.git'], { env });
    expect(await origins()).toEqual(['http://127.0.0.1:8080']);
    execFileSync('git', ['-C', root, 'remote', 'set-url', '--push', 'origin', 'https://push.example/acme/widgets.git'], { env });
    expect(await origins()).toEqual(['http://127.0.0.1:8080', 'https://push.example']);
    execFileSync('git', ['-C', root, 'remote', 'set-url', 'origin', 'git@github.com:acme/widgets.git'], { env });
    execFileSync('git', ['-C', root, 'config', '--unset', 'remote.origin.pushurl'], { env });
    expect(await origins()).toEqual([]);
    // A rewritten address is the one git connects to.
    execFileSync('git', ['-C', root, 'remote', 'set-url', 'origin', 'code:acme/widgets.git'], { env });
    execFileSync('git', ['-C', root, 'config', 'url.https://code.example/.insteadOf', 'code:'], { env });
    expect(await origins()).toEqual(['https://code.example']);
  });
});

describe('ARCHITECTURE §15: AGENT_SANDBOX is bwrap or none', () => {
  it('bwrap by default, none when said; anything else is exit 2 naming the setting', () => {
    expect(requireAgentSandbox(load([]))).toBe('bwrap');
    expect(requireAgentSandbox(load([], [...TEAM, 'AGENT_SANDBOX=none']))).toBe('none');
    const error = thrown(() => requireAgentSandbox(load([], [...TEAM, 'AGENT_SANDBOX=docker'])));
    expect(error).toMatchObject({ exitCode: 2, code: 'CONFIG_SANDBOX', setting: 'AGENT_SANDBOX' });
    expect(error.message).toContain('is "docker", not bwrap or none');
  });
});
