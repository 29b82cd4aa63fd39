import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  JstError,
  ROLES,
  displayProductionBranch,
  loadConfig,
  readWorktreesDir,
  requireBranchPair,
  requireCodehostToken,
  requireProductionBranch,
  requireProjectKey,
  requireRoleCredentials,
  requireRoleEmail,
  requireWorktreesDir,
  roleSettings,
  siteUrl,
  validateConfig,
  type JstConfig,
} from '../src/config/index.js';

// Distinctive fake secrets, so a leak into any message is easy to detect.
const TOKENS = {
  TRACKER_ASSIGNER_TOKEN: 'tok-assigner-7f3a9c',
  TRACKER_EXECUTOR_TOKEN: 'tok-executor-b81d20',
  TRACKER_REVIEWER_TOKEN: 'tok-reviewer-44e6f1',
  CODEHOST_PAT_TOKEN: 'github_pat_0c9e5d77',
} as const;

const TEAM = [
  'DEFAULT_BASE_BRANCH=development',
  'PRODUCTION_BRANCH=main',
  'PROJECT_KEY=ABC',
  "STATUS_TODO='To Do'",
  'STATUS_IN_PROGRESS=In Progress',
  'STATUS_IN_REVIEW=In Review',
  'STATUS_DONE=Done',
];

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
});

function localLines(root: string): string[] {
  return [
    `WORKTREES_DIR=${path.join(root, 'worktrees')}`,
    'TRACKER_ACCOUNT_URL=acme.atlassian.net',
    'TRACKER_ASSIGNER_EMAIL=assigner@acme.test',
    `TRACKER_ASSIGNER_TOKEN=${TOKENS.TRACKER_ASSIGNER_TOKEN}`,
    'TRACKER_EXECUTOR_EMAIL=executor@acme.test',
    `TRACKER_EXECUTOR_TOKEN=${TOKENS.TRACKER_EXECUTOR_TOKEN}`,
    'TRACKER_REVIEWER_EMAIL=reviewer@acme.test',
    `TRACKER_REVIEWER_TOKEN=${TOKENS.TRACKER_REVIEWER_TOKEN}`,
    `CODEHOST_PAT_TOKEN=${TOKENS.CODEHOST_PAT_TOKEN}`,
  ];
}

interface Project {
  root: string;
  teamFile: string;
  localFile: string;
  load(env?: Record<string, string>): JstConfig;
}

/**
 * A real git repository with `.jst/`. `edit` receives the default lines of each file and returns
 * the lines to write; returning null leaves that file out.
 */
function project(edit: { team?: (lines: string[]) => string[] | null; local?: (lines: string[]) => string[] | null } = {}): Project {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'jst-config-')));
  roots.push(root);
  execFileSync('git', ['init', '--quiet', root], { env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null' } });
  fs.mkdirSync(path.join(root, 'worktrees'));
  fs.mkdirSync(path.join(root, '.jst'));
  const teamFile = path.join(root, '.jst', 'team.env');
  const localFile = path.join(root, '.jst', 'local.env');
  const team = (edit.team ?? ((l) => l))([...TEAM]);
  const local = (edit.local ?? ((l) => l))(localLines(root));
  if (team !== null) fs.writeFileSync(teamFile, `${team.join('\n')}\n`);
  if (local !== null) fs.writeFileSync(localFile, `${local.join('\n')}\n`, { mode: 0o600 });
  return { root, teamFile, localFile, load: (env = {}) => loadConfig({ cwd: root, env }) };
}

const without = (name: string) => (lines: string[]) => lines.filter((l) => !l.startsWith(`${name}=`));
const replacing = (name: string, line: string) => (lines: string[]) => [...without(name)(lines), line];

function thrown(fn: () => unknown): JstError {
  try {
    fn();
  } catch (error) {
    if (error instanceof JstError) return error;
    throw error;
  }
  throw new Error('expected a JstError');
}

describe('spec §2: toolkit configuration read from .jst/team.env and .jst/local.env', () => {
  it('a complete configuration has no problems and no warnings', () => {
    const config = project().load();
    expect(validateConfig(config)).toEqual([]);
    expect(config.warnings).toEqual([]);
    expect(config.projectKey).toBe('ABC');
    expect(config.trackerHost).toBe('acme.atlassian.net');
    expect(config.gatewayUrl).toBe('https://api.atlassian.com');
    expect(config.codehostApiUrl).toBe('https://api.github.com');
  });

  it('records where each value came from (file and line)', () => {
    const p = project();
    const config = p.load();
    expect(config.settings.PROJECT_KEY?.source).toEqual({ kind: 'file', file: p.teamFile, line: 3 });
    expect(config.settings.TRACKER_ACCOUNT_URL?.source).toEqual({ kind: 'file', file: p.localFile, line: 2 });
  });

  it('works without any .jst/ folder: loading does not throw, validation names the missing folder', () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'jst-config-')));
    roots.push(root);
    fs.mkdirSync(path.join(root, '.git'));
    const config = loadConfig({ cwd: root, env: {} });
    expect(config.jstDir).toBeNull();
    expect(config.files.local).toBe(path.join(root, '.jst', 'local.env'));
    const problems = validateConfig(config);
    expect(problems[0]?.code).toBe('CONFIG_NOT_FOUND');
    expect(problems.some((p) => p.setting === 'TRACKER_ASSIGNER_TOKEN')).toBe(true);
  });
});

describe('spec §2: all six credential values are required', () => {
  const credentialNames = ROLES.flatMap((role) => {
    const names = roleSettings(role);
    return [
      { role, name: names.email },
      { role, name: names.token },
    ];
  });

  it.each(credentialNames)('missing $name is refused for role $role, naming setting and file (exit 2)', ({ role, name }) => {
    const p = project({ local: without(name) });
    const config = p.load();
    expect(validateConfig(config)).toEqual([expect.objectContaining({ code: 'CONFIG_MISSING', setting: name, file: p.localFile })]);
    const error = thrown(() => requireRoleCredentials(config, role));
    expect(error.exitCode).toBe(2);
    expect(error.setting).toBe(name);
    expect(error.file).toBe(p.localFile);
    expect(error.message).toContain(name);
    expect(error.message).toContain(p.localFile);
  });

  it('there is no default pair: a missing executor pair is not filled from another role', () => {
    const config = project({ local: (l) => without('TRACKER_EXECUTOR_TOKEN')(without('TRACKER_EXECUTOR_EMAIL')(l)) }).load();
    expect(requireRoleCredentials(config, 'assigner')).toEqual({ email: 'assigner@acme.test', token: TOKENS.TRACKER_ASSIGNER_TOKEN });
    expect(() => requireRoleCredentials(config, 'executor')).toThrow(/TRACKER_EXECUTOR_EMAIL/);
  });

  it('the same account may serve all three roles', () => {
    const same = (lines: string[]) =>
      lines.map((l) => l.replace(/^(TRACKER_\w+_EMAIL)=.*/, '$1=me@acme.test').replace(/^(TRACKER_\w+_TOKEN)=.*/, '$1=tok-shared-1234'));
    const config = project({ local: same }).load();
    expect(validateConfig(config)).toEqual([]);
    for (const role of ROLES) expect(requireRoleCredentials(config, role)).toEqual({ email: 'me@acme.test', token: 'tok-shared-1234' });
  });

  it('the executor e-mail is available from local configuration alone (spec §1 rule 9)', () => {
    const config = project({ local: without('TRACKER_EXECUTOR_TOKEN') }).load();
    expect(requireRoleEmail(config, 'executor')).toBe('executor@acme.test');
  });
});

describe('spec §2: a token setting holds the token value, not a file path', () => {
  it.each(['/home/me/.secrets/jira-token', './token.txt', '../token.txt', '~/jira.token', 'C:\\Users\\me\\token.txt', 'D:/tokens/jira.txt'])(
    'refuses %j with a hint to paste the token itself',
    (value) => {
      const p = project({ local: replacing('TRACKER_REVIEWER_TOKEN', `TRACKER_REVIEWER_TOKEN='${value}'`) });
      const config = p.load();
      expect(validateConfig(config)).toEqual([
        expect.objectContaining({ code: 'CONFIG_TOKEN_IS_PATH', setting: 'TRACKER_REVIEWER_TOKEN', file: p.localFile, line: 9 }),
      ]);
      const error = thrown(() => requireRoleCredentials(config, 'reviewer'));
      expect(error.message).toMatch(/paste the token value itself/i);
      expect(error.message).toContain(`${p.localFile}:9`);
    },
  );

  it('refuses a value that names an existing file', () => {
    const p = project({ local: replacing('CODEHOST_PAT_TOKEN', 'CODEHOST_PAT_TOKEN=pat.txt') });
    fs.writeFileSync(path.join(p.root, 'pat.txt'), 'github_pat_x');
    const error = thrown(() => requireCodehostToken(p.load(), 'executor'));
    expect(error.code).toBe('CONFIG_TOKEN_IS_PATH');
    expect(error.setting).toBe('CODEHOST_PAT_TOKEN');
  });
});

describe('spec §2: WORKTREES_DIR is an absolute path, never relative', () => {
  it('a relative path is an error naming file and setting; the lenient reader still reports it', () => {
    const p = project({ local: replacing('WORKTREES_DIR', 'WORKTREES_DIR=../worktrees') });
    const config = p.load();
    expect(readWorktreesDir(config)).toMatchObject({ status: 'relative', raw: '../worktrees' });
    expect(validateConfig(config)).toEqual([expect.objectContaining({ code: 'CONFIG_RELATIVE_PATH', setting: 'WORKTREES_DIR', file: p.localFile })]);
    const error = thrown(() => requireWorktreesDir(config));
    expect(error.exitCode).toBe(2);
    expect(error.message).toContain('WORKTREES_DIR');
    expect(error.message).toContain(`${p.localFile}:9`);
    expect(error.message).toMatch(/absolute/);
  });

  it('an absolute folder that does not exist yet is accepted by the config check and read as missing', () => {
    const p = project({ local: replacing('WORKTREES_DIR', 'WORKTREES_DIR=/nonexistent/jst/worktrees') });
    const config = p.load();
    expect(validateConfig(config)).toEqual([]);
    expect(readWorktreesDir(config).status).toBe('missing');
    expect(requireWorktreesDir(config)).toBe('/nonexistent/jst/worktrees');
  });

  it('an existing absolute folder reads ok', () => {
    const p = project();
    expect(readWorktreesDir(p.load()).status).toBe('ok');
  });
});

describe('spec §2: PROJECT_KEY is a project key by the rule the tracker holds its projects to (@jst/protocol)', () => {
  it.each(['A', 'abc', 'ABCDEFGHIJK', '1AB', 'ABC-1'])('PROJECT_KEY=%s is an error naming the setting and the team file (exit 2)', (key) => {
    const p = project({ team: replacing('PROJECT_KEY', `PROJECT_KEY=${key}`) });
    const config = p.load();
    expect(validateConfig(config)).toEqual([expect.objectContaining({ code: 'CONFIG_PROJECT_KEY', setting: 'PROJECT_KEY', file: p.teamFile })]);
    const error = thrown(() => requireProjectKey(config));
    expect(error.exitCode).toBe(2);
    expect(error.message).toContain(`"${key}" is not a project key`);
    expect(error.message).toContain(p.teamFile);
  });

  it('two to ten capitals, digits or _ after a capital are accepted', () => {
    for (const key of ['AB', 'A_1', 'ABCDEFGHIJ'])
      expect(requireProjectKey(project({ team: replacing('PROJECT_KEY', `PROJECT_KEY=${key}`) }).load())).toBe(key);
  });
});

describe('spec §2: PRODUCTION_BRANCH must differ from the base branch', () => {
  it('base == production is an error naming the team file', () => {
    const p = project({ team: replacing('PRODUCTION_BRANCH', 'PRODUCTION_BRANCH=development') });
    const config = p.load();
    expect(validateConfig(config)).toEqual([expect.objectContaining({ code: 'CONFIG_BRANCH_PAIR', setting: 'PRODUCTION_BRANCH', file: p.teamFile })]);
    const error = thrown(() => requireBranchPair(config));
    expect(error.exitCode).toBe(2);
    expect(error.message).toContain(p.teamFile);
  });

  it('also when the base comes from its default', () => {
    const config = project({ team: (l) => replacing('PRODUCTION_BRANCH', 'PRODUCTION_BRANCH=development')(without('DEFAULT_BASE_BRANCH')(l)) }).load();
    expect(() => requireBranchPair(config)).toThrow(/must differ/);
  });
});

describe('ARCHITECTURE §10: missing branch settings', () => {
  it('a missing PRODUCTION_BRANCH reads unset (never an invented name)', () => {
    const config = project({ team: without('PRODUCTION_BRANCH') }).load();
    expect(config.productionBranch).toBeNull();
    expect(displayProductionBranch(config)).toBe('unset');
    expect(validateConfig(config)).toEqual([]);
    expect(requireBranchPair(config)).toEqual({ base: 'development', production: null });
    expect(() => requireProductionBranch(config)).toThrow(/PRODUCTION_BRANCH/);
  });

  it('a missing DEFAULT_BASE_BRANCH reads development', () => {
    const config = project({ team: without('DEFAULT_BASE_BRANCH') }).load();
    expect(config.defaultBaseBranch).toBe('development');
    expect(config.settings.DEFAULT_BASE_BRANCH).toBeUndefined();
  });
});

describe('spec §2: TRACKER_ACCOUNT_URL is a site host; a scheme prefix is stripped', () => {
  it.each([
    ['https://acme.atlassian.net', 'acme.atlassian.net', 'https://acme.atlassian.net'],
    ['https://acme.atlassian.net/', 'acme.atlassian.net', 'https://acme.atlassian.net'],
    ['http://acme.atlassian.net/jira/software/projects', 'acme.atlassian.net', 'https://acme.atlassian.net'],
    ['acme.atlassian.net', 'acme.atlassian.net', 'https://acme.atlassian.net'],
    ['http://127.0.0.1:8080/', '127.0.0.1:8080', 'http://127.0.0.1:8080'],
    ['localhost:3000', 'localhost:3000', 'http://localhost:3000'],
  ])('%j → host %j, site %j', (raw, host, site) => {
    const config = project({ local: replacing('TRACKER_ACCOUNT_URL', `TRACKER_ACCOUNT_URL=${raw}`) }).load();
    expect(config.trackerHost).toBe(host);
    expect(siteUrl(config)).toBe(site);
  });
});

describe('spec §2: status names are matched literally', () => {
  it('keeps case and inner spacing exactly as written', () => {
    const config = project({
      team: (l) => replacing('STATUS_IN_REVIEW', 'STATUS_IN_REVIEW="In  review"')(replacing('STATUS_IN_PROGRESS', 'STATUS_IN_PROGRESS=In progress')(l)),
    }).load();
    expect(config.statuses.inProgress).toBe('In progress');
    expect(config.statuses.inReview).toBe('In  review');
  });

  it('missing status names take the Kanban defaults', () => {
    const config = project({ team: (l) => l.filter((x) => !x.startsWith('STATUS_')) }).load();
    expect(config.statuses).toEqual({ todo: 'To Do', inProgress: 'In Progress', inReview: 'In Review', done: 'Done' });
  });
});
