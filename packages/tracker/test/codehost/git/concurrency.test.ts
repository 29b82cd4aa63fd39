import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BareRepos, RefMovedError, type MergeMethod } from '../../../src/codehost/git/repos.js';
import { bareGit, buildTrackerDist, FIXTURE_GIT_ENV, fileAt, isAncestor, tempDir, Work } from './support.js';

/**
 * ARCHITECTURE §14: a merge is published with an atomic ref update from the expected old value,
 * so two merges, or a merge and a push, never lose a commit — in one process and across several
 * processes sharing one --repos folder.
 */

const WORKER = fileURLToPath(new URL('./fixtures/merge-worker.mjs', import.meta.url));
const METHODS: MergeMethod[] = ['merge', 'squash', 'rebase'];

const tmp = tempDir('jst-git-race-');
const repos = new BareRepos(join(tmp.path, 'repos'));
afterAll(() => {
  repos.close();
  tmp.cleanup();
});
let n = 0;

// The worker processes run the built code.
beforeAll(() => buildTrackerDist(), 120_000);

interface Job {
  headSha: string;
  method: MergeMethod;
  file: string;
}
interface Outcome extends Job {
  sha?: string;
  error?: string;
  message?: string;
}

/** A repository whose `development` has one commit and `count` branches from it, each adding its own file in two commits. */
async function branchesRepo(count: number): Promise<{ name: string; bare: string; work: Work; jobs: Job[] }> {
  const name = `race${++n}`;
  await repos.ensure('demo', name, 'development');
  const bare = repos.dir('demo', name);
  const work = Work.clone(bare, join(tmp.path, `work-${name}`), 'development');
  work.commit({ 'README.md': '# race\n' }, 'initial');
  work.push('development');
  const jobs: Job[] = [];
  for (let i = 0; i < count; i++) {
    work.branch(`feature/R-${i}`, 'origin/development');
    work.commit({ [`f${i}.txt`]: 'first\n' }, `f${i} first`);
    const headSha = work.commit({ [`f${i}.txt`]: `content ${i}\n` }, `f${i} second`);
    jobs.push({ headSha, method: METHODS[i % METHODS.length]!, file: `f${i}.txt` });
  }
  work.push(...jobs.map((_, i) => `feature/R-${i}`));
  return { name, bare, work, jobs };
}

/** How many loose objects a bare repository holds (a merge in progress writes some). */
function looseObjects(bare: string): number {
  const objects = join(bare, 'objects');
  return readdirSync(objects)
    .filter((d) => /^[0-9a-f]{2}$/.test(d))
    .reduce((sum, d) => sum + readdirSync(join(objects, d)).length, 0);
}

/** Every merge that returned a SHA is in the base, and every change it merged is in the base's tree. */
function checkNothingLost(bare: string, outcomes: Outcome[]): { merged: number } {
  const tip = bareGit(bare, 'rev-parse', 'refs/heads/development');
  let merged = 0;
  for (const o of outcomes) {
    if (o.sha === undefined) {
      expect(o.error, o.message).toBe('RefMovedError');
      continue;
    }
    merged += 1;
    expect(isAncestor(bare, o.sha, tip), `${o.method} ${o.file} ${o.sha}`).toBe(true);
    if (o.method === 'merge') expect(isAncestor(bare, o.headSha, tip)).toBe(true);
    const i = o.file.slice(1, -4);
    expect(fileAt(bare, tip, o.file), o.file).toBe(`content ${i}\n`);
  }
  // A RefMovedError merged nothing: its file is not in the base.
  for (const o of outcomes) if (o.sha === undefined) expect(fileAt(bare, tip, o.file)).toBeNull();
  return { merged };
}

describe('ARCHITECTURE §14: concurrent merges into one base never lose a commit', () => {
  it('in one process: 9 merges (merge, squash, rebase) at once all land, each an ancestor of the base', async () => {
    const { bare, name, jobs } = await branchesRepo(9);
    const who = { name: 'Racer', email: 'racer@example.test' };
    const outcomes: Outcome[] = await Promise.all(
      jobs.map(async (job) => {
        try {
          const { sha } = await repos.merge('demo', name, {
            baseBranch: 'development',
            headSha: job.headSha,
            method: job.method,
            title: `Merge ${job.file}`,
            message: '',
            author: who,
            committer: who,
          });
          return { ...job, sha };
        } catch (e) {
          if (!(e instanceof RefMovedError)) throw e;
          return { ...job, error: e.name, message: e.message };
        }
      }),
    );
    const { merged } = checkNothingLost(bare, outcomes);
    expect(merged).toBe(jobs.length);
    // One ref update per merge: the reflog shows every one published from its expected old value.
    expect(
      bareGit(bare, 'reflog', 'show', '--format=%gs', 'refs/heads/development')
        .split('\n')
        .filter((l) => l.startsWith('merge ')).length,
    ).toBe(jobs.length);
  });

  it('in several processes over one repository folder: 4 processes × 3 merges, then merge-base --is-ancestor for every SHA returned', async () => {
    const { bare, jobs } = await branchesRepo(12);
    const name = bare
      .split('/')
      .pop()!
      .replace(/\.git$/, '');
    const groups = [0, 1, 2, 3].map((p) => jobs.filter((_, i) => i % 4 === p));
    const outputs = await Promise.all(
      groups.map(
        (group) =>
          new Promise<Outcome[]>((resolve, reject) => {
            const child = spawn(process.execPath, [WORKER, repos.root, 'demo', name, JSON.stringify(group)], { stdio: ['ignore', 'pipe', 'pipe'] });
            let out = '';
            let err = '';
            child.stdout.on('data', (c: Buffer) => {
              out += c.toString('utf8');
            });
            child.stderr.on('data', (c: Buffer) => {
              err += c.toString('utf8');
            });
            child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out) as Outcome[]) : reject(new Error(`worker exited ${code}: ${err}`))));
          }),
      ),
    );
    const outcomes = outputs.flat();
    expect(outcomes).toHaveLength(12);
    const { merged } = checkNothingLost(bare, outcomes);
    expect(merged).toBeGreaterThanOrEqual(10);
  });

  it('several processes creating one repository at once all succeed and leave one complete repository', async () => {
    const ensureWorker = fileURLToPath(new URL('./fixtures/ensure-worker.mjs', import.meta.url));
    const codes = await Promise.all(
      [0, 1, 2, 3, 4, 5].map(
        () =>
          new Promise<number>((resolve) => {
            const child = spawn(process.execPath, [ensureWorker, repos.root, 'shared', 'made-at-once', 'main'], { stdio: 'ignore' });
            child.on('close', (code) => resolve(code ?? -1));
          }),
      ),
    );
    expect(codes).toEqual([0, 0, 0, 0, 0, 0]);
    expect(readdirSync(join(repos.root, 'shared'))).toEqual(['made-at-once.git']);
    expect(bareGit(repos.dir('shared', 'made-at-once'), 'symbolic-ref', 'HEAD')).toBe('refs/heads/main');
    expect(bareGit(repos.dir('shared', 'made-at-once'), 'config', 'http.receivepack')).toBe('true');
  });

  it('a push that moves the base during a merge: the merge is recomputed on the pushed commit, and both are kept', async () => {
    const name = `race${++n}`;
    await repos.ensure('demo', name, 'development');
    const bare = repos.dir('demo', name);
    const work = Work.clone(bare, join(tmp.path, `work-${name}`), 'development');
    const start = work.commit({ 'README.md': '# race\n' }, 'initial');
    work.push('development');
    // A long rebase (40 commits replayed one by one) gives the pushes time to land during it.
    work.branch('feature/long', 'development');
    let head = '';
    for (let i = 0; i < 40; i++) head = work.commit({ [`long/${i}.txt`]: `${i}\n` }, `long ${i}`);
    work.push('feature/long');

    const pusher = Work.clone(bare, join(tmp.path, `pusher-${name}`), 'development');
    pusher.git('fetch', '--quiet', 'origin');
    pusher.branch('development', 'origin/development');
    const who = { name: 'Racer', email: 'racer@example.test' };
    const objectsBefore = looseObjects(bare);
    const merging = repos.merge('demo', name, {
      baseBranch: 'development',
      headSha: head,
      method: 'rebase',
      title: 'long',
      message: '',
      author: who,
      committer: who,
    });
    // Push once the rebase has begun writing its commits (new objects appear), so the base moves under it.
    for (let i = 0; i < 2000 && looseObjects(bare) <= objectsBefore; i++) await new Promise((r) => setTimeout(r, 2));
    expect(looseObjects(bare)).toBeGreaterThan(objectsBefore);
    const pushed: string[] = [];
    for (let i = 0; i < 3; i++) {
      pushed.push(pusher.commit({ [`pushed${i}.txt`]: `${i}\n` }, `pushed ${i}`));
      await new Promise<void>((resolve, reject) => {
        const child = spawn('git', ['push', '--quiet', 'origin', 'development'], { cwd: pusher.dir, env: FIXTURE_GIT_ENV });
        child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`push ${i} failed (${code})`))));
      });
    }
    const { sha } = await merging;
    const tip = bareGit(bare, 'rev-parse', 'refs/heads/development');
    expect(tip).toBe(sha);
    for (const p of pushed) expect(isAncestor(bare, p, tip)).toBe(true);
    // The replayed commits sit on the last pushed commit, not on the base the merge started from.
    const bottom = bareGit(bare, 'rev-list', '--reverse', `${pushed[2]}..${tip}`).split('\n')[0]!;
    expect(bareGit(bare, 'log', '-1', '--format=%P', bottom)).toBe(pushed[2]);
    expect(bareGit(bare, 'rev-list', '--count', `${start}..${tip}`)).toBe('43');
    for (let i = 0; i < 40; i++) expect(fileAt(bare, tip, `long/${i}.txt`)).toBe(`${i}\n`);
  });
});
