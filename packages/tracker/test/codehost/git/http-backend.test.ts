import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitHttpHandler, GIT_REALM, type GitNeed } from '../../../src/codehost/git/http-backend.js';
import { BareRepos } from '../../../src/codehost/git/repos.js';
import { GitSlots } from '../../../src/codehost/git/slots.js';
import { watchGitProcesses } from '../../../src/codehost/git/run.js';
import { serverHooksPath } from '../../../src/codehost/git/push-hook.js';
import { bareGit, FIXTURE_GIT_ENV, tempDir, Work } from './support.js';

/** Tokens of the test access rule: what each may do on demo/app (demo/secret is readable by `tok-write` only). */
const TOKENS: Record<string, 'read' | 'write'> = { 'tok-write-7f3a': 'write', 'tok-read-91bc': 'read' };
const PUSH_LIMIT = 1024 * 1024;
const SECRET_ENV = 'JST_TEST_SECRET_VALUE_5d1e';

const tmp = tempDir('jst-git-http-');
const repos = new BareRepos(join(tmp.path, 'repos'));
let server: Server;
let base = '';
const pushes: string[] = [];
const seen: Array<{ owner: string; repo: string; need: GitNeed }> = [];

beforeAll(async () => {
  process.env.JST_TEST_SECRET = SECRET_ENV;
  for (const name of ['app', 'secret', 'limits', 'envcheck']) {
    await repos.ensure('demo', name, 'development');
    const w = Work.clone(repos.dir('demo', name), join(tmp.path, `seed-${name}`), 'development');
    w.commit({ 'README.md': `# ${name}\n` }, 'initial');
    w.push('development');
  }
  const handler = createGitHttpHandler({
    repos,
    pushLimitBytes: PUSH_LIMIT,
    async access(owner, repo, credential, need) {
      seen.push({ owner, repo, need });
      if (owner !== 'demo' || !['app', 'secret', 'limits', 'envcheck', 'large'].includes(repo)) return credential === null ? 'unauthenticated' : 'not_found';
      if (credential === null) return 'unauthenticated';
      const perm = TOKENS[credential.password];
      if (perm === undefined) return 'unauthenticated';
      if (repo === 'secret' && perm !== 'write') return 'not_found';
      if (need === 'write' && perm !== 'write') return 'forbidden';
      return { decision: 'ok', login: perm === 'write' ? 'demo-bot' : 'reader' };
    },
    onPush: async (owner, repo) => {
      pushes.push(`${owner}/${repo}`);
    },
  });
  server = createServer((req, res) => {
    handler(req, res).then(
      (handled) => {
        if (!handled) {
          res.writeHead(418, { 'Content-Type': 'text/plain' });
          res.end('not git\n');
        }
      },
      () => {
        res.writeHead(500);
        res.end();
      },
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  delete process.env.JST_TEST_SECRET;
  tmp.cleanup();
});

const urlOf = (repo: string, token?: string) =>
  `${base.replace('http://', token === undefined ? 'http://' : `http://x-access-token:${token}@`)}/demo/${repo}.git`;

/**
 * Runs git as a client would: no credential helper, no prompt. Asynchronous: the server answering
 * it runs in this very process.
 */
function gitClient(cwd: string, ...args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('git', ['-c', 'credential.helper=', ...args], { cwd, env: { ...FIXTURE_GIT_ENV, GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: '' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString('utf8');
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString('utf8');
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ status: code ?? -1, stdout, stderr });
    });
  });
}

async function clone(repo: string, token: string | undefined, into: string): Promise<{ status: number; stderr: string }> {
  const r = await gitClient(tmp.path, 'clone', '--quiet', urlOf(repo, token), join(tmp.path, into));
  if (r.status === 0) {
    await gitClient(join(tmp.path, into), 'config', 'user.name', 'Pusher');
    await gitClient(join(tmp.path, into), 'config', 'user.email', 'pusher@example.test');
  }
  return r;
}

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}
function raw(method: string, path: string, headers: Record<string, string> = {}, body?: Buffer, at = base): Promise<Raw> {
  return new Promise((resolve, reject) => {
    // Options, not a URL string: a URL would be normalised ('/../x' → '/x') before it is sent.
    const { hostname, port } = new URL(at);
    const req = request({ hostname, port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}
const basic = (token: string) => `Basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`;

function incomingDirs(bare: string): string[] {
  return readdirSync(join(bare, 'objects')).filter((d) => d.startsWith('incoming-') || d.startsWith('tmp_objdir'));
}

describe("ARCHITECTURE §14 Git is git's: clone, fetch and push through git http-backend", () => {
  it('a write token clones, pushes a new branch and a commit, and another clone fetches them', async () => {
    expect((await clone('app', 'tok-write-7f3a', 'c1')).status).toBe(0);
    const c1 = join(tmp.path, 'c1');
    writeFileSync(join(c1, 'feature.txt'), 'feature\n');
    await gitClient(c1, 'add', 'feature.txt');
    await gitClient(c1, 'commit', '--quiet', '-m', 'feature');
    const sha = (await gitClient(c1, 'rev-parse', 'HEAD')).stdout.trim();
    const push = await gitClient(c1, 'push', '--quiet', 'origin', 'HEAD:refs/heads/feature/A-1', 'HEAD:development');
    expect(push.stderr).toBe('');
    expect(push.status).toBe(0);
    expect(bareGit(repos.dir('demo', 'app'), 'rev-parse', 'refs/heads/feature/A-1')).toBe(sha);
    expect(bareGit(repos.dir('demo', 'app'), 'rev-parse', 'refs/heads/development')).toBe(sha);
    expect(pushes).toContain('demo/app');

    expect((await clone('app', 'tok-read-91bc', 'c2')).status).toBe(0);
    const c2 = join(tmp.path, 'c2');
    expect((await gitClient(c2, 'rev-parse', 'HEAD')).stdout.trim()).toBe(sha);
    const more = await gitClient(c1, 'commit', '--quiet', '--allow-empty', '-m', 'more');
    expect(more.status).toBe(0);
    expect((await gitClient(c1, 'push', '--quiet', 'origin', 'HEAD:development')).status).toBe(0);
    const fetched = await gitClient(c2, 'fetch', '--quiet', 'origin');
    expect(fetched.status).toBe(0);
    expect((await gitClient(c2, 'rev-parse', 'origin/development')).stdout.trim()).toBe((await gitClient(c1, 'rev-parse', 'HEAD')).stdout.trim());
  });

  it('a clone of several megabytes streams whole (the answer relayed with back-pressure)', async () => {
    await repos.ensure('demo', 'large', 'development');
    const w = Work.clone(repos.dir('demo', 'large'), join(tmp.path, 'seed-large'), 'development');
    const blob = randomBytes(6 * 1024 * 1024);
    const sha = w.commit({ 'large.bin': blob }, 'large');
    w.push('development');
    const c = await gitClient(tmp.path, 'clone', '--quiet', urlOf('large', 'tok-write-7f3a'), join(tmp.path, 'large-clone'));
    expect(c.status, c.stderr).toBe(0);
    expect((await gitClient(join(tmp.path, 'large-clone'), 'rev-parse', 'HEAD')).stdout.trim()).toBe(sha);
    expect(readFileSync(join(tmp.path, 'large-clone', 'large.bin')).equals(blob)).toBe(true);
  });

  it('works with protocol version 0 and 2 (the Git-Protocol header reaches git), and with a .git-less URL', async () => {
    for (const v of ['0', '1', '2']) {
      const r = await gitClient(tmp.path, '-c', `protocol.version=${v}`, 'ls-remote', urlOf('app', 'tok-read-91bc'), 'refs/heads/development');
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^[0-9a-f]{40}\trefs\/heads\/development\n$/);
    }
    const plain = await gitClient(tmp.path, 'ls-remote', urlOf('app', 'tok-read-91bc').replace(/\.git$/, ''), 'refs/heads/development');
    expect(plain.status, plain.stderr).toBe(0);
  });

  it('a force-push is taken, as on GitHub', async () => {
    expect((await clone('app', 'tok-write-7f3a', 'c3')).status).toBe(0);
    const c3 = join(tmp.path, 'c3');
    const initial = (await gitClient(c3, 'rev-list', '--max-parents=0', 'HEAD')).stdout.trim();
    expect(bareGit(repos.dir('demo', 'app'), 'rev-parse', 'refs/heads/feature/A-1')).not.toBe(initial);
    const refused = await gitClient(c3, 'push', '--quiet', 'origin', `${initial}:refs/heads/feature/A-1`);
    expect(refused.status).not.toBe(0);
    const r = await gitClient(c3, 'push', '--quiet', '--force', 'origin', `${initial}:refs/heads/feature/A-1`);
    expect(r.status, r.stderr).toBe(0);
    expect(bareGit(repos.dir('demo', 'app'), 'rev-parse', 'refs/heads/feature/A-1')).toBe(initial);
  });
});

describe('ARCHITECTURE §14 Authentication: Basic with the token as password; 401, 404 masked, 403 for a write', () => {
  it('no credential: 401 with WWW-Authenticate Basic realm="jst-tracker code host", and git reports it without prompting', async () => {
    const r = await raw('GET', '/demo/app.git/info/refs?service=git-upload-pack');
    expect(r.status).toBe(401);
    expect(r.headers['www-authenticate']).toBe(`Basic realm="${GIT_REALM}"`);
    const cli = await gitClient(tmp.path, 'ls-remote', urlOf('app'));
    expect(cli.status).not.toBe(0);
    expect(cli.stderr).toMatch(/could not read Username|Authentication failed/);
  });

  it('a bad credential is a 401, and no answer echoes it', async () => {
    const token = 'tok-wrong-3c9d';
    for (const auth of [basic(token), `Bearer ${token}`, `Basic ${token}`]) {
      const r = await raw('GET', '/demo/app.git/info/refs?service=git-upload-pack', { Authorization: auth });
      expect(r.status).toBe(401);
      expect(r.body).not.toContain(token);
      expect(JSON.stringify(r.headers)).not.toContain(token);
    }
    const cli = await gitClient(tmp.path, 'ls-remote', urlOf('app', token));
    expect(cli.status).not.toBe(0);
    expect(cli.stderr).not.toContain(token);
  });

  it('an unknown repository, or one the token may not read, is a 404', async () => {
    for (const path of ['/demo/nope.git/info/refs?service=git-upload-pack', '/ghost/app.git/info/refs?service=git-upload-pack']) {
      expect((await raw('GET', path, { Authorization: basic('tok-write-7f3a') })).status).toBe(404);
    }
    const masked = await raw('GET', '/demo/secret.git/info/refs?service=git-upload-pack', { Authorization: basic('tok-read-91bc') });
    expect(masked.status).toBe(404);
    expect(masked.body).toBe('Repository not found.\n');
    const cli = await gitClient(tmp.path, 'clone', urlOf('secret', 'tok-read-91bc'), join(tmp.path, 'nope'));
    expect(cli.status).not.toBe(0);
    expect(cli.stderr).toMatch(/not found|404/i);
    expect((await clone('secret', 'tok-write-7f3a', 'secret-ok')).status).toBe(0);
  });

  it('a read-only token cannot push: 403 on the advertisement and on receive-pack itself, refs unchanged', async () => {
    expect((await clone('app', 'tok-read-91bc', 'ro')).status).toBe(0);
    const ro = join(tmp.path, 'ro');
    await gitClient(ro, 'commit', '--quiet', '--allow-empty', '-m', 'not allowed');
    const before = bareGit(repos.dir('demo', 'app'), 'for-each-ref');
    const push = await gitClient(ro, 'push', 'origin', 'HEAD:development', 'HEAD:refs/heads/new-branch');
    expect(push.status).not.toBe(0);
    expect(push.stderr).toMatch(/403/);
    expect(bareGit(repos.dir('demo', 'app'), 'for-each-ref')).toBe(before);
    const adv = await raw('GET', '/demo/app.git/info/refs?service=git-receive-pack', { Authorization: basic('tok-read-91bc') });
    expect(adv.status).toBe(403);
    expect(adv.body).toMatch(/Write access to demo\/app is not granted/);
    const post = await raw(
      'POST',
      '/demo/app.git/git-receive-pack',
      { Authorization: basic('tok-read-91bc'), 'Content-Type': 'application/x-git-receive-pack-request' },
      Buffer.from('0000'),
    );
    expect(post.status).toBe(403);
    expect(seen.some((s) => s.need === 'write')).toBe(true);
  });
});

describe("ARCHITECTURE §20: refs/pull/* are the code host's; an aborted push leaves no quarantine", () => {
  it("a push to refs/pull/N/head is refused in GitHub's words (deny updating a hidden ref); the branch beside it is taken", async () => {
    expect((await clone('app', 'tok-write-7f3a', 'pr-spoof')).status).toBe(0);
    const dir = join(tmp.path, 'pr-spoof');
    await gitClient(dir, 'commit', '--quiet', '--allow-empty', '-m', 'spoofed head');
    const bare = repos.dir('demo', 'app');
    const push = await gitClient(dir, 'push', 'origin', 'HEAD:refs/pull/1/head', 'HEAD:refs/heads/beside-spoof');
    expect(push.status).not.toBe(0);
    expect(push.stderr).toContain('! [remote rejected] HEAD -> refs/pull/1/head (deny updating a hidden ref)');
    expect(bareGit(bare, 'for-each-ref', 'refs/pull')).toBe('');
    expect(bareGit(bare, 'for-each-ref', '--format=%(refname)', 'refs/heads/beside-spoof').trim()).toBe('refs/heads/beside-spoof');
  });

  it('a push cut off in the middle of its pack leaves no objects/tmp_objdir-incoming-* behind', async () => {
    expect((await clone('app', 'tok-write-7f3a', 'cut-push')).status).toBe(0);
    const dir = join(tmp.path, 'cut-push');
    const old = (await gitClient(dir, 'rev-parse', 'HEAD')).stdout.trim();
    writeFileSync(join(dir, 'noise.bin'), randomBytes(256 * 1024));
    await gitClient(dir, 'add', 'noise.bin');
    await gitClient(dir, 'commit', '--quiet', '-m', 'noise');
    const sha = (await gitClient(dir, 'rev-parse', 'HEAD')).stdout.trim();
    const pack = spawnSync('git', ['pack-objects', '--stdout', '--revs', '-q'], { cwd: dir, env: FIXTURE_GIT_ENV, input: `${sha}\n^${old}\n` }).stdout;
    const command = `${old} ${sha} refs/heads/cut\0report-status\n`;
    const pkt = `${(command.length + 4).toString(16).padStart(4, '0')}${command}0000`;
    const bare = repos.dir('demo', 'app');
    const { hostname, port } = new URL(base);
    const req = request({
      hostname,
      port,
      path: '/demo/app.git/git-receive-pack',
      method: 'POST',
      headers: { Authorization: basic('tok-write-7f3a'), 'Content-Type': 'application/x-git-receive-pack-request', 'Transfer-Encoding': 'chunked' },
    });
    req.on('error', () => {
      /* cut below */
    });
    req.write(Buffer.concat([Buffer.from(pkt, 'latin1'), pack.subarray(0, pack.length >> 1)]));
    // receive-pack has made its quarantine and is unpacking into it.
    for (let i = 0; i < 100 && incomingDirs(bare).length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(incomingDirs(bare).length).toBeGreaterThan(0);
    req.destroy();
    for (let i = 0; i < 60 && incomingDirs(bare).length > 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(incomingDirs(bare)).toEqual([]);
    expect(bareGit(bare, 'for-each-ref', 'refs/heads/cut')).toBe('');
  });
});

describe('ARCHITECTURE §14: push bodies are capped (--push-limit), nothing half-written', () => {
  async function bigCommit(dir: string): Promise<string> {
    writeFileSync(join(dir, 'big.bin'), randomBytes(PUSH_LIMIT * 3));
    await gitClient(dir, 'add', 'big.bin');
    await gitClient(dir, 'commit', '--quiet', '-m', 'too big');
    return (await gitClient(dir, 'rev-parse', 'HEAD')).stdout.trim();
  }

  it('a push over the limit (streamed in chunks) is refused and leaves every ref and object as it was', async () => {
    expect((await clone('limits', 'tok-write-7f3a', 'big1')).status).toBe(0);
    const dir = join(tmp.path, 'big1');
    const sha = await bigCommit(dir);
    const bare = repos.dir('demo', 'limits');
    const before = bareGit(bare, 'for-each-ref');
    const push = await gitClient(dir, 'push', 'origin', 'HEAD:development', 'HEAD:refs/heads/big');
    expect(push.status).not.toBe(0);
    expect(push.stderr).toMatch(/HTTP 413/);
    expect(bareGit(bare, 'for-each-ref')).toBe(before);
    expect(spawnSync('git', ['--git-dir', bare, 'cat-file', '-e', sha], { env: FIXTURE_GIT_ENV }).status).not.toBe(0);
    // receive-pack's quarantine is gone once it has stopped.
    for (let i = 0; i < 50 && incomingDirs(bare).length > 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(incomingDirs(bare)).toEqual([]);
  });

  it('a push over the limit sent with a Content-Length is refused before git runs', async () => {
    expect((await clone('limits', 'tok-write-7f3a', 'big2')).status).toBe(0);
    const dir = join(tmp.path, 'big2');
    await bigCommit(dir);
    const before = bareGit(repos.dir('demo', 'limits'), 'for-each-ref');
    const push = await gitClient(dir, '-c', 'http.postBuffer=104857600', 'push', 'origin', 'HEAD:development');
    expect(push.status).not.toBe(0);
    expect(push.stderr).toMatch(/413/);
    expect(bareGit(repos.dir('demo', 'limits'), 'for-each-ref')).toBe(before);
  });

  it('a gzip body is counted decoded: a small body that inflates past the limit is a 413 naming --push-limit', async () => {
    // A real push request whose pack is stored uncompressed (4 MiB of zeros), then gzipped: small on
    // the wire, over the limit once decoded. Git itself never gzips a push; an attacker might.
    expect((await clone('limits', 'tok-write-7f3a', 'bomb')).status).toBe(0);
    const dir = join(tmp.path, 'bomb');
    const old = (await gitClient(dir, 'rev-parse', 'HEAD')).stdout.trim();
    writeFileSync(join(dir, 'zeros.bin'), Buffer.alloc(PUSH_LIMIT * 4));
    await gitClient(dir, 'add', 'zeros.bin');
    await gitClient(dir, 'commit', '--quiet', '-m', 'zeros');
    const sha = (await gitClient(dir, 'rev-parse', 'HEAD')).stdout.trim();
    const pack = spawnSync('git', ['-c', 'pack.compression=0', 'pack-objects', '--no-reuse-object', '--stdout', '--revs', '-q'], {
      cwd: dir,
      env: FIXTURE_GIT_ENV,
      input: `${sha}\n^${old}\n`,
      maxBuffer: 64 * 1024 * 1024,
    }).stdout;
    expect(pack.length).toBeGreaterThan(PUSH_LIMIT * 4);
    const command = `${old} ${sha} refs/heads/bomb\0report-status\n`;
    const pkt = `${(command.length + 4).toString(16).padStart(4, '0')}${command}0000`;
    const bomb = gzipSync(Buffer.concat([Buffer.from(pkt, 'latin1'), pack]));
    expect(bomb.length).toBeLessThan(PUSH_LIMIT / 10);
    const bare = repos.dir('demo', 'limits');
    const before = bareGit(bare, 'for-each-ref');
    const r = await raw(
      'POST',
      '/demo/limits.git/git-receive-pack',
      {
        Authorization: basic('tok-write-7f3a'),
        'Content-Type': 'application/x-git-receive-pack-request',
        'Content-Encoding': 'gzip',
      },
      bomb,
    );
    expect(r.status).toBe(413);
    expect(r.body).toMatch(/--push-limit/);
    expect(bareGit(bare, 'for-each-ref')).toBe(before);
    const declared = await raw(
      'POST',
      '/demo/limits.git/git-receive-pack',
      {
        Authorization: basic('tok-write-7f3a'),
        'Content-Type': 'application/x-git-receive-pack-request',
        'Content-Length': String(PUSH_LIMIT + 1),
      },
      Buffer.alloc(PUSH_LIMIT + 1),
    );
    expect(declared.status).toBe(413);
  });

  it('a fetch request body is capped too (fetchLimitBytes): 413', async () => {
    const small = createGitHttpHandler({ repos, pushLimitBytes: PUSH_LIMIT, fetchLimitBytes: 1000, access: async () => 'ok' });
    const s = createServer((req, res) => {
      void small(req, res);
    });
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    try {
      const at = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
      const wants = Buffer.from(`0032want ${'a'.repeat(40)}\n`.repeat(100));
      const r = await raw(
        'POST',
        '/demo/app.git/git-upload-pack',
        { 'Content-Type': 'application/x-git-upload-pack-request', 'Transfer-Encoding': 'chunked' },
        wants,
        at,
      );
      expect(r.status).toBe(413);
      expect(r.body).toMatch(/fetch request is larger than this code host takes \(1000 bytes\)/);
    } finally {
      s.closeAllConnections();
      await new Promise<void>((r) => s.close(() => r()));
    }
  });

  it('a body in an unknown encoding is a 415, bad gzip a 400', async () => {
    const h = { Authorization: basic('tok-write-7f3a'), 'Content-Type': 'application/x-git-upload-pack-request' };
    expect((await raw('POST', '/demo/app.git/git-upload-pack', { ...h, 'Content-Encoding': 'br' }, Buffer.from('0000'))).status).toBe(415);
    expect((await raw('POST', '/demo/app.git/git-upload-pack', { ...h, 'Content-Encoding': 'gzip' }, Buffer.from('not gzip at all'))).status).toBe(400);
  });
});

describe('ARCHITECTURE §14: git paths stay inside <owner>/<repo>.git', () => {
  it("traversal, encoded slashes and odd names are 404s; other paths are not git's (handler returns false)", async () => {
    const h = { Authorization: basic('tok-write-7f3a') };
    for (const path of [
      '/demo/..%2F..%2Fetc.git/info/refs?service=git-upload-pack',
      '/demo/%2e%2e.git/info/refs?service=git-upload-pack',
      '/../app.git/info/refs?service=git-upload-pack',
      '/demo/.git.git/info/refs?service=git-upload-pack',
      '/demo/a%2Fb/git-upload-pack',
      '/de%2fmo/app.git/info/refs?service=git-upload-pack',
      '/demo/app.git.git/info/refs?service=git-upload-pack',
    ]) {
      const r = await raw('GET', path, h);
      expect(r.status, path).toBe(404);
    }
    for (const path of ['/demo/app/pull/1', '/api/v3/user', '/demo/app/info', '/demo/app.git']) {
      expect((await raw('GET', path, h)).status, path).toBe(418);
    }
  });

  it('dumb HTTP and info/refs without a smart service are refused (403); a wrong method is a 405', async () => {
    const h = { Authorization: basic('tok-write-7f3a') };
    for (const path of [
      '/demo/app.git/HEAD',
      '/demo/app.git/objects/info/packs',
      '/demo/app.git/info/refs',
      '/demo/app.git/info/refs?service=git-upload-archive',
      '/demo/app.git/info/refs/extra',
    ]) {
      const r = await raw('GET', path, h);
      expect(r.status, path).toBe(403);
      expect(r.body).toMatch(/smart HTTP only/);
    }
    expect((await raw('POST', '/demo/app.git/info/refs?service=git-upload-pack', h)).status).toBe(405);
    expect((await raw('GET', '/demo/app.git/git-upload-pack', h)).status).toBe(405);
  });

  it('a git http-backend running past its time limit is stopped and answered 504', async () => {
    // A git that takes 5 s to start (first on PATH, where the server finds git): a limit of 1 ms
    // against the real git was a race that a fast machine's git could win (a 200).
    const shim = join(tmp.path, `slow-git-${randomBytes(4).toString('hex')}`);
    mkdirSync(shim);
    const realGit = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();
    writeFileSync(join(shim, 'git'), `#!/bin/sh\nsleep 5\nexec '${realGit}' "$@"\n`);
    chmodSync(join(shim, 'git'), 0o755);
    const slow = createGitHttpHandler({ repos, pushLimitBytes: PUSH_LIMIT, timeoutMs: 300, access: async () => 'ok' });
    const s = createServer((req, res) => {
      void slow(req, res);
    });
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    const path = process.env.PATH;
    process.env.PATH = `${shim}:${path ?? ''}`;
    try {
      const port = (s.address() as AddressInfo).port;
      const started = Date.now();
      const r = await raw('GET', '/demo/app.git/info/refs?service=git-upload-pack', {}, undefined, `http://127.0.0.1:${port}`);
      expect(r.status).toBe(504);
      expect(r.body).toMatch(/took longer than 300 ms/);
      expect(Date.now() - started).toBeLessThan(4_000);
    } finally {
      process.env.PATH = path;
      await new Promise<void>((r) => s.close(() => r()));
    }
  });

  it('git processes are bounded: a request beyond --git-processes is a 503 with Retry-After', async () => {
    const one = createGitHttpHandler({ repos, pushLimitBytes: PUSH_LIMIT, slots: new GitSlots({ total: 1 }), access: async () => 'ok' });
    const s = createServer((req, res) => {
      void one(req, res);
    });
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    const port = (s.address() as AddressInfo).port;
    // A fetch whose body never ends keeps the only slot busy.
    const hanging = request({
      hostname: '127.0.0.1',
      port,
      path: '/demo/app.git/git-upload-pack',
      method: 'POST',
      headers: { 'Content-Type': 'application/x-git-upload-pack-request', 'Transfer-Encoding': 'chunked' },
    });
    hanging.on('error', () => {
      /* cut below */
    });
    hanging.write('0032want ');
    try {
      let busy: Raw | null = null;
      for (let i = 0; i < 50 && busy?.status !== 503; i++) {
        await new Promise((r) => setTimeout(r, 20));
        busy = await raw('GET', '/demo/app.git/info/refs?service=git-upload-pack', {}, undefined, `http://127.0.0.1:${port}`);
      }
      expect(busy?.status).toBe(503);
      expect(busy?.headers['retry-after']).toBe('5');
    } finally {
      hanging.destroy();
      s.closeAllConnections();
      await new Promise<void>((r) => s.close(() => r()));
    }
  });

  it('the server hooks: a pusher no rule binds runs no pre-receive hook, and the post-receive hook starts no process of its own', () => {
    // Each process costs a push more than the lines the hooks copy (bench/lifecycle.mjs).
    expect(existsSync(join(serverHooksPath(), 'pre-receive'))).toBe(false);
    expect(existsSync(join(serverHooksPath(true), 'pre-receive'))).toBe(true);
    for (const dir of [serverHooksPath(), serverHooksPath(true)]) {
      const body = readFileSync(join(dir, 'post-receive'), 'utf8')
        .split('\n')
        .filter((l) => !l.startsWith('#'))
        .join('\n');
      // Only sh's builtins: no cat, mv or other command.
      expect(body).not.toMatch(/\b(cat|mv|cp|tee|git)\b/);
    }
  });

  it('git runs with a minimal environment: no variable of the server (a secret) reaches it', async () => {
    // Every receive-pack runs the server's hooks folder (git/push-hook.ts): its post-receive is
    // swapped for one that writes the environment git gives a hook, then put back.
    const hook = join(serverHooksPath(), 'post-receive');
    const kept = readFileSync(hook, 'utf8');
    writeFileSync(hook, `#!/bin/sh\nenv > "${join(tmp.path, 'hook-env.txt')}"\n`);
    chmodSync(hook, 0o755);
    try {
      expect((await clone('envcheck', 'tok-write-7f3a', 'envc')).status).toBe(0);
      const dir = join(tmp.path, 'envc');
      await gitClient(dir, 'commit', '--quiet', '--allow-empty', '-m', 'x');
      expect((await gitClient(dir, 'push', '--quiet', 'origin', 'HEAD:development')).status).toBe(0);
    } finally {
      writeFileSync(hook, kept);
    }
    expect(existsSync(join(tmp.path, 'hook-env.txt'))).toBe(true);
    const env = readFileSync(join(tmp.path, 'hook-env.txt'), 'utf8');
    expect(env).not.toContain(SECRET_ENV);
    expect(env).not.toContain('tok-write-7f3a');
    expect(env).toMatch(/^REMOTE_USER=demo-bot$/m);
  });
});

describe('ARCHITECTURE §14: one git process per git-over-HTTP request, answered as git http-backend answers', () => {
  /** The processes git starts while `work` runs (git's own trace2 of every git process, children included), by their arguments. */
  async function gitStarts(work: () => Promise<void>): Promise<string[]> {
    // The server finds git on PATH: a git first on it that traces every git process it and its children start.
    const shim = join(tmp.path, `shim-${randomBytes(4).toString('hex')}`);
    const trace = join(shim, 'trace2.log');
    mkdirSync(shim);
    const realGit = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();
    writeFileSync(join(shim, 'git'), `#!/bin/sh\nGIT_TRACE2='${trace}' exec '${realGit}' "$@"\n`);
    chmodSync(join(shim, 'git'), 0o755);
    const path = process.env.PATH;
    process.env.PATH = `${shim}:${path ?? ''}`;
    try {
      await work();
    } finally {
      process.env.PATH = path;
    }
    if (!existsSync(trace)) return [];
    return [...readFileSync(trace, 'utf8').matchAll(/ start (.*)$/gm)].map((m) => m[1]!.replace(/^\S*git /, 'git '));
  }

  it('each request that reaches git starts upload-pack or receive-pack itself: no http-backend, one process per request', async () => {
    const fronts: string[][] = [];
    const unwatch = watchGitProcesses((args) => fronts.push([...args]), { front: true });
    const answered: string[] = [];
    const onRequest = (req: IncomingMessage, res: ServerResponse) => {
      res.on('finish', () => {
        if (res.statusCode === 200) answered.push(`${req.method} ${req.url}`);
      });
    };
    server.on('request', onRequest);
    try {
      // One request: the advertisement of protocol v0 is all ls-remote asks.
      const lsV0 = await gitStarts(async () => {
        const r = await gitClient(tmp.path, '-c', 'protocol.version=0', 'ls-remote', urlOf('app', 'tok-read-91bc'), 'refs/heads/development');
        expect(r.status, r.stderr).toBe(0);
      });
      expect(lsV0).toEqual([`git upload-pack --stateless-rpc --http-backend-info-refs ${repos.dir('demo', 'app')}`]);
      expect(answered).toEqual(['GET /demo/app.git/info/refs?service=git-upload-pack']);

      // A clone (v2: advertisement, ls-refs, fetch), then a push (advertisement, receive-pack).
      answered.length = 0;
      fronts.length = 0;
      const starts = await gitStarts(async () => {
        expect((await clone('app', 'tok-write-7f3a', 'one-process')).status).toBe(0);
        const dir = join(tmp.path, 'one-process');
        expect((await gitClient(dir, 'commit', '--quiet', '--allow-empty', '-m', 'one process')).status).toBe(0);
        const r = await gitClient(dir, 'push', '--quiet', 'origin', 'HEAD:refs/heads/one-process');
        expect(r.status, r.stderr).toBe(0);
      });
      expect(starts.filter((s) => /(^|\s|\/)(git-)?http-backend(\s|$)/.test(s))).toEqual([]);
      const services = starts.filter((s) => /^git (upload-pack|receive-pack) /.test(s));
      expect(answered.length).toBeGreaterThanOrEqual(5);
      expect(services).toHaveLength(answered.length);
      expect(fronts.map((a) => `git ${a.join(' ')}`)).toEqual(services);
    } finally {
      server.off('request', onRequest);
      unwatch();
    }
  });

  /** git http-backend's own answer to one CGI request on demo/app: its head's headers, and its body. */
  function httpBackend(
    method: 'GET' | 'POST',
    pathInfo: string,
    query: string,
    protocol: string | null,
    body = '',
  ): { headers: Record<string, string>; body: Buffer } {
    const out = spawnSync('git', ['http-backend'], {
      input: body,
      env: {
        PATH: process.env.PATH,
        HOME: '/nonexistent',
        GIT_CONFIG_GLOBAL: '/dev/null',
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_PROJECT_ROOT: repos.root,
        GIT_HTTP_EXPORT_ALL: '1',
        PATH_INFO: `/demo/app.git/${pathInfo}`,
        REQUEST_METHOD: method,
        QUERY_STRING: query,
        CONTENT_TYPE: method === 'POST' ? 'application/x-git-upload-pack-request' : '',
        REMOTE_USER: 'reader',
        REMOTE_ADDR: '127.0.0.1',
        GIT_CONFIG_COUNT: '1',
        GIT_CONFIG_KEY_0: 'receive.hideRefs',
        GIT_CONFIG_VALUE_0: 'refs/pull',
        ...(protocol !== null ? { GIT_PROTOCOL: protocol } : {}),
      },
    }).stdout;
    const end = out.indexOf('\r\n\r\n');
    const headers: Record<string, string> = {};
    for (const line of out.subarray(0, end).toString('latin1').split('\r\n')) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
    }
    return { headers, body: out.subarray(end + 4) };
  }

  function rawBytes(
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: Buffer,
  ): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
    return new Promise((resolve, reject) => {
      const { hostname, port } = new URL(base);
      const req = request({ hostname, port, path, method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  const CACHE_HEADERS = ['content-type', 'cache-control', 'expires', 'pragma'] as const;

  it('the advertisements of both services, in protocol v0 and v2, are byte for byte git http-backend’s, with its headers', async () => {
    for (const service of ['git-upload-pack', 'git-receive-pack'] as const) {
      for (const protocol of [null, 'version=1', 'version=2']) {
        const token = service === 'git-receive-pack' ? 'tok-write-7f3a' : 'tok-read-91bc';
        const ours = await rawBytes('GET', `/demo/app.git/info/refs?service=${service}`, {
          Authorization: basic(token),
          ...(protocol !== null ? { 'Git-Protocol': protocol } : {}),
        });
        const theirs = httpBackend('GET', 'info/refs', `service=${service}`, protocol);
        const label = `${service} ${protocol ?? 'v0'}`;
        expect(ours.status, label).toBe(200);
        for (const h of CACHE_HEADERS) expect(ours.headers[h], `${label} ${h}`).toBe(theirs.headers[h]);
        expect(ours.headers['content-type']).toBe(`application/x-${service}-advertisement`);
        expect(ours.headers['cache-control']).toBe('no-cache, max-age=0, must-revalidate');
        expect(ours.body.toString('latin1'), label).toBe(theirs.body.toString('latin1'));
        // The service line (and its flush) only where the client does not speak v2.
        expect(ours.body.toString('latin1').startsWith(`${service === 'git-upload-pack' ? '001e' : '001f'}# service=${service}\n0000`), label).toBe(
          protocol !== 'version=2',
        );
      }
    }
  });

  it('a service request is answered as git http-backend answers it: its result type, no caching, the same bytes; another type is its 415', async () => {
    const lsRefs = Buffer.from('0014command=ls-refs\n0000');
    const ours = await rawBytes(
      'POST',
      '/demo/app.git/git-upload-pack',
      { Authorization: basic('tok-read-91bc'), 'Content-Type': 'application/x-git-upload-pack-request', 'Git-Protocol': 'version=2' },
      lsRefs,
    );
    const theirs = httpBackend('POST', 'git-upload-pack', '', 'version=2', lsRefs.toString('latin1'));
    expect(ours.status).toBe(200);
    for (const h of CACHE_HEADERS) expect(ours.headers[h], h).toBe(theirs.headers[h]);
    expect(ours.headers['content-type']).toBe('application/x-git-upload-pack-result');
    expect(ours.body.toString('latin1')).toBe(theirs.body.toString('latin1'));
    expect(ours.body.toString('latin1')).toMatch(/refs\/heads\/development\n/);

    const wrong = await raw('POST', '/demo/app.git/git-upload-pack', { Authorization: basic('tok-read-91bc'), 'Content-Type': 'text/plain' }, lsRefs);
    expect(wrong.status).toBe(415);
    expect(wrong.body).toBe("Expected POST with Content-Type 'application/x-git-upload-pack-request', but received 'text/plain' instead.\n");
  });

  it('a git that ends with a failure and no answer is a 502, not an empty 200 (a folder that is no repository)', async () => {
    const any = createGitHttpHandler({ repos, pushLimitBytes: PUSH_LIMIT, access: async () => 'ok' });
    const s = createServer((req, res) => {
      void any(req, res);
    });
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    const broken = repos.dir('demo', 'broken');
    mkdirSync(join(broken, 'objects'), { recursive: true });
    writeFileSync(join(broken, 'HEAD'), 'not a ref\n');
    try {
      const at = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
      const r = await raw('GET', '/demo/broken.git/info/refs?service=git-upload-pack', {}, undefined, at);
      expect(r.status).toBe(502);
      expect(r.body).toBe('git ended without an answer.\n');
    } finally {
      await new Promise<void>((r) => s.close(() => r()));
    }
  });

  it('fetches in protocol v0 and v2 both bring the pushed commit; the push is logged under the pusher, as git http-backend names it', async () => {
    expect((await clone('app', 'tok-write-7f3a', 'versions-push')).status).toBe(0);
    const pusher = join(tmp.path, 'versions-push');
    expect((await gitClient(pusher, 'commit', '--quiet', '--allow-empty', '-m', 'for both versions')).status).toBe(0);
    expect((await gitClient(pusher, 'push', '--quiet', 'origin', 'HEAD:refs/heads/versions')).status).toBe(0);
    const sha = (await gitClient(pusher, 'rev-parse', 'HEAD')).stdout.trim();
    expect(bareGit(repos.dir('demo', 'app'), 'log', '-g', '-1', '--format=%gn <%ge>', 'refs/heads/versions')).toBe('demo-bot <demo-bot@http.127.0.0.1>');
    for (const v of ['0', '2']) {
      expect((await clone('app', 'tok-read-91bc', `versions-${v}`)).status).toBe(0);
      const dir = join(tmp.path, `versions-${v}`);
      const r = await gitClient(dir, '-c', `protocol.version=${v}`, 'fetch', '--quiet', 'origin', 'versions');
      expect(r.status, r.stderr).toBe(0);
      expect((await gitClient(dir, 'rev-parse', 'FETCH_HEAD')).stdout.trim()).toBe(sha);
    }
  });
});
