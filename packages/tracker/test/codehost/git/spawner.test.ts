import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitCommandError } from '../../../src/codehost/git/errors.js';
import { runGit } from '../../../src/codehost/git/run.js';
import { gitHelperPid } from '../../../src/codehost/git/spawner.js';
import { buildTrackerDist, git, tempDir } from './support.js';
import { pollUntil, processAlive } from '../../../../../test/support/processes.js';

/**
 * git/spawner.ts: the code host's REST and pages start git through a small helper process, not
 * from the server (fork() from a large process is slow and blocks its event loop). What runGit
 * promised before holds through the helper: the time limit and the kill, the output cap, the input,
 * binary output, exit codes; and the helper carries none of the server's environment, survives
 * nothing of its parent, and is replaced when it dies.
 */

const tmp = tempDir('jst-spawner-');
afterAll(() => tmp.cleanup());
beforeAll(() => buildTrackerDist(), 120_000);

const alive = processAlive;
/** Waits for `cond`, failing the test when it does not come true in 5 s. */
async function until(cond: () => boolean): Promise<void> {
  expect(await pollUntil(cond)).toBe(true);
}

let n = 0;
/** A folder holding a `git` that runs this shell script; returns a PATH with it first. */
function fakeGit(script: string): string {
  const bin = join(tmp.path, `bin-${++n}`);
  mkdirSync(bin);
  writeFileSync(join(bin, 'git'), `#!/bin/sh\n${script}\n`);
  chmodSync(join(bin, 'git'), 0o755);
  return `${bin}:${process.env.PATH ?? ''}`;
}

describe('git processes started by the helper process (ARCHITECTURE §14)', () => {
  it('git is started by the helper, a child of this process, not by this process', async () => {
    const out = await runGit(null, ['version'], { timeoutMs: 10_000, env: { PATH: fakeGit('echo "$PPID"') } });
    const helper = gitHelperPid();
    expect(helper).toBeTypeOf('number');
    expect(Number(out.stdout.toString('utf8').trim())).toBe(helper);
    expect(helper).not.toBe(process.pid);
  });

  it('JST_GIT_HELPER=off starts git from this process', async () => {
    process.env.JST_GIT_HELPER = 'off';
    try {
      const out = await runGit(null, ['version'], { timeoutMs: 10_000, env: { PATH: fakeGit('echo "$PPID"') } });
      expect(Number(out.stdout.toString('utf8').trim())).toBe(process.pid);
    } finally {
      delete process.env.JST_GIT_HELPER;
    }
  });

  it('the input reaches git, binary output comes back byte for byte, and exit codes are as git gave them', async () => {
    const bare = join(tmp.path, 'bytes.git');
    git(tmp.path, 'init', '--quiet', '--bare', bare);
    const bytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7919) % 256));
    const sha = (await runGit(bare, ['hash-object', '-w', '--stdin'], { timeoutMs: 10_000, input: bytes })).stdout.toString('utf8').trim();
    expect(sha).toMatch(/^[0-9a-f]{40}$/);
    const back = await runGit(bare, ['cat-file', 'blob', sha], { timeoutMs: 10_000 });
    expect(Buffer.isBuffer(back.stdout)).toBe(true);
    expect(back.stdout.equals(bytes)).toBe(true);
    await expect(runGit(bare, ['rev-parse', '--verify', 'no-such-ref'], { timeoutMs: 10_000 })).rejects.toThrow(GitCommandError);
    const answered = await runGit(bare, ['rev-parse', '--verify', '--quiet', 'no-such-ref'], { timeoutMs: 10_000, okCodes: [1] });
    expect(answered.code).toBe(1);
  });

  it('many at once each get their own answer', async () => {
    const path = fakeGit('echo "answer $1"');
    const answers = await Promise.all(Array.from({ length: 24 }, (_, i) => runGit(null, [`n${i}`], { timeoutMs: 10_000, env: { PATH: path } })));
    expect(answers.map((a) => a.stdout.toString('utf8').trim())).toEqual(Array.from({ length: 24 }, (_, i) => `answer n${i}`));
  });

  it('a git over its time limit is killed and reported as timed out', async () => {
    const pidFile = join(tmp.path, 'slow.pid');
    const path = fakeGit(`echo $$ > ${pidFile}; exec sleep 30`);
    const started = Date.now();
    await expect(runGit(null, ['log'], { timeoutMs: 300, env: { PATH: path } })).rejects.toThrow(/git log \(timed out after 300 ms\)/);
    expect(Date.now() - started).toBeLessThan(5000);
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    await until(() => !alive(pid));
  });

  it('output over the cap fails, or with stopAtMax answers overflowed with nothing half-read', async () => {
    const path = fakeGit('head -c 200000 /dev/zero');
    await expect(runGit(null, ['diff'], { timeoutMs: 10_000, env: { PATH: path }, maxOutputBytes: 1000 })).rejects.toThrow(
      /git diff \(output over 1000 bytes\)/,
    );
    const r = await runGit(null, ['diff'], { timeoutMs: 10_000, env: { PATH: path }, maxOutputBytes: 1000, stopAtMax: true });
    expect(r.overflowed).toBe(true);
    expect(r.stdout.length).toBe(0);
  });

  it('no git on the PATH is the spawn error, as before', async () => {
    const empty = join(tmp.path, 'empty-bin');
    mkdirSync(empty);
    await expect(runGit(null, ['version'], { timeoutMs: 10_000, env: { PATH: empty } })).rejects.toThrow(/ENOENT/);
  });

  it.skipIf(!existsSync('/proc/self/environ'))('the helper holds none of this process environment (it may hold secrets)', async () => {
    process.env.JST_SPAWNER_TEST_SECRET = 'not-for-the-helper';
    try {
      await runGit(null, ['version'], { timeoutMs: 10_000 });
      const environ = readFileSync(`/proc/${gitHelperPid()}/environ`, 'utf8');
      expect(environ).not.toContain('not-for-the-helper');
      expect(environ).not.toContain('PATH=');
      // It is named for ps and top, not shown as its whole program text.
      expect(readFileSync(`/proc/${gitHelperPid()}/cmdline`, 'utf8')).toMatch(/^jst-tracker git helper/);
    } finally {
      delete process.env.JST_SPAWNER_TEST_SECRET;
    }
  });

  it('a helper that dies fails what waits on it as a git failure, and the next call starts another', async () => {
    const pidFile = join(tmp.path, 'waiting.pid');
    const waiting = runGit(null, ['fetch'], { timeoutMs: 20_000, env: { PATH: fakeGit(`echo $$ > ${pidFile}; exec sleep 30`) } });
    await until(() => existsSync(pidFile));
    const first = gitHelperPid()!;
    process.kill(first, 'SIGKILL');
    await expect(waiting).rejects.toThrow(/git fetch \(the git helper process exited \(SIGKILL\)\)/);
    const out = await runGit(null, ['version'], { timeoutMs: 10_000, env: { PATH: fakeGit('echo "$PPID"') } });
    expect(gitHelperPid()).not.toBe(first);
    expect(Number(out.stdout.toString('utf8').trim())).toBe(gitHelperPid());
  });

  it('a helper whose parent is killed (SIGKILL) ends its git processes and itself', async () => {
    const pidFile = join(tmp.path, 'orphan.pid');
    const path = fakeGit(`echo $$ > ${pidFile}; exec sleep 60`);
    const parent = spawn(process.execPath, [fileURLToPath(new URL('./fixtures/helper-parent.mjs', import.meta.url)), path], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const helper = await new Promise<number>((resolve, reject) => {
      parent.stdout.setEncoding('utf8').once('data', (d: string) => resolve(Number(d.trim())));
      parent.once('exit', () => reject(new Error('the parent exited first')));
    });
    await until(() => existsSync(pidFile));
    const gitPid = Number(readFileSync(pidFile, 'utf8').trim());
    expect(alive(helper)).toBe(true);
    expect(alive(gitPid)).toBe(true);
    parent.kill('SIGKILL');
    await until(() => !alive(helper) && !alive(gitPid));
  });
});
