import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CODEHOST_TOKEN, EMAILS, TOKENS } from './seed.js';

export { CODEHOST_TOKEN } from './seed.js';

/**
 * Git for fixtures: no user or system configuration may leak in (a global hook, signing or
 * `init.defaultBranch` would change what the tests see), and no prompt may ever block.
 */
export const FIXTURE_GIT_ENV: NodeJS.ProcessEnv = {
  ...process.env,
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_TERMINAL_PROMPT: '0',
  LC_ALL: 'C',
};

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: FIXTURE_GIT_ENV, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/**
 * `git` without blocking this process: for a fetch or push to a test tracker's code host, which
 * answers from this same process (the synchronous `git` would wait on it forever).
 */
export function gitAsync(cwd: string, ...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd, env: FIXTURE_GIT_ENV, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error) reject(new Error(`git ${args.join(' ')} failed: ${stderr || error.message}`));
      else resolve(stdout.trim());
    });
  });
}

export interface TestRepo {
  /** The temporary folder holding everything below. */
  root: string;
  /**
   * The bare repository `origin` points at: `<root>/origin.git`, or for a repository on the code
   * host its bare repository in the server's folder (read it; change it only through git or REST).
   */
  origin: string;
  /** The clone, checked out on the first branch (`<root>/repo`). */
  repo: string;
  /** An existing empty folder for WORKTREES_DIR (`<root>/worktrees`). */
  worktreesDir: string;
  git(...args: string[]): string;
  cleanup(): void;
}

export interface MakeRepoOptions {
  /** Created in this order from one initial commit and pushed; the first is checked out. */
  branches?: string[];
  /**
   * The URL `origin` shows (`remote.origin.url`), e.g. `https://github.com/acme/widgets.git`.
   * Fetch and push still reach the bare repository through `url.<bare>.insteadOf`.
   */
  originUrl?: string;
  /**
   * origin ON jst-tracker's code host (ARCHITECTURE §14): `gitUrl` is
   * `http://127.0.0.1:PORT/<owner>/<repo>.git`, `bare` its bare repository on disk (see
   * embedded-codehost.ts). Fetch and push go over git's smart HTTP with `token` (default
   * CODEHOST_TOKEN) as the password, through git's own credential mechanism: a `credential.helper`
   * of `store --file <root>/git-credentials` (mode 0600) in the repository's config, never the
   * token in the remote URL. The long-lived branches are force-written into `bare` (the code
   * host's repository outlives one test's clone), with origin's remote-tracking refs and upstreams
   * as a push would leave them.
   */
  codehost?: { gitUrl: string; bare: string; token?: string };
}

/**
 * The fixture's first commit and branches, made once per test process and kind and copied for each
 * repository: `<dir>/repo` (and for `withOrigin`, `<dir>/origin.git` with the branches pushed and
 * upstreams set). A copy of a repository is a whole repository; making each one anew took ~15 git
 * processes (two inits, three settings, the commit, the branches, a push), a noticeable part of the
 * suite where a process start costs 10–30 ms. Every repository of a process starts from the same
 * commit, which is what the tests assume of the long-lived branches anyway.
 */
const templates = new Map<string, string>();

function template(branches: string[], withOrigin: boolean): string {
  const key = `${withOrigin ? 'origin' : 'alone'}\n${branches.join('\n')}`;
  const made = templates.get(key);
  if (made !== undefined && fs.existsSync(made)) return made;
  const first = branches[0] ?? 'development';
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'jst-repo-template-')));
  if (templates.size === 0) process.once('exit', () => templates.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
  const repo = path.join(dir, 'repo');
  git(dir, 'init', '--quiet', `--initial-branch=${first}`, repo);
  git(repo, 'config', 'user.name', 'Test User');
  git(repo, 'config', 'user.email', 'test@example.test');
  git(repo, 'config', 'commit.gpgsign', 'false');
  fs.writeFileSync(path.join(repo, 'README.md'), '# fixture\n');
  git(repo, 'add', 'README.md');
  git(repo, 'commit', '--quiet', '-m', 'initial commit');
  for (const branch of branches.slice(1)) git(repo, 'branch', branch);
  if (withOrigin) {
    const origin = path.join(dir, 'origin.git');
    git(dir, 'init', '--quiet', '--bare', `--initial-branch=${first}`, origin);
    git(repo, 'remote', 'add', 'origin', origin);
    git(repo, 'push', '--quiet', '-u', 'origin', ...branches);
  }
  templates.set(key, dir);
  return dir;
}

/** Branch names the fixture writes into a config section as they are (`[branch "name"]`). */
const PLAIN_BRANCH = /^[A-Za-z0-9._/-]+$/;

/** A real repository with a bare `origin` and the long-lived branches pushed (ARCHITECTURE §9). */
export function makeRepo(options: MakeRepoOptions = {}): TestRepo {
  const branches = options.branches ?? ['development', 'main'];
  for (const b of branches) if (!PLAIN_BRANCH.test(b)) throw new Error(`makeRepo: branch "${b}" must match ${PLAIN_BRANCH}`);
  // realpath: on macOS the temp folder is a symlink, and git reports resolved paths.
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'jst-repo-')));
  const origin = options.codehost?.bare ?? path.join(root, 'origin.git');
  const repo = path.join(root, 'repo');
  const worktreesDir = path.join(root, 'worktrees');
  fs.mkdirSync(worktreesDir);
  const from = template(branches, !options.codehost);
  fs.cpSync(path.join(from, 'repo'), repo, { recursive: true });
  const config = path.join(repo, '.git', 'config');
  if (options.codehost) {
    // Seeded straight into the code host's bare repository, as a server-side import: a test
    // tracker runs in this process, so a synchronous git talking HTTP to it would wait on itself.
    // Everything after this (jst's pushes and fetches, gitAsync) goes over HTTP with the credential.
    git(repo, 'push', '--quiet', '--force', options.codehost.bare, ...branches);
    // origin, its remote-tracking refs and the upstreams, as a push -u over HTTP would leave them.
    const gitUrl = options.codehost.gitUrl;
    fs.appendFileSync(
      config,
      `[remote "origin"]\n\turl = ${gitUrl}\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n` +
        branches.map((b) => `[branch "${b}"]\n\tremote = origin\n\tmerge = refs/heads/${b}\n`).join(''),
    );
    execFileSync('git', ['update-ref', '--stdin'], {
      cwd: repo,
      env: FIXTURE_GIT_ENV,
      input: branches.map((b) => `update refs/remotes/origin/${b} refs/heads/${b}\n`).join(''),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    useCodehostCredential(repo, root, gitUrl, options.codehost.token ?? CODEHOST_TOKEN);
  } else {
    fs.cpSync(path.join(from, 'origin.git'), origin, { recursive: true });
    // The copy's origin is the template's: point it at this repository's own.
    const text = fs.readFileSync(config, 'utf8');
    const templateOrigin = `\turl = ${path.join(from, 'origin.git')}\n`;
    if (!text.includes(templateOrigin)) throw new Error(`makeRepo: no "${templateOrigin.trim()}" in the template's ${config}`);
    fs.writeFileSync(
      config,
      text.replace(templateOrigin, () => `\turl = ${origin}\n`),
    );
  }
  if (options.originUrl !== undefined) {
    git(repo, 'remote', 'set-url', 'origin', options.originUrl);
    git(repo, 'config', `url.${origin}.insteadOf`, options.originUrl);
  }
  return {
    root,
    origin,
    repo,
    worktreesDir,
    git: (...args) => git(repo, ...args),
    cleanup: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}

/**
 * Lets git in `repo` (and its worktrees, which share its config) authenticate to the code host at
 * `gitUrl` with `token` as the password (any user name; ARCHITECTURE §14): git's `store` credential
 * helper reading `<dir>/git-credentials`, written with mode 0600.
 */
export function useCodehostCredential(repo: string, dir: string, gitUrl: string, token: string): string {
  const u = new URL(gitUrl);
  const file = path.join(dir, 'git-credentials');
  fs.writeFileSync(file, `${u.protocol}//x-access-token:${encodeURIComponent(token)}@${u.host}\n`, { mode: 0o600 });
  git(repo, 'config', 'credential.helper', `store --file=${file}`);
  return file;
}

export interface JstFilesOptions {
  /** `TRACKER_ACCOUNT_URL` becomes its host:port, `TRACKER_GATEWAY_URL` the URL itself. */
  trackerUrl: string;
  /** `CODEHOST_API_URL`; omitted = the line is left out (default https://api.github.com applies). */
  codehostUrl?: string;
  codehostToken?: string;
  worktreesDir: string;
  /** Edit the default lines; return null to leave the file out. */
  team?: (lines: string[]) => string[] | null;
  local?: (lines: string[]) => string[] | null;
  /** Content of `.jst/.gitignore`; null leaves it out. */
  gitignore?: string | null;
}

export interface JstFiles {
  dir: string;
  team: string;
  local: string;
  gitignore: string;
}

export const TEAM_LINES = [
  'DEFAULT_BASE_BRANCH=development',
  'PRODUCTION_BRANCH=main',
  'PROJECT_KEY=ABC',
  'STATUS_TODO=To Do',
  'STATUS_IN_PROGRESS=In Progress',
  'STATUS_IN_REVIEW=In Review',
  'STATUS_DONE=Done',
];

/** Writes `.jst/team.env`, `.jst/local.env` (mode 0600) and `.jst/.gitignore` for a local tracker. */
export function writeJstFiles(checkout: string, o: JstFilesOptions): JstFiles {
  const dir = path.join(checkout, '.jst');
  fs.mkdirSync(dir, { recursive: true });
  const files = { dir, team: path.join(dir, 'team.env'), local: path.join(dir, 'local.env'), gitignore: path.join(dir, '.gitignore') };
  const local = [
    `WORKTREES_DIR=${o.worktreesDir}`,
    `TRACKER_ACCOUNT_URL=${new URL(o.trackerUrl).host}`,
    `TRACKER_GATEWAY_URL=${o.trackerUrl}`,
    `TRACKER_ASSIGNER_EMAIL=${EMAILS.assigner}`,
    `TRACKER_ASSIGNER_TOKEN=${TOKENS.assigner}`,
    `TRACKER_EXECUTOR_EMAIL=${EMAILS.executor}`,
    `TRACKER_EXECUTOR_TOKEN=${TOKENS.executor}`,
    `TRACKER_REVIEWER_EMAIL=${EMAILS.reviewer}`,
    `TRACKER_REVIEWER_TOKEN=${TOKENS.reviewer}`,
    `CODEHOST_PAT_TOKEN=${o.codehostToken ?? CODEHOST_TOKEN}`,
    ...(o.codehostUrl === undefined ? [] : [`CODEHOST_API_URL=${o.codehostUrl}`]),
  ];
  write(files.team, (o.team ?? same)([...TEAM_LINES]));
  write(files.local, (o.local ?? same)(local), 0o600);
  const ignore = o.gitignore === undefined ? 'local.env\ncloud-id.json\nplan-journal*\n' : o.gitignore;
  if (ignore !== null) fs.writeFileSync(files.gitignore, ignore);
  return files;
}

const same = (lines: string[]) => lines;

function write(file: string, lines: string[] | null, mode?: number): void {
  fs.rmSync(file, { force: true });
  if (lines !== null) fs.writeFileSync(file, `${lines.join('\n')}\n`, mode === undefined ? {} : { mode });
}

/** Line editors for `writeJstFiles`' `team` / `local` callbacks. */
export const without = (name: string) => (lines: string[]) => lines.filter((l) => !l.startsWith(`${name}=`));
export const setting = (name: string, value: string) => (lines: string[]) => [...without(name)(lines), `${name}=${value}`];

/** Copies `.jst/` into a worktree, as the plan does for every worktree it creates (spec §2). */
export function copyJstDir(fromCheckout: string, toCheckout: string): void {
  fs.cpSync(path.join(fromCheckout, '.jst'), path.join(toCheckout, '.jst'), { recursive: true });
}
