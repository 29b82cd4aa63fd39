import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onRefsUpdated, type RefsUpdatedVia } from '../../src/codehost/domain/pushes.js';
import { isConversationProcess } from '../../src/codehost/git/conversation.js';
import { watchGitProcesses } from '../../src/codehost/git/run.js';
import { FIXTURE_GIT_ENV, git } from '../../../../test/support/repo.js';
import { storeKinds } from '../../../../test/support/tracker.js';
import { CH_TOKENS, OWNER, REPO, refusal, startCodehostServer, type CodehostServer } from './support.js';

/**
 * ARCHITECTURE §14 "Refs and figures from the database": the pull request list and its head
 * filter read the branches' commits from the database, never from git; a pull request's figures
 * are computed once per (base, head) commits and recomputed only when a push moved one of them.
 * git's processes are counted where they start (git/run.ts watchGitProcesses), not mocked.
 */
const o = { owner: OWNER, repo: REPO };

/**
 * The git commands a request started, less the repository's conversation (git/conversation.ts:
 * `cat-file --batch-check`, `hash-object --stdin-paths` and `update-ref --stdin`, started once and
 * kept for the next merges; the conversation's own test counts those).
 */
const started = (git: string[][]) => git.filter((args) => !isConversationProcess(args)).map((args) => args[0]);

function tryGit(cwd: string, ...args: string[]): Promise<{ status: number; out: string }> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd, env: FIXTURE_GIT_ENV, encoding: 'utf8', timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ status: error ? (typeof error.code === 'number' ? error.code : 1) : 0, out: `${stdout}${stderr}` });
    });
  });
}

describe.each(await storeKinds())('ARCHITECTURE §14: reads from the database, figures kept per commits (%s)', (kind) => {
  let ch: CodehostServer;
  let tmp: string;
  let dir: string;
  const ran: string[][] = [];
  let unwatch: () => void = () => undefined;
  /** The git processes `work` starts. */
  const gitDuring = async <T>(work: () => Promise<T>): Promise<{ result: T; git: string[][] }> => {
    ran.length = 0;
    const result = await work();
    return { result, git: [...ran] };
  };

  beforeAll(async () => {
    ch = await startCodehostServer(kind);
    unwatch = watchGitProcesses((args) => ran.push([...args]));
    tmp = mkdtempSync(join(tmpdir(), 'jst-codehost-reads-'));
    dir = join(tmp, 'clone');
    const u = new URL(`${ch.url}/${OWNER}/${REPO}.git`);
    u.username = 'x-access-token';
    u.password = CH_TOKENS.ada;
    expect((await tryGit(tmp, 'clone', '--quiet', u.toString(), dir)).status).toBe(0);
    git(dir, 'config', 'user.name', 'Ada');
    git(dir, 'config', 'user.email', 'ada@example.test');
  });
  afterAll(async () => {
    unwatch();
    await ch?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('GET /pulls?head= answers the heads pushed since, and runs no git process', async () => {
    ch.commit('feature/R-1', { 'r.txt': 'one\n' });
    const { data: pr } = await ch.as('ada').rest.pulls.create({ ...o, title: 'reads', head: 'feature/R-1', base: 'main' });
    expect((await tryGit(dir, 'fetch', '--quiet', 'origin')).status).toBe(0);
    git(dir, 'checkout', '--quiet', '-B', 'feature/R-1', 'origin/feature/R-1');
    writeFileSync(join(dir, 'r.txt'), 'two\n');
    git(dir, 'commit', '--quiet', '-am', 'two');
    const pushed = git(dir, 'rev-parse', 'HEAD');
    expect((await tryGit(dir, 'push', '--quiet', 'origin', 'feature/R-1')).status).toBe(0);
    const { result, git: processes } = await gitDuring(() => ch.as('ada').rest.pulls.list({ ...o, head: `${OWNER}:feature/R-1` }));
    expect(result.data.map((p) => [p.number, p.head.sha, p.base.sha])).toEqual([[pr.number, pushed, git(ch.bare, 'rev-parse', 'main')]]);
    expect(processes).toEqual([]);
  });

  it('with 50 open pull requests the list and its head filter still run no git process', async () => {
    for (let i = 0; i < 50; i++) git(dir, 'branch', '--force', `feature/MANY-${i}`, 'origin/feature/R-1');
    // One push of 50 branches (one receive-pack), recorded at once.
    expect((await tryGit(dir, 'push', '--quiet', 'origin', ...Array.from({ length: 50 }, (_, i) => `feature/MANY-${i}`))).status).toBe(0);
    for (let i = 0; i < 50; i++) await ch.as('ada').rest.pulls.create({ ...o, title: `many ${i}`, head: `feature/MANY-${i}`, base: 'main' });
    const list = await gitDuring(() => ch.as('ada').rest.pulls.list({ ...o, per_page: 100 }));
    expect(list.result.data.length).toBeGreaterThanOrEqual(51);
    expect(list.git).toEqual([]);
    const one = await gitDuring(() => ch.as('ada').rest.pulls.list({ ...o, head: `${OWNER}:feature/MANY-7` }));
    expect(one.result.data.map((p) => p.title)).toEqual(['many 7']);
    expect(one.git).toEqual([]);
  });

  it('a push made straight into the repository folder is seen by the next read, told with no pusher', async () => {
    const told: { login: string | null; via: RefsUpdatedVia; refs: string[] }[] = [];
    const off = onRefsUpdated(ch.server.codehost.host, (_h, _r, pusher, updates, via) => {
      told.push({ login: pusher?.login ?? null, via, refs: updates.map((u) => u.ref) });
    });
    try {
      const sha = ch.commit('feature/R-1', { 'r.txt': 'three\n' }, 'three');
      const { data } = await ch.as('ada').rest.pulls.list({ ...o, head: `${OWNER}:feature/R-1` });
      expect(data[0]!.head.sha).toBe(sha);
      expect(told).toEqual([{ login: null, via: 'outside', refs: ['refs/heads/feature/R-1'] }]);
    } finally {
      off();
    }
  });

  it('figures are computed once per (base, head): a second read runs no git; a push to the head or the base recomputes them', async () => {
    ch.commit('stats-base', { 'base.txt': 'base\n' });
    ch.commit('feature/ST-1', { 'a.txt': 'a\nb\n' }, 'first', 'stats-base');
    const { data: pr } = await ch.as('ada').rest.pulls.create({ ...o, title: 'stats', head: 'feature/ST-1', base: 'stats-base' });
    expect([pr.commits, pr.additions, pr.deletions, pr.changed_files]).toEqual([1, 2, 0, 1]);
    const again = await gitDuring(() => ch.as('ada').rest.pulls.get({ ...o, pull_number: pr.number }));
    expect(again.git).toEqual([]);
    expect([again.result.data.commits, again.result.data.mergeable]).toEqual([1, true]);

    // The head moves: two commits now, one more file, a line changed.
    ch.commit('feature/ST-1', { 'a.txt': 'a\nB\n', 'c.txt': 'c\n' }, 'second');
    const moved = (await ch.as('ada').rest.pulls.get({ ...o, pull_number: pr.number })).data;
    expect([moved.commits, moved.additions, moved.deletions, moved.changed_files, moved.mergeable]).toEqual([2, 3, 0, 2, true]);

    // The base moves under it with a conflicting a.txt: not mergeable any more, its own figures unchanged.
    ch.commit('stats-base', { 'a.txt': 'conflict\n' }, 'base conflict');
    const based = (await ch.as('ada').rest.pulls.get({ ...o, pull_number: pr.number })).data;
    expect(based.mergeable).toBe(false);
    expect(based.mergeable_state).toBe('dirty');
    expect([based.commits, based.changed_files]).toEqual([2, 2]);
    const kept = await gitDuring(() => ch.as('ada').rest.pulls.get({ ...o, pull_number: pr.number }));
    expect(kept.git).toEqual([]);
  });

  it('a repository without webhooks: a push runs no git process of the code host; a merge onto an unmoved base starts no process of its own', async () => {
    // The webhooks' payloads (a push's commits, a pull request's figures) are git's work: made only for a hook that hears the event.
    git(dir, 'checkout', '--quiet', '-B', 'feature/QUIET-1', 'origin/main');
    writeFileSync(join(dir, 'quiet.txt'), 'quiet\n');
    git(dir, 'add', 'quiet.txt');
    git(dir, 'commit', '--quiet', '-m', 'quiet');
    const pushed = await gitDuring(() => tryGit(dir, 'push', '--quiet', 'origin', 'feature/QUIET-1'));
    expect(pushed.result.status).toBe(0);
    expect(pushed.git).toEqual([]);
    // And a push that moves it: recorded from the row it started at, with no git asked.
    writeFileSync(join(dir, 'quiet.txt'), 'quieter\n');
    git(dir, 'commit', '--quiet', '-am', 'quieter');
    const moved = await gitDuring(() => tryGit(dir, 'push', '--quiet', 'origin', 'feature/QUIET-1'));
    expect(moved.result.status).toBe(0);
    expect(moved.git).toEqual([]);
    const { data: pr } = await ch.as('ada').rest.pulls.create({ ...o, title: 'quiet', head: 'feature/QUIET-1', base: 'main' });
    // The base has not moved since the branch left it: the figures kept at POST /pulls say so (no merge-tree, there or here).
    expect(pr.mergeable).toBe(true);
    const merged = await gitDuring(() => ch.as('ada').rest.pulls.merge({ ...o, pull_number: pr.number }));
    expect(merged.result.data.merged).toBe(true);
    expect(started(merged.git)).toEqual([]);
    // A merge commit of both, with head's tree.
    const sha = merged.result.data.sha;
    expect(git(ch.bare, 'rev-parse', `${sha}^1`, `${sha}^2`)).toBe(`${pr.base.sha}\n${pr.head.sha}`);
    expect(git(ch.bare, 'rev-parse', `${sha}^{tree}`)).toBe(git(ch.bare, 'rev-parse', `${pr.head.sha}^{tree}`));
  });

  it('a base that moved since the branch left it: POST /pulls asks merge-tree, the merge takes the tree it wrote, and a conflict is still refused', async () => {
    ch.commit('moved-base', { 'm.txt': 'base\n' });
    ch.commit('feature/MOVED-1', { 'm.txt': 'head\n' }, 'head side', 'moved-base');
    ch.commit('feature/MOVED-2', { 'n.txt': 'other\n' }, 'clean side', 'moved-base');
    ch.commit('moved-base', { 'm.txt': 'base moved\n' }, 'base moves');
    const conflicting = await gitDuring(() => ch.as('ada').rest.pulls.create({ ...o, title: 'moved', head: 'feature/MOVED-1', base: 'moved-base' }));
    expect(conflicting.git.map((args) => args[0])).toContain('merge-tree');
    expect([conflicting.result.data.mergeable, conflicting.result.data.mergeable_state]).toEqual([false, 'dirty']);
    const refused = await refusal(ch.as('ada').rest.pulls.merge({ ...o, pull_number: conflicting.result.data.number }));
    expect(refused.status).toBe(405);
    const { data: clean } = await ch.as('ada').rest.pulls.create({ ...o, title: 'moved clean', head: 'feature/MOVED-2', base: 'moved-base' });
    expect(clean.mergeable).toBe(true);
    // The base has not moved since POST /pulls: the merged tree merge-tree wrote then is the merge's.
    const merged = await gitDuring(() => ch.as('ada').rest.pulls.merge({ ...o, pull_number: clean.number }));
    expect(started(merged.git)).toEqual([]);
    const sha = merged.result.data.sha;
    const tree = git(ch.bare, 'ls-tree', '--name-only', sha);
    expect(tree.split('\n')).toEqual(expect.arrayContaining(['m.txt', 'n.txt']));
    expect(git(ch.bare, 'show', `${sha}:m.txt`)).toBe('base moved');
    expect(git(ch.bare, 'rev-parse', `${sha}^1`, `${sha}^2`)).toBe(`${clean.base.sha}\n${clean.head.sha}`);
    expect(git(ch.bare, 'rev-parse', `${sha}^{tree}`)).toBe(git(ch.bare, 'merge-tree', '--write-tree', clean.base.sha, clean.head.sha));
  });

  it('a base that moved after POST /pulls: the kept tree is of other commits, and the merge asks merge-tree again', async () => {
    ch.commit('later-base', { 'l.txt': 'base\n' });
    ch.commit('feature/LATER-1', { 'h.txt': 'head\n' }, 'head side', 'later-base');
    ch.commit('later-base', { 'l.txt': 'base moved\n' }, 'base moves');
    const { data: pr } = await ch.as('ada').rest.pulls.create({ ...o, title: 'later', head: 'feature/LATER-1', base: 'later-base' });
    expect(pr.mergeable).toBe(true);
    ch.commit('later-base', { 'k.txt': 'moved again\n' }, 'base moves again');
    const merged = await gitDuring(() => ch.as('ada').rest.pulls.merge({ ...o, pull_number: pr.number }));
    expect(started(merged.git)).toEqual(['merge-tree']);
    expect(git(ch.bare, 'ls-tree', '--name-only', merged.result.data.sha).split('\n')).toEqual(expect.arrayContaining(['h.txt', 'k.txt', 'l.txt']));
    expect(git(ch.bare, 'fsck', '--no-dangling')).toBe('');
  });

  it('a kept merged tree that git no longer has: the merge is made again from git (merge-tree), never a commit of a missing tree', async () => {
    ch.commit('pruned-base', { 'p.txt': 'base\n' });
    ch.commit('feature/PRUNED-1', { 'q.txt': 'head\n' }, 'head side', 'pruned-base');
    ch.commit('pruned-base', { 'p.txt': 'base moved\n' }, 'base moves');
    const { data: pr } = await ch.as('ada').rest.pulls.create({ ...o, title: 'pruned', head: 'feature/PRUNED-1', base: 'pruned-base' });
    // The tree POST /pulls had merge-tree write: unreferenced, a loose object that gc may prune.
    const kept = git(ch.bare, 'merge-tree', '--write-tree', pr.base.sha, pr.head.sha);
    rmSync(join(ch.bare, 'objects', kept.slice(0, 2), kept.slice(2)));
    expect((await tryGit(ch.bare, 'cat-file', '-e', kept)).status).not.toBe(0);
    const merged = await gitDuring(() => ch.as('ada').rest.pulls.merge({ ...o, pull_number: pr.number }));
    expect(merged.result.data.merged).toBe(true);
    expect(merged.git.map((args) => args[0])).toContain('merge-tree');
    const sha = merged.result.data.sha;
    expect(git(ch.bare, 'rev-parse', `${sha}^{tree}`)).toBe(kept);
    expect(git(ch.bare, 'show', `${sha}:q.txt`)).toBe('head');
    expect(git(ch.bare, 'fsck', '--no-dangling')).toBe('');
  });

  it('POST /pulls without commits between the branches is still a 422 naming them, and nothing is written', async () => {
    ch.commit('feature/EMPTY-1', { 'e.txt': 'e\n' });
    ch.commit('empty-base', { 'f.txt': 'f\n' }, 'ahead of the head', 'feature/EMPTY-1');
    const before = (await ch.as('ada').rest.pulls.list({ ...o, state: 'all', per_page: 100 })).data.length;
    const r = await refusal(ch.as('ada').rest.pulls.create({ ...o, title: 'empty', head: 'feature/EMPTY-1', base: 'empty-base' }));
    expect(r.status).toBe(422);
    expect(r.data.errors[0].message).toBe('No commits between empty-base and feature/EMPTY-1');
    expect((await ch.as('ada').rest.pulls.list({ ...o, state: 'all', per_page: 100 })).data.length).toBe(before);
  });
});
