import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_GIT_ENV, git } from '../../../../test/support/repo.js';
import { storeKinds } from '../../../../test/support/tracker.js';
import { CH_TOKENS, OWNER, REPO, startCodehostServer, type ChWho, type CodehostServer } from './support.js';

/**
 * ARCHITECTURE §14 "Git is git's" and "Authentication": real `git` clones, fetches and pushes
 * over HTTP against the real server, with HTTP Basic (any user name, the token as the password);
 * read for fetch and clone, write for push; a stranger is told the repository does not exist.
 */
/** git against the server in this process: asynchronous, or the server could not answer it. */
function tryGit(cwd: string, ...args: string[]): Promise<{ status: number | null; out: string }> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd, env: FIXTURE_GIT_ENV, encoding: 'utf8', timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ status: error ? (typeof error.code === 'number' ? error.code : 1) : 0, out: `${stdout}${stderr}` });
    });
  });
}

async function gitOk(cwd: string, ...args: string[]): Promise<void> {
  const r = await tryGit(cwd, ...args);
  if (r.status !== 0) throw new Error(`git ${args[0]} failed: ${r.out}`);
}

describe.each(await storeKinds())("ARCHITECTURE §14: git over HTTP, git's own (%s)", (kind) => {
  let ch: CodehostServer;
  let tmp: string;
  const remote = (who: ChWho | null) => {
    const u = new URL(`${ch.url}/${OWNER}/${REPO}.git`);
    if (who) {
      u.username = 'x-access-token';
      u.password = CH_TOKENS[who];
    }
    return u.toString();
  };

  beforeAll(async () => {
    ch = await startCodehostServer(kind, { server: { pushLimit: 64 * 1024 } });
    tmp = mkdtempSync(join(tmpdir(), 'jst-codehost-git-'));
  });
  afterAll(async () => {
    await ch?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('a collaborator with write clones, pushes a branch and fetches the merge the REST interface made', async () => {
    const dir = join(tmp, 'ada');
    await gitOk(tmp, 'clone', '--quiet', remote('ada'), dir);
    expect(git(dir, 'log', '--format=%s', '-1')).toBe('initial');
    git(dir, 'config', 'user.name', 'Ada');
    git(dir, 'config', 'user.email', 'ada@example.test');
    git(dir, 'checkout', '--quiet', '-b', 'feature/GIT-1-push');
    writeFileSync(join(dir, 'pushed.txt'), 'over http\n');
    git(dir, 'add', '.');
    git(dir, 'commit', '--quiet', '-m', 'pushed over http');
    await gitOk(dir, 'push', '--quiet', 'origin', 'feature/GIT-1-push');
    const head = git(dir, 'rev-parse', 'HEAD');
    expect(git(ch.bare, 'rev-parse', 'feature/GIT-1-push')).toBe(head);
    const pr = await ch.as('ada').rest.pulls.create({ owner: OWNER, repo: REPO, title: 'over http', head: 'feature/GIT-1-push', base: 'main' });
    const merged = await ch.as('ada').rest.pulls.merge({ owner: OWNER, repo: REPO, pull_number: pr.data.number });
    await gitOk(dir, 'fetch', '--quiet', 'origin');
    expect(git(dir, 'rev-parse', 'origin/main')).toBe(merged.data.sha);
    expect(() => git(dir, 'merge-base', '--is-ancestor', head, 'origin/main')).not.toThrow();
  });

  it('a read-only collaborator clones and fetches but cannot push; nothing changes on the server', async () => {
    const dir = join(tmp, 'vic');
    await gitOk(tmp, 'clone', '--quiet', remote('vic'), dir);
    git(dir, 'config', 'user.name', 'Vic');
    git(dir, 'config', 'user.email', 'vic@example.test');
    git(dir, 'checkout', '--quiet', '-b', 'feature/GIT-2-nope');
    writeFileSync(join(dir, 'nope.txt'), 'nope\n');
    git(dir, 'add', '.');
    git(dir, 'commit', '--quiet', '-m', 'nope');
    const before = git(ch.bare, 'for-each-ref');
    const r = await tryGit(dir, 'push', 'origin', 'feature/GIT-2-nope');
    expect(r.status).not.toBe(0);
    expect(r.out).toMatch(/403|not granted|write/i);
    expect(r.out).not.toContain(CH_TOKENS.vic);
    expect(git(ch.bare, 'for-each-ref')).toBe(before);
    expect((await tryGit(dir, 'fetch', 'origin')).status).toBe(0);
  });

  it("a stranger is told the repository does not exist (404); no credential and a bad one get 401 with git's Basic challenge", async () => {
    const stranger = await tryGit(tmp, 'clone', remote('olga'), join(tmp, 'olga'));
    expect(stranger.status).not.toBe(0);
    expect(stranger.out).toMatch(/not found|404/i);
    const anonymous = await tryGit(tmp, 'clone', remote(null), join(tmp, 'anon'));
    expect(anonymous.status).not.toBe(0);
    for (const authorization of [undefined, `Basic ${Buffer.from('x:wrong-token').toString('base64')}`]) {
      const res = await fetch(`${ch.url}/${OWNER}/${REPO}.git/info/refs?service=git-upload-pack`, { headers: authorization ? { authorization } : {} });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Basic realm="jst-tracker code host"');
    }
    const hidden = await fetch(`${ch.url}/${OWNER}/nope.git/info/refs?service=git-upload-pack`, {
      headers: { authorization: `Basic ${Buffer.from(`x:${CH_TOKENS.ada}`).toString('base64')}` },
    });
    expect(hidden.status).toBe(404);
  });

  it('a push over --push-limit is refused and stores nothing', async () => {
    const dir = join(tmp, 'big');
    await gitOk(tmp, 'clone', '--quiet', remote('rey'), dir);
    git(dir, 'config', 'user.name', 'Rey');
    git(dir, 'config', 'user.email', 'rey@example.test');
    git(dir, 'checkout', '--quiet', '-b', 'feature/GIT-3-big');
    writeFileSync(join(dir, 'big.bin'), randomBytes(512 * 1024));
    git(dir, 'add', '.');
    git(dir, 'commit', '--quiet', '-m', 'big');
    const r = await tryGit(dir, 'push', 'origin', 'feature/GIT-3-big');
    expect(r.status).not.toBe(0);
    expect(() =>
      execFileSync('git', ['rev-parse', '--verify', '--quiet', 'refs/heads/feature/GIT-3-big'], { cwd: ch.bare, env: FIXTURE_GIT_ENV, stdio: 'pipe' }),
    ).toThrow();
  });

  it('the REST interface and the tracker still answer beside git on the same port', async () => {
    expect((await ch.as('vic').rest.repos.get({ owner: OWNER, repo: REPO })).status).toBe(200);
    expect((await fetch(`${ch.url}/_edge/tenant_info`)).status).toBe(200);
  });
});
