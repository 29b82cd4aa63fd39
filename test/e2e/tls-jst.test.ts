import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../packages/jst/src/config/load.js';
import { pushEnvFor } from '../../packages/jst/src/codehost/index.js';
import { localCertificates, parseSeed, startServer, type RunningServer } from '../../packages/tracker/src/index.js';
import { runJst, type CliResult } from '../support/jst-cli.js';
import { MULTISTEP } from './plan-fixture.js';
import { FIXTURE_GIT_ENV, git, makeRepo, setting, writeJstFiles, type TestRepo } from '../support/repo.js';
import { CODEHOST_TOKEN, EMAILS, testSeed, TOKENS, withCodehost } from '../support/seed.js';

/**
 * ARCHITECTURE §23 "TLS": jst against a jst-tracker served with `--tls` and its local authority:
 * the tracker (TRACKER_GATEWAY_URL) and the code host (CODEHOST_API_URL) at https://127.0.0.1:PORT,
 * trusted through NODE_EXTRA_CA_CERTS (Node reads it at start), and jst's git pushes trusting
 * CODEHOST_CA_FILE (GIT_SSL_CAINFO for the push). Without them, each fails on the certificate.
 */
const SLUG = 'acme/widgets';

function gitWith(cwd: string, env: NodeJS.ProcessEnv, ...args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd, env: { ...FIXTURE_GIT_ENV, ...env }, encoding: 'utf8' }, (error, stdout, stderr) =>
      resolve({ code: error ? 1 : 0, out: `${stdout}${stderr}` }),
    );
  });
}

describe('ARCHITECTURE §23: jst and its git pushes against jst-tracker --tls', () => {
  let root: string;
  let server: RunningServer;
  let ca: string;
  let repo: TestRepo;
  let bare: string;
  const printed: string[] = [];
  const jst = async (args: string[], env: Record<string, string>): Promise<CliResult> => {
    const r = await runJst(args, { cwd: repo.repo, env });
    printed.push(r.stdout, r.stderr);
    return r;
  };

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'jst-tls-e2e-'));
    const tls = localCertificates(join(root, 'tls-data'));
    ca = tls.caFile!;
    const repos = join(root, 'repos');
    server = await startServer({ port: 0, dataDir: join(root, 'data'), repos, seed: parseSeed(withCodehost(testSeed())), tls });
    expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    bare = join(repos, `${SLUG}.git`);
    repo = makeRepo({ codehost: { gitUrl: `${server.url}/${SLUG}.git`, bare } });
    writeJstFiles(repo.repo, {
      trackerUrl: server.url,
      codehostUrl: `${server.url}/api/v3`,
      worktreesDir: repo.worktreesDir,
      local: setting('CODEHOST_CA_FILE', ca),
    });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    repo?.cleanup();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('jst raw reaches the tracker over https with NODE_EXTRA_CA_CERTS; without it, a certificate error and no token shown', async () => {
    const r = await jst(['--role', 'assigner', 'raw', 'GET', '/myself'], { NODE_EXTRA_CA_CERTS: ca });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).emailAddress).toBe(EMAILS.assigner);
    const refused = await jst(['--role', 'assigner', 'raw', 'GET', '/myself'], {});
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/certificate/i);
  });

  it('jst healthcheck reads the tracker and origin’s repository on the code host over https', async () => {
    const r = await jst(['healthcheck', '--role', 'executor', '--json'], { NODE_EXTRA_CA_CERTS: ca });
    const rows = JSON.parse(r.stdout).rows as { name: string; status: string; detail: string }[];
    expect(rows.find((x) => x.name === 'tracker_login')?.status).toBe('PASS');
    expect(rows.find((x) => x.name === 'codehost_login')).toMatchObject({ status: 'PASS', detail: expect.stringContaining(`read ${SLUG}`) });
  });

  it('jst plan and jst start (git fetch, ls-remote, pull, push with origin) trust CODEHOST_CA_FILE over the GIT_SSL_CAINFO a machine exports', async () => {
    const machine = { NODE_EXTRA_CA_CERTS: ca, GIT_SSL_CAINFO: '/etc/ssl/certs/ca-certificates.crt' };
    const planFile = join(root, 'plan.json');
    writeFileSync(planFile, JSON.stringify({ ...MULTISTEP, steps: MULTISTEP.steps.slice(0, 2) }));
    const plan = await jst(['plan', '--plan', planFile, '--json'], machine);
    expect(plan.code, plan.stderr).toBe(0);
    const { branches, worktrees } = JSON.parse(plan.stdout) as { branches: string[]; worktrees: string[] };
    // The top branch reached origin over TLS.
    expect(git(bare, 'branch', '--list', branches[0]!)).not.toBe('');
    const start = await runJst(['start'], { cwd: worktrees[1]!, env: machine });
    printed.push(start.stdout, start.stderr);
    expect(start.code, start.stderr).toBe(0);
    expect(start.stderr).toContain('→ git fetch origin');
    expect(git(bare, 'branch', '--list', branches[1]!)).not.toBe('');
  });

  it('a push as jst makes it (pushEnvFor) trusts CODEHOST_CA_FILE, even over a GIT_SSL_CAINFO the machine exports; without the setting git refuses the certificate', async () => {
    git(repo.repo, 'checkout', '--quiet', '-B', 'feature/ABC-1-tls', 'development');
    writeFileSync(join(repo.repo, 'tls.txt'), 'over TLS\n');
    git(repo.repo, 'add', 'tls.txt');
    git(repo.repo, 'commit', '--quiet', '-m', 'over TLS');
    const machine = { GIT_SSL_CAINFO: '/etc/ssl/certs/ca-certificates.crt' };
    const config = loadConfig({ cwd: repo.repo, env: {} });
    const env = await pushEnvFor(config, 'executor', { ...FIXTURE_GIT_ENV, ...machine }, repo.repo);
    expect(env.GIT_SSL_CAINFO).toBe(ca);
    const pushed = await gitWith(repo.repo, env, 'push', '--quiet', 'origin', 'feature/ABC-1-tls');
    expect(pushed.code, pushed.out).toBe(0);
    expect(git(bare, 'rev-parse', 'refs/heads/feature/ABC-1-tls')).toBe(git(repo.repo, 'rev-parse', 'HEAD'));

    const without = loadConfig({ cwd: repo.repo, env: { CODEHOST_CA_FILE: '' } });
    const plain = await pushEnvFor(without, 'executor', { ...FIXTURE_GIT_ENV, ...machine }, repo.repo);
    writeFileSync(join(repo.repo, 'tls.txt'), 'again\n');
    git(repo.repo, 'commit', '--quiet', '-am', 'again');
    const refused = await gitWith(repo.repo, plain, 'push', '--quiet', 'origin', 'feature/ABC-1-tls');
    expect(refused.code).toBe(1);
    expect(refused.out).toMatch(/certificate|SSL/i);
    expect(refused.out).not.toContain(CODEHOST_TOKEN);
  });

  it('no token in anything jst printed', () => {
    const all = printed.join('\n');
    for (const token of [...Object.values(TOKENS), CODEHOST_TOKEN]) expect(all).not.toContain(token);
  });
});
