import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localCertificates } from '../../src/index.js';
import { git } from '../../../../test/support/repo.js';
import { ghAvailable, ghHarness, ghVersion, type Gh } from '../../../../test/support/gh.js';
import { CH_TOKENS, OWNER, REPO, startCodehostServer, type CodehostServer } from './support.js';

/**
 * ARCHITECTURE §23: Debian's gh (2.23), unchanged, against the code host served over TLS with its
 * local authority: login with a token, status, `gh api` reads and writes through REST, and a bad
 * token refused in GitHub's words without echoing it. What gh wrote is read back through Octokit.
 */
describe.skipIf(!ghAvailable())(`ARCHITECTURE §23: ${ghVersion()} against the code host over TLS`, () => {
  let s: CodehostServer;
  let gh: Gh;

  beforeAll(async () => {
    s = await startCodehostServer('sqlite', { tls: true });
    gh = await ghHarness({ url: s.url, caFile: s.caFile!, token: CH_TOKENS.ada });
  }, 60_000);
  afterAll(async () => {
    gh?.dispose();
    await s?.close();
  });

  it('the server is HTTPS only on its port, its URL says so', () => {
    expect(s.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  });

  it('GET /api/v3/ is 200 with X-OAuth-Scopes naming repo and read:org (what gh auth login checks)', async () => {
    const res = await s.as('ada').request('GET /');
    expect(res.status).toBe(200);
    expect(res.headers['x-oauth-scopes']!.split(', ')).toEqual(expect.arrayContaining(['repo', 'read:org']));
    expect((res.data as { repository_url: string }).repository_url).toBe(`${s.url}/api/v3/repos/{owner}/{repo}`);
  });

  it('gh auth login --with-token (GH_HOST with its port) stored the token for that host; gh auth status reads its scopes, never shows it', async () => {
    const status = await gh(['auth', 'status']);
    const all = status.stdout + status.stderr;
    expect(all).toContain(`Logged in to ${gh.host}`);
    expect(all).toMatch(/Token scopes: repo, read:org/);
    expect(all).not.toContain(CH_TOKENS.ada);
    const token = await gh(['auth', 'token', '-h', gh.host]);
    expect(token.stdout.trim()).toBe(CH_TOKENS.ada);
  });

  // gh asks GraphQL for the login (`viewer { login }`, ARCHITECTURE §23).
  it('gh auth status exits 0 and names the login (GraphQL viewer)', async () => {
    const status = await gh(['auth', 'status']);
    const all = status.stdout + status.stderr;
    expect(status.code, all).toBe(0);
    expect(all).toMatch(/Logged in to 127\.0\.0\.1:\d+ as ada/);
    expect(all).not.toContain(CH_TOKENS.ada);
  });

  it('gh api /repos/o/r reads the repository through REST', async () => {
    const r = await gh(['api', `/repos/${OWNER}/${REPO}`]);
    expect(r.code, r.stderr).toBe(0);
    const repo = JSON.parse(r.stdout) as { full_name: string; default_branch: string; clone_url: string };
    expect(repo.full_name).toBe(`${OWNER}/${REPO}`);
    expect(repo.default_branch).toBe('main');
    expect(repo.clone_url).toBe(`${s.url}/${OWNER}/${REPO}.git`);
  });

  it('gh api -X POST opens a pull request; Octokit reads it back', async () => {
    s.commit('feature/gh-api', { 'gh.txt': 'from gh\n' });
    const r = await gh([
      'api',
      '-X',
      'POST',
      `/repos/${OWNER}/${REPO}/pulls`,
      '-f',
      'title=Made by gh api',
      '-f',
      'head=feature/gh-api',
      '-f',
      'base=main',
      '-f',
      'body=through TLS',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const made = JSON.parse(r.stdout) as { number: number; user: { login: string } };
    expect(made.user.login).toBe('ada');
    const { data } = await s.as('rey').rest.pulls.get({ owner: OWNER, repo: REPO, pull_number: made.number });
    expect(data).toMatchObject({ title: 'Made by gh api', body: 'through TLS', state: 'open', head: { ref: 'feature/gh-api' }, base: { ref: 'main' } });
  });

  it('gh pr diff N -R 127.0.0.1:PORT/o/r: REST with application/vnd.github.v3.diff, what git diff base...head gives; --name-only lists the files', async () => {
    s.commit('feature/gh-diff', { 'diffed.txt': 'one\ntwo\n', 'README.md': 'hello, diff\n' });
    const { data: pr } = await s.as('ada').rest.pulls.create({ owner: OWNER, repo: REPO, title: 'diff me', head: 'feature/gh-diff', base: 'main' });
    const r = await gh(['pr', 'diff', String(pr.number), '-R', gh.repo(`${OWNER}/${REPO}`), '--color', 'never']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(git(s.work, 'diff', 'origin/main...origin/feature/gh-diff') + '\n');
    const names = await gh(['pr', 'diff', String(pr.number), '-R', gh.repo(`${OWNER}/${REPO}`), '--name-only']);
    expect(names.code, names.stderr).toBe(0);
    expect(names.stdout.trim().split('\n').sort()).toEqual(['README.md', 'diffed.txt']);
    const missing = await gh(['pr', 'diff', '99999', '-R', gh.repo(`${OWNER}/${REPO}`)]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/404|Not Found|could not find/i);
  });

  it('gh api with a refused write: exit 1, GitHub’s message, nothing made', async () => {
    const r = await gh(['api', '-X', 'POST', `/repos/${OWNER}/${REPO}/pulls`, '-f', 'title=x', '-f', 'head=no-such-branch', '-f', 'base=main']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/HTTP 422/);
    const { data } = await s.as('rey').rest.pulls.list({ owner: OWNER, repo: REPO, state: 'all' });
    expect(data.map((p) => p.title)).not.toContain('x');
  });

  it('gh api with a bad token: 401 Bad credentials in GitHub’s shape, the token never echoed', async () => {
    const bad = 'ghp_not-a-token-of-this-server-0123456789';
    const r = await gh(['api', `/repos/${OWNER}/${REPO}`], { env: { GH_ENTERPRISE_TOKEN: bad } });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('gh: Bad credentials (HTTP 401)\n');
    expect(JSON.parse(r.stdout)).toMatchObject({ message: 'Bad credentials', documentation_url: expect.stringMatching(/^https:\/\/docs\.github\.com\//) });
    expect(r.stdout + r.stderr).not.toContain(bad);
  });

  it('gh auth login --with-token with a bad token is refused, stores nothing, never echoes it', async () => {
    const other = await ghHarness({ url: s.url, caFile: s.caFile! });
    try {
      const bad = 'ghp_also-not-a-token-9876543210';
      const r = await other(['auth', 'login', '--with-token'], { input: `${bad}\n` });
      expect(r.code).not.toBe(0);
      expect(r.stdout + r.stderr).toMatch(/401|Bad credentials/);
      expect(r.stdout + r.stderr).not.toContain(bad);
      const status = await other(['auth', 'status']);
      expect(status.code).not.toBe(0);
    } finally {
      other.dispose();
    }
  });

  it('gh trusts only the authority it is given: another one fails the TLS handshake (x509), no request is made', async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'jst-other-ca-'));
    try {
      const otherCa = localCertificates(elsewhere).caFile!;
      const r = await gh(['api', `/repos/${OWNER}/${REPO}`], { env: { SSL_CERT_FILE: otherCa } });
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(/x509|certificate/);
      expect(r.stderr).not.toContain(CH_TOKENS.ada);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});
