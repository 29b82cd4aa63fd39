import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jstFolder, runJst } from '../support/jst-cli.js';
import { git } from '../support/repo.js';
import { startTestTracker, type TestTracker } from '../support/tracker.js';

describe('jst init (ARCHITECTURE §10)', () => {
  const flags = (wt: string) => [
    'init',
    '--project-key',
    'ABC',
    '--site',
    'https://acme.atlassian.net/',
    '--worktrees-dir',
    wt,
    '--assigner-email',
    'a@acme.test',
    '--executor-email',
    'e@acme.test',
    '--reviewer-email',
    'r@acme.test',
  ];
  const repo = () => {
    const d = mkdtempSync(join(tmpdir(), 'jst-init-'));
    git(d, 'init', '-q');
    return d;
  };

  it('writes team.env, local.env (0600) and .gitignore from flags, tokens from the environment', async () => {
    const d = repo();
    const r = await runJst(flags('/srv/worktrees'), {
      cwd: d,
      env: { TRACKER_ASSIGNER_TOKEN: 'tok-a-123', TRACKER_EXECUTOR_TOKEN: 'tok-e-123', TRACKER_REVIEWER_TOKEN: 'tok-r-123', CODEHOST_PAT_TOKEN: 'gh-123' },
    });
    expect(r.code, r.stderr).toBe(0);
    const team = readFileSync(join(d, '.jst', 'team.env'), 'utf8');
    for (const line of ['DEFAULT_BASE_BRANCH=development', 'PRODUCTION_BRANCH=main', 'PROJECT_KEY=ABC', "STATUS_TODO='To Do'", 'STATUS_DONE=Done'])
      expect(team).toContain(line);
    const local = readFileSync(join(d, '.jst', 'local.env'), 'utf8');
    expect(local).toContain('TRACKER_ASSIGNER_TOKEN=tok-a-123');
    expect(local).toContain('WORKTREES_DIR=/srv/worktrees');
    expect(statSync(join(d, '.jst', 'local.env')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(d, '.jst', '.gitignore'), 'utf8')).toContain('local.env');
    // git ignores local.env, and the tokens are never printed.
    expect(git(d, 'status', '--porcelain', '--untracked-files=all')).not.toContain('local.env');
    expect(r.stdout + r.stderr).not.toContain('tok-a-123');
  });

  it('never overwrites an existing file without --force', async () => {
    const d = repo();
    expect((await runJst(flags('/srv/w'), { cwd: d })).code).toBe(0);
    writeFileSync(join(d, '.jst', 'team.env'), 'PROJECT_KEY=KEEP\n');
    const again = await runJst(flags('/srv/w'), { cwd: d });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/already exist.*--force/);
    expect(readFileSync(join(d, '.jst', 'team.env'), 'utf8')).toBe('PROJECT_KEY=KEEP\n');
    expect((await runJst([...flags('/srv/w'), '--force'], { cwd: d })).code).toBe(0);
    expect(readFileSync(join(d, '.jst', 'team.env'), 'utf8')).toContain('PROJECT_KEY=ABC');
  });

  it('refuses a relative WORKTREES_DIR and a token that is a file path, writing nothing', async () => {
    const d = repo();
    expect((await runJst(flags('relative/dir'), { cwd: d })).code).toBe(2);
    const r = await runJst(flags('/srv/w'), { cwd: d, env: { TRACKER_ASSIGNER_TOKEN: '/home/me/token.txt' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/TRACKER_ASSIGNER_TOKEN.*file path/);
    expect(existsSync(join(d, '.jst', 'local.env'))).toBe(false);
  });
});

describe('jst search (spec §4 endpoint 15)', () => {
  let t: TestTracker;
  let dir: string;
  beforeAll(async () => {
    t = await startTestTracker('sqlite');
    dir = jstFolder(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('follows nextPageToken with --all; JSON and exit codes', async () => {
    const me = (await t.as('executor').get('/myself')).body.accountId;
    for (let i = 0; i < 7; i++)
      await t
        .as('assigner')
        .post('/issue', { fields: { project: { key: 'ABC' }, issuetype: { name: 'Task' }, summary: `searchable ${i}`, assignee: { accountId: me } } });
    const jql = 'assignee = currentUser() AND summary ~ searchable ORDER BY key';
    const one = await runJst(['--role', 'executor', 'search', jql, '--max', '3', '--json'], { cwd: dir });
    expect(one.code, one.stderr).toBe(0);
    const page = JSON.parse(one.stdout);
    expect(page.issues).toHaveLength(3);
    expect(page.nextPageToken).toBeTruthy();
    const all = JSON.parse((await runJst(['--role', 'executor', 'search', jql, '--max', '3', '--all', '--json'], { cwd: dir })).stdout);
    expect(all.issues.map((i: any) => i.fields.summary)).toEqual(Array.from({ length: 7 }, (_, i) => `searchable ${i}`));
    expect((await runJst(['--role', 'reviewer', 'search', jql, '--json'], { cwd: dir })).stdout).toContain('"issues": []');
    const bad = await runJst(['--role', 'executor', 'search', 'assignee = = x'], { cwd: dir });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/HTTP 400/);
    expect((await runJst(['--role', 'executor', 'search', jql, '--max', 'lots'], { cwd: dir })).code).toBe(2);
  });
});
