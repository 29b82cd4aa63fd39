import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Conversations } from '../../../src/codehost/git/conversation.js';
import { GitCommandError } from '../../../src/codehost/git/errors.js';
import { cleanIdent, commitText, writeCommit, type CommitSpec } from '../../../src/codehost/git/merge.js';
import { BareRepos } from '../../../src/codehost/git/repos.js';
import { watchGitProcesses } from '../../../src/codehost/git/run.js';
import { bareGit, FIXTURE_GIT_ENV, repoMaker, tempDir } from './support.js';
import { pollUntil, processAlive } from '../../../../../test/support/processes.js';

/**
 * ARCHITECTURE §14 "its writes from one git conversation": a merge asks for its objects and writes
 * its commit through two long-lived git processes per repository (`cat-file --batch-check`,
 * `hash-object -t commit -w --stdin-paths`), so it starts no process but its `update-ref`; the
 * commit is byte for byte the one `git commit-tree` writes, and the processes are bounded.
 */
const tmp = tempDir('jst-git-conversation-');
const repos = new BareRepos(join(tmp.path, 'repos'));
afterAll(() => {
  repos.close();
  tmp.cleanup();
});
/** A new repository `demo/c<n>` with one commit on `development`, and a work tree pushing to it. */
const fresh = repoMaker(repos, tmp.path, 'c', { 'README.md': '# app\n' });

/** What `git commit-tree` writes for the same commit: its id. */
function commitTreeId(bare: string, c: CommitSpec & { committer: { date: Date } }): string {
  return execFileSync('git', ['--git-dir', bare, 'commit-tree', c.tree, ...c.parents.flatMap((p) => ['-p', p])], {
    input: c.message,
    encoding: 'utf8',
    env: {
      ...FIXTURE_GIT_ENV,
      GIT_AUTHOR_NAME: c.author.name,
      GIT_AUTHOR_EMAIL: c.author.email,
      GIT_AUTHOR_DATE: c.authorDate!,
      GIT_COMMITTER_NAME: c.committer.name,
      GIT_COMMITTER_EMAIL: c.committer.email,
      GIT_COMMITTER_DATE: `@${Math.floor(c.committer.date.getTime() / 1000)} +0000`,
    },
  }).trim();
}

const alive = processAlive;
const until = pollUntil;

describe("ARCHITECTURE §14: a merge's objects through one git conversation per repository", () => {
  it('a commit written through the conversation is the very commit git commit-tree writes (same id), for plain and awkward identities', async () => {
    const { bare, work, base } = await fresh();
    const head = work.commit({ 'a.txt': 'a\n' }, 'head');
    work.push('development');
    const tree = bareGit(bare, 'rev-parse', `${head}^{tree}`);
    const conversations = new Conversations(10_000);
    const objects = conversations.objects(bare);
    const committer = { name: 'Merge Bot', email: 'bot@example.test', date: new Date('2026-02-03T04:05:06Z') };
    const people: Array<{ name: string; email: string }> = [
      { name: 'Alice Author', email: 'alice@example.test' },
      { name: '  Ann, ', email: ' ann@example.test ' },
      { name: '"Bob Quoted"', email: 'bob@example.test' },
      { name: 'J.R.R. Tolkien Jr.', email: 'jrr@example.test' },
      { name: 'Zoë Ünïcode 山田', email: 'zoe@example.test' },
      { name: ':;Colons;:', email: "'quoted'@example.test" },
      { name: 'Tab\tInside', email: 'tab@example.test' },
    ];
    try {
      for (const [i, author] of people.entries()) {
        for (const message of ['Title\n\nBody line\n', 'no trailing newline', 'Unicode ✓ message\n']) {
          const spec = { tree, parents: i % 2 === 0 ? [base, head] : [base], message, author, authorDate: `@${1767323045 + i} +0100`, committer };
          // git itself strips what cleanIdent strips: the control characters are ours (git keeps a tab inside a name).
          const plain = { ...spec, author: { name: cleanIdent(author.name), email: cleanIdent(author.email) } };
          const ours = await writeCommit(objects, spec);
          expect(ours, `${author.name} / ${JSON.stringify(message)}`).toBe(commitTreeId(bare, author.name.includes('\t') ? plain : spec));
          expect(bareGit(bare, 'cat-file', '-t', ours)).toBe('commit');
        }
      }
      // By name: `<commit>^{tree}` is a tree as commit-tree takes it.
      const byName = await writeCommit(objects, {
        tree: `${head}^{tree}`,
        parents: [base],
        message: 'm\n',
        author: people[0]!,
        authorDate: '@1767323045 +0000',
        committer,
      });
      expect(bareGit(bare, 'rev-parse', `${byName}^{tree}`)).toBe(tree);
      expect(bareGit(bare, 'fsck', '--no-dangling', '--strict')).toBe('');
    } finally {
      conversations.close();
    }
  });

  it('a name that cleans to nothing takes the email, then "unknown" (git commit-tree would refuse it)', () => {
    const text = (name: string, email: string) =>
      commitText({
        tree: 'a'.repeat(40),
        parents: [],
        message: 'm\n',
        author: { name, email },
        authorDate: '@1 +0000',
        committer: { name, email, date: new Date(1000) },
      });
    expect(text(',,,', 'e@x.test')).toContain('\nauthor e@x.test <e@x.test> 1 +0000\n');
    expect(text('<>', '')).toContain('\nauthor unknown <> 1 +0000\n');
    expect(text('Evil\n<x@y> 1 +0000\nparent ' + 'b'.repeat(40), 'e@x.test')).toContain(
      '\nauthor Evilx@y 1 +0000parent ' + 'b'.repeat(40) + ' <e@x.test> 1 +0000\n',
    );
    expect(
      text('x', 'e@x.test')
        .split('\n')
        .filter((l) => l.startsWith('parent ')),
    ).toEqual([]);
  });

  it('a tree or parent git does not have is git’s error, and nothing is written', async () => {
    const { bare, base } = await fresh();
    const conversations = new Conversations(10_000);
    const objects = conversations.objects(bare);
    const before = bareGit(bare, 'count-objects');
    const who = { name: 'A', email: 'a@example.test', date: new Date(0) };
    try {
      await expect(
        writeCommit(objects, { tree: 'e'.repeat(40), parents: [base], message: 'm\n', author: who, authorDate: '@1 +0000', committer: who }),
      ).rejects.toThrow(GitCommandError);
      const tree = bareGit(bare, 'rev-parse', `${base}^{tree}`);
      await expect(
        writeCommit(objects, { tree, parents: ['d'.repeat(40)], message: 'm\n', author: who, authorDate: '@1 +0000', committer: who }),
      ).rejects.toThrow(/not a valid object name/);
      // A blob is no tree.
      const blob = bareGit(bare, 'rev-parse', `${base}:README.md`);
      await expect(writeCommit(objects, { tree: blob, parents: [], message: 'm\n', author: who, authorDate: '@1 +0000', committer: who })).rejects.toThrow(
        /not a valid tree/,
      );
      expect(bareGit(bare, 'count-objects')).toBe(before);
      // A line break cannot reach git's input.
      await expect(objects.lookup([`${base}\n${base}`])).rejects.toThrow(/line break/);
    } finally {
      conversations.close();
    }
  });

  it('git checks the format of what it writes: a malformed commit is refused, and the next question is answered by a new process', async () => {
    const { bare, base } = await fresh();
    const conversations = new Conversations(10_000);
    const objects = conversations.objects(bare);
    try {
      await expect(objects.writeCommit('tree nonsense\n\nm\n')).rejects.toThrow(GitCommandError);
      const [info] = await objects.lookup([base]);
      expect(info).toEqual({ oid: base, type: 'commit' });
      const tree = bareGit(bare, 'rev-parse', `${base}^{tree}`);
      const who = { name: 'A', email: 'a@example.test', date: new Date(0) };
      const ok = await writeCommit(objects, { tree, parents: [base], message: 'after\n', author: who, authorDate: '@1 +0000', committer: who });
      expect(bareGit(bare, 'log', '-1', '--format=%s', ok)).toBe('after');
    } finally {
      conversations.close();
    }
  });

  it('merges through BareRepos: the first starts the three conversation processes, the next ones none (merge-tree aside)', async () => {
    const { name, bare, work } = await fresh();
    const heads: string[] = [];
    for (let i = 0; i < 3; i++) {
      work.branch(`feature/C-${i}`, 'development');
      heads.push(work.commit({ [`f${i}.txt`]: `${i}\n` }, `feature ${i}`));
      work.push(`feature/C-${i}`);
    }
    const started: string[] = [];
    const unwatch = watchGitProcesses((args) => started.push(args.join(' ')));
    const who = { name: 'Merge Bot', email: 'bot@example.test', date: new Date('2026-02-03T04:05:06Z') };
    try {
      const runs: string[][] = [];
      for (const head of heads) {
        started.length = 0;
        await repos.merge('demo', name, {
          baseBranch: 'development',
          headSha: head,
          method: 'merge',
          title: 'Merge',
          message: '',
          author: who,
          committer: who,
        });
        runs.push(started.map((a) => a.split(' ')[0]!));
      }
      expect(runs[0]).toEqual(expect.arrayContaining(['cat-file', 'hash-object', 'update-ref']));
      // The base moved with each merge, so merge-tree makes each merged tree; called without the
      // base's commit (the server passes the database's), git is asked for it and the head (rev-parse).
      expect(runs[1]!.filter((c) => c !== 'rev-parse')).toEqual(['merge-tree']);
      expect(runs[2]!.filter((c) => c !== 'rev-parse')).toEqual(['merge-tree']);
    } finally {
      unwatch();
    }
    const tip = bareGit(bare, 'rev-parse', 'development');
    for (const head of heads) expect(bareGit(bare, 'merge-base', '--is-ancestor', head, tip)).toBe('');
    expect(bareGit(bare, 'fsck', '--no-dangling', '--strict')).toBe('');
  });

  it('publish: a transaction of update-ref --stdin moves the branch from the value given, refuses another, and the next transaction still runs', async () => {
    const { bare, work, base } = await fresh();
    const next = work.commit({ 'p.txt': 'p\n' }, 'next');
    work.git('push', '--quiet', 'origin', `${next}:refs/heads/other`);
    const conversations = new Conversations(10_000);
    try {
      // Not where the caller believes: git's compare-and-set refuses, and nothing moves.
      const refused = await conversations.publish(bare, 'merge (merge)', 'refs/heads/development', next, next).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(GitCommandError);
      expect((refused as GitCommandError).stderr).toMatch(/cannot lock ref 'refs\/heads\/development': is at [0-9a-f]{40} but expected/);
      expect(bareGit(bare, 'rev-parse', 'development')).toBe(base);
      await conversations.publish(bare, 'merge (merge)', 'refs/heads/development', next, base);
      expect(bareGit(bare, 'rev-parse', 'development')).toBe(next);
      await conversations.publish(bare, 'merge (squash)', 'refs/heads/development', base, next);
      await conversations.publish(bare, 'merge (squash)', 'refs/heads/development', next, base);
      expect(bareGit(bare, 'reflog', 'show', '-3', '--format=%gs', 'refs/heads/development').split('\n')).toEqual([
        'merge (squash)',
        'merge (squash)',
        'merge (merge)',
      ]);
      // A line break in what reaches git's input is refused before it is written.
      await expect(conversations.publish(bare, 'merge (merge)', 'refs/heads/development\nupdate refs/heads/x', next, base)).rejects.toThrow(/line break/);
      expect(bareGit(bare, 'rev-parse', 'development')).toBe(next);
    } finally {
      conversations.close();
    }
  });

  it('a conversation process killed between merges: the next merge starts a new one and succeeds', async () => {
    const { bare, work, base } = await fresh();
    const conversations = new Conversations(10_000);
    const objects = conversations.objects(bare);
    try {
      expect(await objects.lookup([base])).toEqual([{ oid: base, type: 'commit' }]);
      const { catFile } = conversations.processesOf(bare);
      const pid = catFile.pid;
      expect(alive(pid)).toBe(true);
      process.kill(pid!, 'SIGKILL');
      expect(await until(() => catFile.pid === undefined)).toBe(true);
      const next = work.commit({ 'k.txt': 'k\n' }, 'after the kill');
      work.push('development');
      expect(await objects.lookup([next, 'f'.repeat(40)])).toEqual([{ oid: next, type: 'commit' }, null]);
      expect(catFile.pid).not.toBe(pid);
    } finally {
      conversations.close();
    }
  });

  it('the cap never cuts a question short: a repository pushed out while its questions wait answers them all, then ends', async () => {
    const a = await fresh();
    const b = await fresh();
    const conversations = new Conversations(10_000, 30_000, 1);
    try {
      const many = Array.from({ length: 3000 }, (_, i) => (i % 2 === 0 ? a.base : `${a.base}^{tree}`));
      const pending = conversations.objects(a.bare).lookup(many);
      const first = conversations.processesOf(a.bare).catFile;
      const pidA = first.pid;
      // Another repository now: past the cap of one, a's processes retire instead of dying mid-answer.
      const other = await conversations.objects(b.bare).lookup([b.base]);
      expect(other).toEqual([{ oid: b.base, type: 'commit' }]);
      const answers = await pending;
      expect(answers).toHaveLength(3000);
      expect(answers[0]).toEqual({ oid: a.base, type: 'commit' });
      expect(answers[1]?.type).toBe('tree');
      expect(answers.every((x) => x !== null)).toBe(true);
      expect(await until(() => !alive(pidA))).toBe(true);
    } finally {
      conversations.close();
    }
  });

  it('a missing object is asked again of a new process, and the kept process answers the other questions meanwhile', async () => {
    const { bare, base } = await fresh();
    const conversations = new Conversations(10_000);
    const objects = conversations.objects(bare);
    try {
      await objects.lookup([base]);
      const pid = conversations.processesOf(bare).catFile.pid;
      const [missing, found] = await Promise.all([objects.lookup(['e'.repeat(40), base]), objects.lookup(Array.from({ length: 500 }, () => base))]);
      expect(missing).toEqual([null, { oid: base, type: 'commit' }]);
      expect(found.every((x) => x?.oid === base)).toBe(true);
      expect(conversations.processesOf(bare).catFile.pid).toBe(pid);
    } finally {
      conversations.close();
    }
  });

  it('bounded: an unused conversation ends after its idle time, the least recently used repository’s end past the cap, close() ends all and leaves no file', async () => {
    const a = await fresh();
    const b = await fresh();
    const conversations = new Conversations(10_000, 200, 1);
    await conversations.objects(a.bare).lookup([a.base]);
    const first = conversations.processesOf(a.bare).catFile;
    const pidA = first.pid;
    expect(alive(pidA)).toBe(true);
    // A second repository past a cap of one: the first's processes end.
    await conversations.objects(b.bare).lookup([b.base]);
    expect(await until(() => !alive(pidA))).toBe(true);
    // Idle: ended 200 ms after the last answer.
    const pidB = conversations.processesOf(b.bare).catFile.pid;
    expect(alive(pidB)).toBe(true);
    expect(await until(() => !alive(pidB))).toBe(true);
    // Written commits leave no file behind, and close() removes the scratch folder.
    const tree = bareGit(b.bare, 'rev-parse', `${b.base}^{tree}`);
    const who = { name: 'A', email: 'a@example.test', date: new Date(0) };
    await writeCommit(conversations.objects(b.bare), { tree, parents: [b.base], message: 'm\n', author: who, authorDate: '@1 +0000', committer: who });
    const scratch = conversations.scratchDir!;
    expect(readdirSync(scratch)).toEqual([]);
    const hash = conversations.processesOf(b.bare).hashObject.pid;
    expect(alive(hash)).toBe(true);
    conversations.close();
    expect(await until(() => !alive(hash))).toBe(true);
    expect(existsSync(scratch)).toBe(false);
  });
});
