import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BareRepos, GitNameError, MergeConflictError, REPO_CONFIG } from '../../../src/codehost/git/repos.js';
import { branchNameProblem } from '../../../src/codehost/git/names.js';
import { bareGit, FIXTURE_GIT_ENV, fileAt, isAncestor, repoMaker, tempDir } from './support.js';

const tmp = tempDir('jst-git-repos-');
const repos = new BareRepos(join(tmp.path, 'repos'));
afterAll(() => {
  repos.close();
  tmp.cleanup();
});
/** A new repository `demo/r<n>` with one commit on `development`, and a work tree pushing to it. */
const fresh = repoMaker(repos, tmp.path, 'r', { 'README.md': '# app\n', 'src/a.txt': 'one\ntwo\nthree\n' });

const alice = { name: 'Alice Author', email: 'alice@example.test', date: '2026-01-02T03:04:05Z' };
const merger = { name: 'Merge Bot', email: 'bot@example.test', date: new Date('2026-02-03T04:05:06Z') };

describe('ARCHITECTURE §14 Storage: bare repositories under <repos>/<owner>/<repo>.git', () => {
  it("dir() is <root>/<owner>/<name>.git and refuses names outside GitHub's charset, dots and traversal", () => {
    expect(repos.dir('demo', 'app')).toBe(join(tmp.path, 'repos', 'demo', 'app.git'));
    for (const [owner, name] of [
      ['..', 'app'],
      ['demo', '..'],
      ['demo', '.hidden'],
      ['.x', 'app'],
      ['demo', 'a/b'],
      ['de/mo', 'app'],
      ['demo', 'a..b'],
      ['demo', 'app.git'],
      ['demo', 'App.GIT'],
      ['demo', ''],
      ['', 'app'],
      ['demo', 'a b'],
      ['demo', 'a%2fb'],
      ['demo', 'x'.repeat(101)],
      ['demo', 'é'],
    ]) {
      expect(() => repos.dir(owner!, name!), `${owner}/${name}`).toThrow(GitNameError);
    }
    expect(repos.dir('Some_Org.1', 'my-repo.js')).toBe(join(tmp.path, 'repos', 'Some_Org.1', 'my-repo.js.git'));
  });

  it('ensure() creates an empty bare repository with HEAD on the default branch, pushes allowed, force-push allowed', async () => {
    await repos.ensure('demo', 'made', 'trunk');
    const bare = repos.dir('demo', 'made');
    expect(await repos.exists('demo', 'made')).toBe(true);
    expect(bareGit(bare, 'rev-parse', '--is-bare-repository')).toBe('true');
    expect(bareGit(bare, 'symbolic-ref', 'HEAD')).toBe('refs/heads/trunk');
    expect(bareGit(bare, 'config', 'http.receivepack')).toBe('true');
    expect(bareGit(bare, 'config', 'receive.denyNonFastForwards')).toBe('false');
    expect(bareGit(bare, 'config', 'core.logAllRefUpdates')).toBe('always');
    expect(await repos.branchSha('demo', 'made', 'trunk')).toBeNull();
  });

  it("ensure() writes every setting of the repositories' configuration as git reads it back (one write, no git config process)", async () => {
    await repos.ensure('demo', 'configured', 'main');
    const bare = repos.dir('demo', 'configured');
    for (const [key, value] of REPO_CONFIG) expect(bareGit(bare, 'config', '--get-all', key), key).toBe(value);
    // git's own settings from init are still there beside ours, and the file is one git can rewrite.
    expect(bareGit(bare, 'config', 'core.bare')).toBe('true');
    bareGit(bare, 'config', 'core.filesRefLockTimeout', '3000');
    expect(bareGit(bare, 'config', '--get-all', 'core.filesRefLockTimeout')).toBe('3000');
    expect(bareGit(bare, 'fsck', '--no-progress')).toBe('');
  });

  it('ensure() is idempotent and safe when many callers create the same repository at once', async () => {
    await Promise.all(Array.from({ length: 8 }, () => repos.ensure('race', 'one', 'main')));
    await repos.ensure('race', 'one', 'other');
    expect(bareGit(repos.dir('race', 'one'), 'symbolic-ref', 'HEAD')).toBe('refs/heads/main');
    // No temporary folder is left beside it.
    expect(readdirSync(join(tmp.path, 'repos', 'race'))).toEqual(['one.git']);
  });

  it('ensure() refuses a bad default branch and writes nothing', async () => {
    await expect(repos.ensure('demo', 'badbranch', 'a..b')).rejects.toThrow(/branch name "a\.\.b" is not valid/);
    expect(existsSync(join(tmp.path, 'repos', 'demo', 'badbranch.git'))).toBe(false);
    expect(await repos.exists('demo', 'badbranch')).toBe(false);
  });

  it("branchSha() gives the branch's commit, null for an unknown branch, and refuses an invalid name", async () => {
    const { name, base } = await fresh();
    expect(await repos.branchSha('demo', name, 'development')).toBe(base);
    expect(await repos.branchSha('demo', name, 'nope')).toBeNull();
    await expect(repos.branchSha('demo', name, '--upload-pack=x')).rejects.toThrow(GitNameError);
    await expect(repos.branchSha('demo', 'missing', 'development')).rejects.toThrow(/no repository demo\/missing/);
  });

  it('branchSha() answers every change of a ref made by another process: moved, packed, moved over the packed one, deleted, made again, a new push', async () => {
    // The answers come from the repository's kept cat-file --batch-check (git/conversation.ts),
    // started at the first question: each later one must see the ref as it is on disk now.
    const { name, bare, work, base } = await fresh();
    const at = () => repos.branchSha('demo', name, 'topic');
    bareGit(bare, 'update-ref', 'refs/heads/topic', base);
    expect(await at()).toBe(base);
    const second = work.commit({ 'src/b.txt': 'b\n' }, 'second');
    work.push('development');
    bareGit(bare, 'update-ref', 'refs/heads/topic', second);
    expect(await at()).toBe(second);
    bareGit(bare, 'pack-refs', '--all');
    expect(await at()).toBe(second);
    bareGit(bare, 'update-ref', 'refs/heads/topic', base);
    expect(await at()).toBe(base);
    bareGit(bare, 'update-ref', '-d', 'refs/heads/topic');
    expect(await at()).toBeNull();
    bareGit(bare, 'update-ref', 'refs/heads/topic', second);
    expect(await at()).toBe(second);
    // A commit pushed after the process started.
    const third = work.commit({ 'src/c.txt': 'c\n' }, 'third');
    work.push('development:topic');
    expect(await at()).toBe(third);
    expect(await repos.branchSha('demo', name, 'development')).toBe(second);
  });
});

describe('ARCHITECTURE §14: branch names follow git check-ref-format', () => {
  it('agrees with `git check-ref-format --branch` on good and bad names', () => {
    const names = [
      'feature/ABC-1-x',
      'a',
      'a/b/c',
      'ünïcode',
      'x.y',
      'a@b',
      'v1.0',
      '-x',
      'a..b',
      'a/',
      '/a',
      'a//b',
      'a.',
      '.a',
      'a/.b',
      'a.lock',
      'a/b.lock/c',
      'a b',
      'a~1',
      'a^',
      'a:b',
      'a?',
      'a*',
      'a[b',
      'a\\b',
      'a@{1}',
      'a\tb',
      'a\x7f',
    ];
    for (const name of names) {
      let gitOk = true;
      try {
        execFileSync('git', ['check-ref-format', '--branch', name], { env: FIXTURE_GIT_ENV, stdio: 'pipe' });
      } catch {
        gitOk = false;
      }
      expect(branchNameProblem(name) === null, name).toBe(gitOk);
    }
    // Stricter than git here: '@' and 'HEAD' stand for HEAD itself in git's commands.
    expect(branchNameProblem('@')).not.toBeNull();
    expect(branchNameProblem('HEAD')).not.toBeNull();
    expect(branchNameProblem('x'.repeat(256))).toMatch(/longer than 255/);
  });
});

describe('ARCHITECTURE §14 REST pulls/commits and pulls/files: compare base...head', () => {
  it("lists base..head oldest first with parents, tree, author and committer, and the files with GitHub's statuses", async () => {
    const { name, work, base } = await fresh();
    work.branch('feature/X-1', 'development');
    const c1 = work.commit({ 'new.txt': 'a\nb\n', 'src/a.txt': 'one\nTWO\nthree\n' }, 'add new, change a\n\nwith a body', alice);
    const c2 = work.commit({ 'README.md': null }, 'remove readme');
    work.git('mv', 'src/a.txt', 'src/renamed.txt');
    const c3 = work.commit({}, 'rename a');
    work.push('feature/X-1');
    const cmp = await repos.compare('demo', name, base, c3);
    expect(cmp.mergeBase).toBe(base);
    expect(cmp.commits.map((c) => c.sha)).toEqual([c1, c2, c3]);
    expect(cmp.totalCommits).toBe(3);
    expect(cmp.commitsTruncated).toBe(false);
    const first = cmp.commits[0]!;
    expect(first.parents).toEqual([base]);
    expect(first.tree).toBe(bareGit(repos.dir('demo', name), 'rev-parse', `${c1}^{tree}`));
    expect(first.message).toBe('add new, change a\n\nwith a body');
    expect(first.author).toEqual({ name: alice.name, email: alice.email, date: '2026-01-02T03:04:05Z' });
    expect(first.committer.name).toBe('Work Tree');
    expect(first.committer.date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

    const byName = Object.fromEntries(cmp.files.map((f) => [f.filename, f]));
    expect(Object.keys(byName).sort()).toEqual(['README.md', 'new.txt', 'src/renamed.txt']);
    expect(byName['new.txt']).toMatchObject({ status: 'added', additions: 2, deletions: 0, changes: 2, patch: '@@ -0,0 +1,2 @@\n+a\n+b', previous_sha: null });
    expect(byName['README.md']).toMatchObject({ status: 'removed', additions: 0, deletions: 1, sha: null, patch: '@@ -1 +0,0 @@\n-# app' });
    expect(byName['src/renamed.txt']).toMatchObject({ status: 'renamed', previous_filename: 'src/a.txt', additions: 1, deletions: 1 });
    expect(byName['src/renamed.txt']!.patch).toBe('@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three');
    expect(byName['new.txt']!.sha).toBe(bareGit(repos.dir('demo', name), 'rev-parse', `${c3}:new.txt`));
    expect(cmp).toMatchObject({ changedFiles: 3, additions: 3, deletions: 2, filesTruncated: false, patchesTruncated: false });
  });

  it("gives a binary file no patch and no line counts; a huge file's patch is left out and the total cap stops patches", async () => {
    const { name, work, base } = await fresh();
    work.branch('feature/bin', 'development');
    const huge = Array.from({ length: 30_000 }, (_, i) => `line ${i} ${'x'.repeat(40)}`).join('\n');
    const oneLine = 'y'.repeat(3 * 1024 * 1024);
    const head = work.commit(
      {
        'img.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3, 0, 0, 255]),
        'big.txt': `${huge}\n`,
        'oneline.min.js': `${oneLine}\n`,
        'small.txt': 'small\n',
      },
      'binary and huge',
    );
    work.push('feature/bin');
    const cmp = await repos.compare('demo', name, base, head);
    const byName = Object.fromEntries(cmp.files.map((f) => [f.filename, f]));
    expect(byName['img.png']).toMatchObject({ status: 'added', binary: true, additions: 0, deletions: 0, changes: 0 });
    expect(byName['img.png']!.patch).toBeUndefined();
    expect(byName['big.txt']).toMatchObject({ additions: 30_000, binary: false });
    expect(byName['big.txt']!.patch).toBeUndefined();
    expect(byName['oneline.min.js']!.patch).toBeUndefined();
    expect(byName['small.txt']!.patch).toBe('@@ -0,0 +1 @@\n+small');
    expect(cmp.patchesTruncated).toBe(true);
    expect(cmp.additions).toBe(30_002);

    const tight = await repos.compare('demo', name, base, head, { maxPatchBytes: 10 * 1024 * 1024, maxTotalPatchBytes: 100_000 });
    const tByName = Object.fromEntries(tight.files.map((f) => [f.filename, f]));
    // big.txt (sorted first) fits per file but not in the total, so it and every later patch are left out.
    expect(tByName['big.txt']!.patch).toBeUndefined();
    expect(tByName['small.txt']!.patch).toBeUndefined();
    expect(tight.patchesTruncated).toBe(true);
  });

  it('caps the commits at maxCommits (oldest kept) and the files at maxFiles, totals still over all', async () => {
    const { name, work, base } = await fresh();
    work.branch('feature/many', 'development');
    const shas: string[] = [];
    for (let i = 0; i < 7; i++) shas.push(work.commit({ [`f${i}.txt`]: `${i}\n` }, `commit ${i}`));
    work.push('feature/many');
    const cmp = await repos.compare('demo', name, base, 'feature/many', { maxCommits: 5, maxFiles: 3 });
    expect(cmp.commits.map((c) => c.sha)).toEqual(shas.slice(0, 5));
    expect(cmp).toMatchObject({ totalCommits: 7, commitsTruncated: true, changedFiles: 7, additions: 7, filesTruncated: true });
    expect(cmp.files.map((f) => f.filename)).toEqual(['f0.txt', 'f1.txt', 'f2.txt']);
    expect(cmp.files.every((f) => f.patch !== undefined)).toBe(true);

    // Counts only: no file listed, no patch made, the totals unchanged.
    const counts = await repos.compare('demo', name, base, 'feature/many', { maxCommits: 1, maxFiles: 0, maxPatchBytes: 0 });
    expect(counts).toMatchObject({ totalCommits: 7, changedFiles: 7, additions: 7, deletions: 0, files: [], patchesTruncated: false });
    expect(counts.commits.map((c) => c.sha)).toEqual([shas[0]]);
    const noPatches = await repos.compare('demo', name, base, 'feature/many', { maxPatchBytes: 0 });
    expect(noPatches.files).toHaveLength(7);
    expect(noPatches.files.some((f) => f.patch !== undefined)).toBe(false);
  });

  it('refuses a revision that names no commit', async () => {
    const { name, base } = await fresh();
    await expect(repos.compare('demo', name, base, 'f'.repeat(40))).rejects.toThrow(/names no commit/);
    await expect(repos.compare('demo', name, base, 'HEAD~1')).rejects.toThrow(GitNameError);
  });
});

describe('ARCHITECTURE §14: a conflict is mergeable: false', () => {
  it('mergeability is true for a clean merge, false with the conflicted files otherwise', async () => {
    const { name, work } = await fresh();
    work.branch('feature/clean', 'development');
    const clean = work.commit({ 'clean.txt': 'x\n' }, 'clean');
    work.branch('feature/conflict', 'development');
    const conflicting = work.commit({ 'src/a.txt': 'one\nfeature\nthree\n', 'README.md': '# feature\n' }, 'conflicting');
    work.branch('development', 'development');
    const moved = work.commit({ 'src/a.txt': 'one\nbase\nthree\n', 'README.md': '# base\n' }, 'base moves');
    work.push('development', 'feature/clean', 'feature/conflict');
    expect(await repos.mergeability('demo', name, moved, clean)).toEqual({ mergeable: true, conflicts: [] });
    expect(await repos.mergeability('demo', name, moved, conflicting)).toEqual({ mergeable: false, conflicts: ['README.md', 'src/a.txt'] });
  });
});

describe('ARCHITECTURE §14: a merge is made by git in the bare repository (merge, squash, rebase)', () => {
  async function setup() {
    const f = await fresh();
    f.work.branch('feature/Y-1', 'development');
    const h1 = f.work.commit({ 'feat1.txt': 'f1\n' }, 'feature one', alice);
    const h2 = f.work.commit({ 'feat2.txt': 'f2\n', 'src/a.txt': 'one\ntwo\nthree\nfour\n' }, 'feature two\n\nbody two', {
      ...alice,
      date: '2026-01-03T00:00:00Z',
    });
    f.work.branch('development', 'development');
    const b1 = f.work.commit({ 'base.txt': 'b\n' }, 'base moves on');
    f.work.push('development', 'feature/Y-1');
    return { ...f, h1, h2, b1 };
  }
  const opts = { baseBranch: 'development', title: 'Merge pull request #1 from demo/feature/Y-1', message: 'Feature Y', author: alice, committer: merger };

  it('merge: a merge commit with parents (base, head), the merged tree, the given author, committer and message', async () => {
    const s = await setup();
    const { sha } = await repos.merge('demo', s.name, { ...opts, headSha: s.h2, method: 'merge' });
    expect(await repos.branchSha('demo', s.name, 'development')).toBe(sha);
    expect(bareGit(s.bare, 'log', '-1', '--format=%P', sha)).toBe(`${s.b1} ${s.h2}`);
    expect(bareGit(s.bare, 'log', '-1', '--format=%an|%ae|%aI|%cn|%ce|%cI', sha)).toBe(
      'Alice Author|alice@example.test|2026-01-02T03:04:05+00:00|Merge Bot|bot@example.test|2026-02-03T04:05:06+00:00',
    );
    expect(bareGit(s.bare, 'log', '-1', '--format=%B', sha)).toBe('Merge pull request #1 from demo/feature/Y-1\n\nFeature Y');
    expect(fileAt(s.bare, sha, 'base.txt')).toBe('b\n');
    expect(fileAt(s.bare, sha, 'feat2.txt')).toBe('f2\n');
    expect(isAncestor(s.bare, s.h2, sha)).toBe(true);
    expect(bareGit(s.bare, 'reflog', 'show', '-1', '--format=%gs', 'refs/heads/development')).toBe('merge (merge)');
  });

  it('squash: one commit with the base as its only parent and the merged tree', async () => {
    const s = await setup();
    const { sha } = await repos.merge('demo', s.name, { ...opts, headSha: s.h2, method: 'squash', title: 'Feature Y (#1)', message: '' });
    expect(bareGit(s.bare, 'log', '-1', '--format=%P', sha)).toBe(s.b1);
    expect(bareGit(s.bare, 'log', '-1', '--format=%B', sha)).toBe('Feature Y (#1)');
    expect(bareGit(s.bare, 'log', '-1', '--format=%an', sha)).toBe('Alice Author');
    const threeWay = bareGit(s.bare, 'merge-tree', '--write-tree', s.b1, s.h2);
    expect(bareGit(s.bare, 'rev-parse', `${sha}^{tree}`)).toBe(threeWay);
    expect(isAncestor(s.bare, s.h2, sha)).toBe(false);
  });

  it("rebase: head's commits replayed onto the base one by one, authors and messages kept, committer the merger", async () => {
    const s = await setup();
    const { sha } = await repos.merge('demo', s.name, { ...opts, headSha: s.h2, method: 'rebase' });
    const line = bareGit(s.bare, 'log', '--format=%H|%P|%an|%aI|%cn|%s', `${s.b1}..${sha}`).split('\n');
    expect(line).toHaveLength(2);
    const [top, bottom] = line.map((l) => l.split('|'));
    expect(bottom![1]).toBe(s.b1);
    expect(top![1]).toBe(bottom![0]);
    expect(top![0]).toBe(sha);
    expect(bottom!.slice(2)).toEqual(['Alice Author', '2026-01-02T03:04:05+00:00', 'Merge Bot', 'feature one']);
    expect(top!.slice(2)).toEqual(['Alice Author', '2026-01-03T00:00:00+00:00', 'Merge Bot', 'feature two']);
    expect(bareGit(s.bare, 'log', '-1', '--format=%B', sha)).toBe('feature two\n\nbody two');
    expect(bareGit(s.bare, 'rev-parse', `${sha}^{tree}`)).toBe(bareGit(s.bare, 'merge-tree', '--write-tree', s.b1, s.h2));
  });

  it('rebase after the head merged the base in ("update branch"): the merge commit is left out, every change kept', async () => {
    const s = await setup();
    s.work.branch('feature/Y-1', s.h2);
    s.work.git('merge', '--quiet', '--no-edit', 'development');
    const updated = s.work.git('rev-parse', 'HEAD');
    s.work.push('feature/Y-1');
    const { sha } = await repos.merge('demo', s.name, { ...opts, headSha: updated, method: 'rebase' });
    expect(bareGit(s.bare, 'rev-list', '--count', `${s.b1}..${sha}`)).toBe('2');
    expect(bareGit(s.bare, 'rev-list', '--merges', `${s.b1}..${sha}`)).toBe('');
    expect(bareGit(s.bare, 'rev-parse', `${sha}^{tree}`)).toBe(bareGit(s.bare, 'rev-parse', `${updated}^{tree}`));
  });

  it('rebase is refused (MergeConflictError, base unchanged) when a merge commit in the head carries its own change', async () => {
    const s = await setup();
    s.work.branch('feature/Y-1', s.h2);
    s.work.git('merge', '--quiet', '--no-commit', 'development');
    s.work.commit({ 'only-in-merge.txt': 'evil\n' }, 'merge with an extra change');
    const evil = s.work.git('rev-parse', 'HEAD');
    s.work.push('feature/Y-1');
    const err = await repos.merge('demo', s.name, { ...opts, headSha: evil, method: 'rebase' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MergeConflictError);
    expect((err as MergeConflictError).files).toEqual(['only-in-merge.txt']);
    expect(await repos.branchSha('demo', s.name, 'development')).toBe(s.b1);
    // merge and squash take it whole.
    const { sha } = await repos.merge('demo', s.name, { ...opts, headSha: evil, method: 'squash' });
    expect(fileAt(s.bare, sha, 'only-in-merge.txt')).toBe('evil\n');
  });

  it('a conflict throws MergeConflictError naming the files and leaves the base where it was', async () => {
    const s = await setup();
    s.work.branch('feature/clash', s.base);
    const clash = s.work.commit({ 'base.txt': 'other\n' }, 'clash');
    s.work.push('feature/clash');
    for (const method of ['merge', 'squash', 'rebase'] as const) {
      const err = await repos.merge('demo', s.name, { ...opts, headSha: clash, method }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(MergeConflictError);
      expect((err as MergeConflictError).files).toEqual(['base.txt']);
      expect(await repos.branchSha('demo', s.name, 'development')).toBe(s.b1);
    }
  });

  it('refuses a head that is not a full SHA or names no commit, and an unknown base branch', async () => {
    const s = await setup();
    await expect(repos.merge('demo', s.name, { ...opts, headSha: 'feature/Y-1', method: 'merge' })).rejects.toThrow(/not a full commit SHA/);
    await expect(repos.merge('demo', s.name, { ...opts, headSha: 'a'.repeat(40), method: 'merge' })).rejects.toThrow(/names no commit/);
    await expect(repos.merge('demo', s.name, { ...opts, baseBranch: 'gone', headSha: s.h2, method: 'merge' })).rejects.toThrow(/no branch gone/);
    expect(await repos.branchSha('demo', s.name, 'development')).toBe(s.b1);
  });

  it('isAncestor answers git merge-base --is-ancestor', async () => {
    const s = await setup();
    expect(await repos.isAncestor('demo', s.name, s.base, s.b1)).toBe(true);
    expect(await repos.isAncestor('demo', s.name, s.h2, s.b1)).toBe(false);
    expect(await repos.isAncestor('demo', s.name, 'b'.repeat(40), s.b1)).toBe(false);
  });
});
