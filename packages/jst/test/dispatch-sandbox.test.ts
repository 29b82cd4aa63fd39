import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { JstError, loadConfig, type JstConfig } from '../src/config/index.js';
import { bwrapArgs, prepareSandbox, programDirsUnder, requireSandbox, roleLocalFile, visibleJstEntries } from '../src/dispatch/sandbox.js';
import { sandboxRow } from '../src/healthcheck/context-rows.js';
import type { HealthcheckContext } from '../src/healthcheck/types.js';
import { bwrapAvailable } from '../../../test/support/bwrap.js';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
});

const SECRETS = {
  TRACKER_ASSIGNER_TOKEN: 'tok-assigner-1a2b3c',
  TRACKER_EXECUTOR_TOKEN: 'tok-executor-4d5e6f',
  TRACKER_REVIEWER_TOKEN: 'tok-reviewer-7a8b9c',
  CODEHOST_PAT_TOKEN: 'github_pat_shared_0d1e2f',
  CODEHOST_REVIEWER_TOKEN: 'github_pat_reviewer_3a4b5c',
} as const;

function world(team: string[] = []): { root: string; config: JstConfig } {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'jst-sandbox-unit-')));
  roots.push(root);
  fs.mkdirSync(path.join(root, '.jst'));
  fs.writeFileSync(path.join(root, '.jst', 'team.env'), ['PROJECT_KEY=ABC', ...team].join('\n') + '\n');
  fs.writeFileSync(
    path.join(root, '.jst', 'local.env'),
    [
      `WORKTREES_DIR=${root}/worktrees`,
      'TRACKER_ACCOUNT_URL=acme.atlassian.net',
      'TRACKER_ASSIGNER_EMAIL=assigner@acme.test',
      'TRACKER_EXECUTOR_EMAIL=executor@acme.test',
      'TRACKER_REVIEWER_EMAIL=reviewer@acme.test',
      'CODEHOST_API_URL=https://ghe.acme.test/api/v3',
      ...Object.entries(SECRETS).map(([k, v]) => `${k}=${v}`),
    ].join('\n') + '\n',
    { mode: 0o600 },
  );
  return { root, config: loadConfig({ cwd: root, env: {} }) };
}

const LAYOUT = {
  worktree: '/srv/wt/worktree-ABC-2',
  gitCommonDir: '/srv/repo/.git',
  mainJstDir: '/srv/repo/.jst',
  worktreesDir: '/srv/wt',
  home: '/home/me',
  programDirs: ['/home/me/.local/bin', '/usr/local/bin'],
  jstEntries: ['team.env', 'bootstrap.sh'],
  roleFile: '/tmp/jst-agent-x/local.env',
};

describe('ARCHITECTURE §15: the bubblewrap sandbox of an agent', () => {
  it('mounts in order: the system read-only, empty folders over what must not be seen, then the agent’s own folders', () => {
    expect(bwrapArgs(LAYOUT)).toEqual([
      ...['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'],
      ...['--unshare-pid', '--unshare-ipc', '--unshare-uts'],
      ...['--tmpfs', '/home/me', '--ro-bind', '/home/me/.local/bin', '/home/me/.local/bin'],
      ...['--tmpfs', '/srv/repo/.jst', '--tmpfs', '/srv/wt'],
      ...['--bind', '/srv/wt/worktree-ABC-2', '/srv/wt/worktree-ABC-2', '--bind', '/srv/repo/.git', '/srv/repo/.git'],
      ...['--tmpfs', '/srv/wt/worktree-ABC-2/.jst'],
      ...['--ro-bind', '/srv/wt/worktree-ABC-2/.jst/team.env', '/srv/wt/worktree-ABC-2/.jst/team.env'],
      ...['--ro-bind', '/srv/wt/worktree-ABC-2/.jst/bootstrap.sh', '/srv/wt/worktree-ABC-2/.jst/bootstrap.sh'],
      ...['--ro-bind', '/tmp/jst-agent-x/local.env', '/srv/wt/worktree-ABC-2/.jst/local.env', '--chdir', '/srv/wt/worktree-ABC-2'],
    ]);
  });

  it('a program under /tmp (jst run from a checkout there) is shown again read-only after the private /tmp, and the hidden folders still cover it', () => {
    const args = bwrapArgs({ ...LAYOUT, programDirs: ['/tmp/clone/packages/jst', '/home/me/.local/bin'] });
    expect(args.slice(0, 12)).toEqual([
      ...['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'],
      ...['--ro-bind', '/tmp/clone/packages/jst', '/tmp/clone/packages/jst'],
    ]);
    expect(args.indexOf('--tmpfs', 9)).toBeGreaterThan(args.indexOf('/tmp/clone/packages/jst'));
    const bin = fs.mkdtempSync('/tmp/jst-prog-');
    expect(programDirsUnder('/tmp', { PATH: `${bin}${path.delimiter}/usr/bin` })).toContain(bin);
    fs.rmSync(bin, { recursive: true });
  });

  it('keeps the network and outlives a killed dispatch: no --unshare-net, no --unshare-all, no --die-with-parent', () => {
    const args = bwrapArgs({ ...LAYOUT, home: null, worktreesDir: null });
    for (const flag of ['--unshare-net', '--unshare-all', '--die-with-parent']) expect(args).not.toContain(flag);
    expect(args).not.toContain('/home/me');
  });

  it('the worktree’s .jst/ entries shown again are all but the local file and dispatch’s own', () => {
    const { root } = world();
    for (const f of ['team.env', '.gitignore', 'bootstrap.sh', 'dispatch-journal.json', 'cloud-id.json']) fs.writeFileSync(path.join(root, '.jst', f), '');
    fs.mkdirSync(path.join(root, '.jst', 'dispatch'));
    expect(visibleJstEntries(path.join(root, '.jst')).sort()).toEqual(['.gitignore', 'bootstrap.sh', 'cloud-id.json', 'team.env']);
  });

  it('the role-only local file holds JST_ONLY_ROLE, the addresses, the e-mails and that role’s tokens only', () => {
    const { config } = world();
    const executor = roleLocalFile(config, 'executor');
    expect(executor).toContain('JST_ONLY_ROLE=executor\n');
    expect(executor).toContain(`TRACKER_EXECUTOR_TOKEN=${SECRETS.TRACKER_EXECUTOR_TOKEN}\n`);
    // No own code-host token: the shared one, under the role's own name.
    expect(executor).toContain(`CODEHOST_EXECUTOR_TOKEN=${SECRETS.CODEHOST_PAT_TOKEN}\n`);
    expect(executor).toContain('TRACKER_REVIEWER_EMAIL=reviewer@acme.test\n');
    expect(executor).toContain('CODEHOST_API_URL=https://ghe.acme.test/api/v3\n');
    for (const other of [SECRETS.TRACKER_ASSIGNER_TOKEN, SECRETS.TRACKER_REVIEWER_TOKEN, SECRETS.CODEHOST_REVIEWER_TOKEN])
      expect(executor).not.toContain(other);
    expect(executor).not.toMatch(/^CODEHOST_PAT_TOKEN=/m);
    const reviewer = roleLocalFile(config, 'reviewer');
    expect(reviewer).toContain(`CODEHOST_REVIEWER_TOKEN=${SECRETS.CODEHOST_REVIEWER_TOKEN}\n`);
    for (const other of [SECRETS.TRACKER_ASSIGNER_TOKEN, SECRETS.TRACKER_EXECUTOR_TOKEN, SECRETS.CODEHOST_PAT_TOKEN]) expect(reviewer).not.toContain(other);
  });

  it('prepareSandbox writes the file 0600 in a private folder (0700), strips the local settings from the environment, and its cleanup removes the folder', () => {
    const { root, config } = world();
    const env = {
      PATH: '/usr/bin',
      HOME: '/home/me',
      TRACKER_REVIEWER_TOKEN: SECRETS.TRACKER_REVIEWER_TOKEN,
      CODEHOST_PAT_TOKEN: SECRETS.CODEHOST_PAT_TOKEN,
      OTHER: 'kept',
    };
    const s = prepareSandbox(
      '/usr/bin/bwrap',
      config,
      'executor',
      { worktree: root, gitCommonDir: path.join(root, '.git'), mainJstDir: '/srv/repo/.jst', worktreesDir: null, home: null },
      env,
      { name: 'Ada', email: 'ada@acme.test' },
      ['http://127.0.0.1:8080'],
    );
    const file = s.args[s.args.indexOf(path.join(root, '.jst', 'local.env')) - 1]!;
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(fs.readFileSync(file, 'utf8')).toBe(roleLocalFile(config, 'executor'));
    expect(s.env.TRACKER_REVIEWER_TOKEN).toBeUndefined();
    expect(s.env.CODEHOST_PAT_TOKEN).toBeUndefined();
    expect(s.env.OTHER).toBe('kept');
    expect(s.env.JST_GIT_TOKEN).toBe(SECRETS.CODEHOST_PAT_TOKEN);
    // git gives the token to origin's address alone (git/credential.ts).
    expect(s.env).toMatchObject({
      GIT_CONFIG_COUNT: '4',
      GIT_CONFIG_KEY_0: 'credential.http://127.0.0.1:8080.helper',
      GIT_CONFIG_KEY_2: 'user.name',
      GIT_CONFIG_VALUE_2: 'Ada',
      GIT_CONFIG_VALUE_3: 'ada@acme.test',
    });
    s.cleanup();
    expect(fs.existsSync(path.dirname(file))).toBe(false);
  });

  it('without bwrap on PATH dispatch refuses (exit 2) naming AGENT_SANDBOX, the package and the opt-out', () => {
    const { config } = world();
    let error: unknown;
    try {
      requireSandbox(config, { PATH: '/nonexistent' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(JstError);
    expect(error).toMatchObject({ exitCode: 2, code: 'SANDBOX_MISSING', setting: 'AGENT_SANDBOX' });
    expect((error as JstError).message).toContain('apt-get install bubblewrap');
    expect((error as JstError).message).toContain('AGENT_SANDBOX=none');
    expect(requireSandbox(world(['AGENT_SANDBOX=none']).config, { PATH: '/nonexistent' })).toEqual({ mode: 'none', bwrap: null });
  });

  it('healthcheck --context: the sandbox row says found, missing or none', () => {
    const row = (team: string[], PATH: string) => sandboxRow({ config: world(team).config, env: { PATH } } as unknown as HealthcheckContext);
    expect(row(['AGENT_SANDBOX=none'], '/usr/bin')).toMatchObject({ name: 'sandbox', status: 'WARN', detail: expect.stringContaining('AGENT_SANDBOX=none') });
    expect(row([], '/nonexistent')).toMatchObject({ status: 'WARN', detail: expect.stringContaining('bwrap NOT found on PATH') });
    expect(row(['AGENT_SANDBOX=jail'], '/usr/bin')).toMatchObject({ status: 'WARN', detail: expect.stringContaining('AGENT_SANDBOX') });
    // Where bubblewrap runs (always in CI: JST_REQUIRE_BWRAP=1), the row finds it on PATH.
    if (bwrapAvailable()) expect(row([], process.env.PATH ?? '')).toMatchObject({ status: 'PASS', detail: expect.stringMatching(/^bwrap \(\/\S+\/bwrap\): /) });
  });
});
