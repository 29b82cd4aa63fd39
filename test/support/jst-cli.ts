import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EMAILS, TOKENS } from './seed.js';
import type { TestTracker } from './tracker.js';

export const JST_BIN = fileURLToPath(new URL('../../packages/jst/bin/jst.cjs', import.meta.url));

/** One V8 code-cache folder for every run of this test process (HOME is each test's own folder). */
export const JST_TEST_CACHE = join(tmpdir(), `jst-test-compile-cache-${process.getuid?.() ?? 'user'}`);

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the built jst CLI as a child process, as a user would (no TTY). */
export function runJst(args: string[], opts: { cwd: string; env?: Record<string, string>; input?: string }): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [JST_BIN, ...args], {
      cwd: opts.cwd,
      env: { PATH: process.env.PATH ?? '', HOME: opts.cwd, XDG_CACHE_HOME: JST_TEST_CACHE, NO_COLOR: '1', ...opts.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      stdout += c;
    });
    child.stderr.setEncoding('utf8').on('data', (c: string) => {
      stderr += c;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(opts.input ?? '');
  });
}

/** The `.jst/` files for a test tracker: the three roles of the test seed, project ABC. */
export function jstFiles(t: TestTracker, overrides: { team?: Record<string, string>; local?: Record<string, string> } = {}) {
  const host = new URL(t.url).host;
  const team: Record<string, string> = {
    DEFAULT_BASE_BRANCH: 'development',
    PRODUCTION_BRANCH: 'main',
    PROJECT_KEY: 'ABC',
    STATUS_TODO: 'To Do',
    STATUS_IN_PROGRESS: 'In Progress',
    STATUS_IN_REVIEW: 'In Review',
    STATUS_DONE: 'Done',
    ...overrides.team,
  };
  const local: Record<string, string> = {
    TRACKER_ACCOUNT_URL: host,
    TRACKER_GATEWAY_URL: t.url,
    WORKTREES_DIR: '/tmp',
    TRACKER_ASSIGNER_EMAIL: EMAILS.assigner,
    TRACKER_ASSIGNER_TOKEN: TOKENS.assigner,
    TRACKER_EXECUTOR_EMAIL: EMAILS.executor,
    TRACKER_EXECUTOR_TOKEN: TOKENS.executor,
    TRACKER_REVIEWER_EMAIL: EMAILS.reviewer,
    TRACKER_REVIEWER_TOKEN: TOKENS.reviewer,
    CODEHOST_PAT_TOKEN: 'ghp_test_not_real_000',
    ...overrides.local,
  };
  return { team, local };
}

/** A folder (not a git repository) holding `.jst/` for the tracker; returns its path. */
export function jstFolder(t: TestTracker, overrides: Parameters<typeof jstFiles>[1] = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'jst-cli-'));
  const { team, local } = jstFiles(t, overrides);
  const text = (o: Record<string, string>) =>
    Object.entries(o)
      .map(([k, v]) => `${k}=${v}`)
      .join('\n') + '\n';
  mkdirSync(join(dir, '.jst'));
  writeFileSync(join(dir, '.jst', 'team.env'), text(team));
  writeFileSync(join(dir, '.jst', 'local.env'), text(local), { mode: 0o600 });
  writeFileSync(join(dir, '.jst', '.gitignore'), 'local.env\ncloud-id.json\n');
  return dir;
}
