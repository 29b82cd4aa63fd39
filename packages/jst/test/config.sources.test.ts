import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  JstError,
  checkRoleCredentials,
  configSecrets,
  describeSource,
  displayProductionBranch,
  loadConfig,
  redact,
  requireProductionBranch,
  requireRoleCredentials,
  validateConfig,
} from '../src/config/index.js';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
});

/** A real git repository whose `.jst/` holds exactly the given file texts. */
function repoWith(files: { team?: string; local?: string }): { root: string; teamFile: string; localFile: string } {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'jst-config-src-')));
  roots.push(root);
  execFileSync('git', ['init', '--quiet', root], { env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null' } });
  fs.mkdirSync(path.join(root, '.jst'));
  const teamFile = path.join(root, '.jst', 'team.env');
  const localFile = path.join(root, '.jst', 'local.env');
  if (files.team !== undefined) fs.writeFileSync(teamFile, files.team);
  if (files.local !== undefined) fs.writeFileSync(localFile, files.local, { mode: 0o600 }); // as jst init writes it (ARCHITECTURE §10)
  return { root, teamFile, localFile };
}

describe('a setting the program does not know is reported, with the closest known name', () => {
  it('WORKTREE_DIR → did you mean WORKTREES_DIR?', () => {
    const r = repoWith({ local: '# paths\nWORKTREE_DIR=/srv/worktrees\n' });
    const config = loadConfig({ cwd: r.root, env: {} });
    expect(config.warnings).toEqual([
      expect.objectContaining({ code: 'UNKNOWN_SETTING', setting: 'WORKTREE_DIR', file: r.localFile, line: 2, suggestion: 'WORKTREES_DIR' }),
    ]);
    expect(config.warnings[0]?.message).toContain('did you mean WORKTREES_DIR?');
    expect(config.warnings[0]?.message).toContain(`${r.localFile}:2`);
    // An unknown name is never used as if it were the known one.
    expect(config.worktreesDir).toBeNull();
  });

  it.each([
    ['worktrees_dir', 'WORKTREES_DIR'],
    ['TRACKER_ASIGNER_TOKEN', 'TRACKER_ASSIGNER_TOKEN'],
    ['PROJECT_KYE', 'PROJECT_KEY'],
    ['STATUS_INPROGRESS', 'STATUS_IN_PROGRESS'],
  ])('%s suggests %s', (written, suggestion) => {
    const r = repoWith({ local: `${written}=x\n` });
    expect(loadConfig({ cwd: r.root, env: {} }).warnings[0]?.suggestion).toBe(suggestion);
  });

  it('a name close to nothing gets no suggestion', () => {
    const r = repoWith({ team: 'SLACK_CHANNEL=#dev\n' });
    const [warning] = loadConfig({ cwd: r.root, env: {} }).warnings;
    expect(warning?.code).toBe('UNKNOWN_SETTING');
    expect(warning?.suggestion).toBeUndefined();
  });

  it("unknown names in the environment are ignored (the environment is full of other programs' settings)", () => {
    const r = repoWith({ team: 'PROJECT_KEY=ABC\n' });
    expect(loadConfig({ cwd: r.root, env: { WORKTREE_DIR: '/x', PATH: '/bin' } }).warnings).toEqual([]);
  });
});

describe('ARCHITECTURE §10: each setting belongs to one file', () => {
  it('a team setting in the local file is used but warned about', () => {
    const r = repoWith({ local: 'PROJECT_KEY=ABC\n' });
    const config = loadConfig({ cwd: r.root, env: {} });
    expect(config.projectKey).toBe('ABC');
    expect(config.warnings).toEqual([expect.objectContaining({ code: 'WRONG_FILE', setting: 'PROJECT_KEY', file: r.localFile, line: 1 })]);
    expect(config.warnings[0]?.message).toContain('team.env');
  });

  it('the value in the right file wins over a misplaced one', () => {
    const r = repoWith({ team: 'PROJECT_KEY=ABC\n', local: 'PROJECT_KEY=XYZ\n' });
    expect(loadConfig({ cwd: r.root, env: {} }).projectKey).toBe('ABC');
  });

  it('a token in the committed team file is a problem, not only a warning', () => {
    const r = repoWith({ team: 'TRACKER_ASSIGNER_TOKEN=tok-in-team-5521\n' });
    const config = loadConfig({ cwd: r.root, env: {} });
    expect(config.warnings[0]?.code).toBe('WRONG_FILE');
    const problem = validateConfig(config).find((p) => p.code === 'CONFIG_SECRET_IN_TEAM_FILE');
    expect(problem).toMatchObject({ setting: 'TRACKER_ASSIGNER_TOKEN', file: r.teamFile, line: 1 });
    expect(problem?.fix).toMatch(/revoke/);
  });

  it('a setting written twice in one file is warned about; the later line wins', () => {
    const r = repoWith({ team: 'PROJECT_KEY=ABC\nPROJECT_KEY=DEF\n' });
    const config = loadConfig({ cwd: r.root, env: {} });
    expect(config.projectKey).toBe('DEF');
    expect(config.warnings).toEqual([expect.objectContaining({ code: 'DUPLICATE_SETTING', line: 2 })]);
  });
});

describe('ARCHITECTURE §10: the process environment overrides both files', () => {
  it('an environment value replaces the file value and is recorded as from the environment', () => {
    const r = repoWith({ team: 'PROJECT_KEY=ABC\n', local: 'WORKTREES_DIR=/from/file\n' });
    const config = loadConfig({ cwd: r.root, env: { PROJECT_KEY: 'ENV', WORKTREES_DIR: '/from/env' } });
    expect(config.projectKey).toBe('ENV');
    expect(config.worktreesDir).toBe('/from/env');
    expect(config.settings.PROJECT_KEY?.source).toEqual({ kind: 'environment' });
    expect(describeSource(config.settings.PROJECT_KEY?.source ?? { kind: 'default' })).toBe('the environment');
  });

  it('an environment value fills a setting no file has', () => {
    const r = repoWith({});
    expect(loadConfig({ cwd: r.root, env: { PRODUCTION_BRANCH: 'release' } }).productionBranch).toBe('release');
  });

  it('ARCHITECTURE §10: the process environment overrides both files, also with an empty value', () => {
    const r = repoWith({
      team: 'PROJECT_KEY=ABC\nPRODUCTION_BRANCH=main\nDEFAULT_BASE_BRANCH=trunk\n',
      local: 'TRACKER_EXECUTOR_EMAIL=e@x.test\nTRACKER_EXECUTOR_TOKEN=tok-from-file\nTRACKER_GATEWAY_URL=http://127.0.0.1:9\n',
    });
    const config = loadConfig({
      cwd: r.root,
      env: { PROJECT_KEY: '', PRODUCTION_BRANCH: '', DEFAULT_BASE_BRANCH: '', TRACKER_EXECUTOR_TOKEN: '', TRACKER_GATEWAY_URL: '' },
    });
    // An empty value means what it means in a file: unset, or the run-time default.
    expect(config.projectKey).toBeNull();
    expect(config.productionBranch).toBeNull();
    expect(displayProductionBranch(config)).toBe('unset');
    expect(config.defaultBaseBranch).toBe('development');
    expect(config.gatewayUrl).toBe('https://api.atlassian.com');
    expect(config.settings.TRACKER_EXECUTOR_TOKEN).toBeUndefined();
    expect(config.emptied).toMatchObject({
      PROJECT_KEY: { kind: 'environment' },
      PRODUCTION_BRANCH: { kind: 'environment' },
      TRACKER_EXECUTOR_TOKEN: { kind: 'environment' },
    });
    // The file's values are untouched where the environment says nothing.
    expect(config.settings.TRACKER_EXECUTOR_EMAIL?.value).toBe('e@x.test');
    expect(redact('tok-from-file', configSecrets(config))).toBe('tok-from-file');
  });

  it('an empty required credential in the environment is the missing error, naming the setting and the environment', () => {
    const r = repoWith({ local: 'TRACKER_EXECUTOR_EMAIL=e@x.test\nTRACKER_EXECUTOR_TOKEN=tok-from-file\n' });
    const config = loadConfig({ cwd: r.root, env: { TRACKER_EXECUTOR_TOKEN: '' } });
    const problems = checkRoleCredentials(config, 'executor');
    expect(problems).toEqual([expect.objectContaining({ code: 'CONFIG_MISSING', setting: 'TRACKER_EXECUTOR_TOKEN', file: null })]);
    expect(problems[0]?.message).toBe(`TRACKER_EXECUTOR_TOKEN is set but empty in the environment, which overrides ${r.localFile}`);
    expect(problems[0]?.fix).toContain('unset TRACKER_EXECUTOR_TOKEN');
    let error: unknown;
    try {
      requireRoleCredentials(config, 'executor');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(JstError);
    expect((error as JstError).message).toContain('TRACKER_EXECUTOR_TOKEN is set but empty in the environment');
    expect((error as JstError).message).not.toContain('tok-from-file');
  });

  it('an empty value in a file still reads as not set there (the environment is not blamed)', () => {
    const r = repoWith({ local: 'TRACKER_EXECUTOR_EMAIL=e@x.test\nTRACKER_EXECUTOR_TOKEN=\n' });
    const config = loadConfig({ cwd: r.root, env: {} });
    expect(config.emptied.TRACKER_EXECUTOR_TOKEN).toMatchObject({ kind: 'file', file: r.localFile, line: 2 });
    const [problem] = checkRoleCredentials(config, 'executor');
    expect(problem).toMatchObject({ code: 'CONFIG_MISSING', setting: 'TRACKER_EXECUTOR_TOKEN', file: r.localFile });
    expect(problem?.message).toBe(`TRACKER_EXECUTOR_TOKEN is not set in ${r.localFile} nor in the environment`);
  });

  it('an empty PRODUCTION_BRANCH in the environment makes requireProductionBranch name the environment', () => {
    const r = repoWith({ team: 'PRODUCTION_BRANCH=main\n' });
    let error: unknown;
    try {
      requireProductionBranch(loadConfig({ cwd: r.root, env: { PRODUCTION_BRANCH: '' } }));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(JstError);
    expect((error as JstError).message).toContain('PRODUCTION_BRANCH is set but empty in the environment');
  });

  it('a bad value from the environment is reported as coming from the environment', () => {
    const r = repoWith({ local: 'WORKTREES_DIR=/abs\n' });
    const problem = validateConfig(loadConfig({ cwd: r.root, env: { WORKTREES_DIR: 'relative/dir' } })).find((p) => p.setting === 'WORKTREES_DIR');
    expect(problem).toMatchObject({ code: 'CONFIG_RELATIVE_PATH', file: null });
    expect(problem?.message).toContain('the environment');
  });
});

describe('a malformed line in a configuration file stops loading, naming file and line', () => {
  it('loadConfig throws a JstError (exit 2) with file:line', () => {
    const r = repoWith({ team: 'PROJECT_KEY=ABC\n\nDEFAULT_BASE_BRANCH development\n' });
    let error: unknown;
    try {
      loadConfig({ cwd: r.root, env: {} });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(JstError);
    expect(error).toMatchObject({ code: 'CONFIG_SYNTAX', exitCode: 2, file: r.teamFile, line: 3 });
    expect((error as JstError).message).toContain(`${r.teamFile}:3`);
  });
});

describe('ARCHITECTURE §4: TRACKER_GATEWAY_URL and CODEHOST_API_URL', () => {
  it('default to the vendor gateway and the code host API', () => {
    const config = loadConfig({ cwd: repoWith({}).root, env: {} });
    expect(config.gatewayUrl).toBe('https://api.atlassian.com');
    expect(config.codehostApiUrl).toBe('https://api.github.com');
  });

  it('point at a local jst-tracker over http on loopback', () => {
    const r = repoWith({ local: 'TRACKER_ACCOUNT_URL=127.0.0.1:8080\nTRACKER_GATEWAY_URL=http://127.0.0.1:8080/\n' });
    const config = loadConfig({ cwd: r.root, env: {} });
    expect(config.gatewayUrl).toBe('http://127.0.0.1:8080');
    expect(validateConfig(config).filter((p) => p.setting === 'TRACKER_GATEWAY_URL')).toEqual([]);
  });

  it('http to a host that is not loopback is refused (never downgraded)', () => {
    const r = repoWith({ local: 'TRACKER_GATEWAY_URL=http://gateway.example.com\nCODEHOST_API_URL=ftp://x\n' });
    const codes = validateConfig(loadConfig({ cwd: r.root, env: {} })).map((p) => [p.setting, p.code]);
    expect(codes).toContainEqual(['TRACKER_GATEWAY_URL', 'CONFIG_INSECURE_URL']);
    expect(codes).toContainEqual(['CODEHOST_API_URL', 'CONFIG_URL']);
  });
});
