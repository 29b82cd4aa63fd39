import { randomBytes } from 'node:crypto';
import { appendFile, mkdir, rename, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { compareCommits, DEFAULT_COMPARE_LIMITS, type CompareLimits, type CompareMode, type Comparison } from './compare.js';
import { DEFAULT_DIFF_TEXT_LIMITS, diffText, type DiffKind, type DiffText, type DiffTextLimits } from './diff-text.js';
import { GitCommandError, GitNameError, RefMovedError } from './errors.js';
import { CONVERSATION_ANSWER_MS, Conversations } from './conversation.js';
import { buildMerge, mergeTree, type MergeOptions, type PullStats } from './merge.js';
import { checkBranchName, checkRepoName, checkSha } from './names.js';
import { installRepoHook, takeSpool, type TakenSpool } from './push-hook.js';
import { REPO_CONFIG_TEXT } from './repo-config.js';
import { requireGitVersion, runGit } from './run.js';

/** A branch and its latest commit (the repository page). */
export interface BranchTip {
  name: string;
  sha: string;
  /** The commit's committer date, ISO 8601 UTC. */
  date: string;
  /** The commit message's subject, at most 200 characters. */
  subject: string;
}

export { MergeConflictError, RefMovedError, GitNameError, GitCommandError } from './errors.js';
export type { GitIdentity, MergeMethod } from './merge.js';
export type { CommitInfo, GitPerson } from './commits.js';
export type { Comparison, CompareLimits, FileChange } from './compare.js';
export { DEFAULT_COMPARE_LIMITS } from './compare.js';
export type { DiffKind, DiffText, DiffTextLimits } from './diff-text.js';

export type { MergeOptions, PullStats } from './merge.js';
export { REPO_CONFIG } from './repo-config.js';

/** How often a merge is recomputed when the base moved under it before RefMovedError. */
const MERGE_ATTEMPTS = 12;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The bare repositories of the code host, `<root>/<owner>/<name>.git` (ARCHITECTURE §14
 * "Storage"). Every method runs git itself, bounded in time; owner, name, branch and SHA
 * arguments are checked before any path or command line is built.
 */
export class BareRepos {
  readonly root: string;
  readonly timeoutMs: number;

  /** The long-lived processes merges ask and write their objects through (./conversation.ts). */
  private readonly conversations: Conversations;

  constructor(root: string, options: { timeoutMs?: number } = {}) {
    // Absolute: git http-backend joins it with the request's path, whatever its working folder.
    this.root = resolve(root);
    this.timeoutMs = options.timeoutMs ?? 120_000;
    this.conversations = new Conversations(Math.min(this.timeoutMs, CONVERSATION_ANSWER_MS), undefined, undefined, this.timeoutMs);
  }

  /** Ends the repositories' long-lived git processes (the server's close). */
  close(): void {
    this.conversations.close();
  }

  /**
   * Fails with a clear message when the git on PATH is older than 2.38 (merges need
   * `git merge-tree --write-tree`); a server calls it at start so it never runs half-able.
   */
  verifyGit(): Promise<void> {
    return requireGitVersion();
  }

  /** The repository's folder; throws GitNameError for a name outside GitHub's charset. */
  dir(owner: string, name: string): string {
    checkRepoName('owner', owner);
    checkRepoName('repository', name);
    return join(this.root, owner, `${name}.git`);
  }

  async exists(owner: string, name: string): Promise<boolean> {
    const dir = this.dir(owner, name);
    try {
      return (await stat(join(dir, 'HEAD'))).isFile() && (await stat(join(dir, 'objects'))).isDirectory();
    } catch {
      return false;
    }
  }

  /**
   * Creates an empty bare repository when there is none. Made in a temporary folder beside it
   * (a name no repository can have: it starts with a dot) and renamed into place, so two processes
   * doing this at once both end with the same one, fully made.
   */
  async ensure(owner: string, name: string, defaultBranch: string): Promise<void> {
    checkBranchName(defaultBranch);
    const dir = this.dir(owner, name);
    if (await this.exists(owner, name)) return installRepoHook(dir);
    const parent = join(this.root, owner);
    await mkdir(parent, { recursive: true });
    const tmp = join(parent, `.tmp-${randomBytes(8).toString('hex')}.git`);
    try {
      await runGit(null, ['init', '--quiet', '--bare', `--initial-branch=${defaultBranch}`, tmp], { timeoutMs: this.timeoutMs });
      await appendFile(join(tmp, 'config'), REPO_CONFIG_TEXT);
      await installRepoHook(tmp);
      try {
        await rename(tmp, dir);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if ((code === 'ENOTEMPTY' || code === 'EEXIST') && (await this.exists(owner, name))) return;
        throw e;
      }
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
  }

  private async existing(owner: string, name: string): Promise<string> {
    const dir = this.dir(owner, name);
    if (!(await this.exists(owner, name))) throw new GitNameError(`There is no repository ${owner}/${name} under ${this.root}.`);
    return dir;
  }

  /** The branch's commit, or null when there is no such branch. */
  async branchSha(owner: string, name: string, branch: string): Promise<string | null> {
    checkBranchName(branch);
    return this.commitOf(await this.existing(owner, name), `refs/heads/${branch}`);
  }

  /**
   * `<spec>^{commit}` as `git rev-parse --verify` answers it, asked of the repository's kept
   * `cat-file --batch-check` (git/conversation.ts) instead of a process per question. That process
   * reads a ref's file (and packed-refs, checked by its stat) afresh at each question, and looks
   * again for packs it has not seen when an object is not in the ones it knows; a name it answers
   * missing is asked again of a new process before it counts.
   */
  private async commitOf(dir: string, spec: string): Promise<string | null> {
    const [info] = await this.conversations.objects(dir).lookup([`${spec}^{commit}`]);
    return info?.type === 'commit' ? info.oid : null;
  }

  /**
   * The repository's branches, the most recently committed first, at most `max` of them, each with
   * its latest commit's sha, committer date and subject (cut to 200 characters); and how many
   * branches there are in all (the repository page, ARCHITECTURE §22).
   */
  async branchTips(owner: string, name: string, max: number): Promise<{ branches: BranchTip[]; total: number }> {
    const dir = await this.existing(owner, name);
    const format = '--format=%(objectname)%00%(committerdate:iso-strict)%00%(refname:lstrip=2)%00%(contents:subject)';
    const [tips, all] = await Promise.all([
      runGit(dir, ['for-each-ref', `--count=${max}`, '--sort=refname', '--sort=-committerdate', format, 'refs/heads/'], { timeoutMs: this.timeoutMs }),
      runGit(dir, ['for-each-ref', '--format=x', 'refs/heads/'], { timeoutMs: this.timeoutMs }),
    ]);
    const branches = tips.stdout
      .toString('utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => {
        const [sha = '', date = '', branch = '', subject = ''] = l.split('\0');
        return { name: branch, sha, date: new Date(date).toISOString(), subject: subject.slice(0, 200) };
      });
    return {
      branches,
      total: all.stdout
        .toString('utf8')
        .split('\n')
        .filter((l) => l !== '').length,
    };
  }

  /** The repository's refs (all of them, or those named in `only`) and their objects, from git itself. */
  async refs(owner: string, name: string, only?: string[]): Promise<Array<{ ref: string; sha: string }>> {
    const dir = await this.existing(owner, name);
    if (only !== undefined && only.length === 0) return [];
    const wanted = only === undefined ? null : new Set(only);
    const patterns = only === undefined ? [] : ['--', ...only.filter((r) => /^refs\/[^\0]*$/.test(r) && !r.includes('..'))];
    if (patterns.length === 1) return [];
    const r = await runGit(dir, ['for-each-ref', '--format=%(objectname) %(refname)', ...patterns], { timeoutMs: this.timeoutMs });
    return r.stdout
      .toString('utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => ({ sha: l.slice(0, l.indexOf(' ')), ref: l.slice(l.indexOf(' ') + 1) }))
      .filter((x) => wanted === null || wanted.has(x.ref));
  }

  /** The refs pushes made straight into the repository's folder updated since last asked (its hook's spool, ./push-hook.ts). */
  async takeOutsidePushes(owner: string, name: string): Promise<TakenSpool> {
    return takeSpool(this.dir(owner, name));
  }

  /** A full SHA or a branch name as a commit id, or null when it names no commit here. */
  private async commit(dir: string, rev: string): Promise<string | null> {
    let spec: string;
    if (/^[0-9a-f]{40}$|^[0-9a-f]{64}$/.test(rev)) spec = rev;
    else {
      checkBranchName(rev);
      spec = `refs/heads/${rev}`;
    }
    return this.commitOf(dir, spec);
  }

  private async requireCommit(dir: string, owner: string, name: string, rev: string): Promise<string> {
    const sha = await this.commit(dir, rev);
    if (sha === null) throw new GitNameError(`${JSON.stringify(rev.slice(0, 120))} names no commit in ${owner}/${name}.`);
    return sha;
  }

  /**
   * base...head as a pull request shows it: the commits in base..head (oldest first, at most
   * maxCommits), the files changed from the merge base to head (at most maxFiles), totals over all.
   */
  async compare(
    owner: string,
    name: string,
    base: string,
    head: string,
    limits: Partial<CompareLimits> = {},
    mode: CompareMode = 'merge-base',
  ): Promise<Comparison> {
    const dir = await this.existing(owner, name);
    const [b, h] = await Promise.all([this.requireCommit(dir, owner, name, base), this.requireCommit(dir, owner, name, head)]);
    return compareCommits(dir, b, h, { ...DEFAULT_COMPARE_LIMITS, ...limits }, this.timeoutMs, mode);
  }

  /** One commit's change: from its first parent (from the empty tree for a root commit) to it. */
  async compareCommit(owner: string, name: string, sha: string, limits: Partial<CompareLimits> = {}): Promise<Comparison> {
    const dir = await this.existing(owner, name);
    const h = await this.requireCommit(dir, owner, name, sha);
    const parent = await this.parentOf(owner, name, h);
    return compareCommits(dir, parent, h, { ...DEFAULT_COMPARE_LIMITS, ...limits }, this.timeoutMs, 'direct');
  }

  /** `git diff base...head` or `git format-patch --stdout base..head`, whole or refused for size (./diff-text.ts). */
  async diffText(owner: string, name: string, base: string, head: string, kind: DiffKind, limits: Partial<DiffTextLimits> = {}): Promise<DiffText> {
    const dir = await this.existing(owner, name);
    const [b, h] = await Promise.all([this.requireCommit(dir, owner, name, base), this.requireCommit(dir, owner, name, head)]);
    return diffText(dir, b, h, kind, { ...DEFAULT_DIFF_TEXT_LIMITS, ...limits }, this.timeoutMs);
  }

  /** A commit id of this repository from a full or abbreviated (4 to 40 hex digits) one, or null when it names no single commit. */
  async resolveCommit(owner: string, name: string, sha: string): Promise<string | null> {
    if (!/^[0-9a-f]{4,40}$/.test(sha)) return null;
    const full = await this.commitOf(await this.existing(owner, name), sha);
    return full !== null && /^[0-9a-f]{40}$/.test(full) ? full : null;
  }

  /** The first parent of a commit, or null for a root commit. */
  async parentOf(owner: string, name: string, sha: string): Promise<string | null> {
    checkSha(sha);
    return this.commitOf(await this.existing(owner, name), `${sha}^1`);
  }

  /** Whether head merges into base without conflict (`git merge-tree --write-tree`), and the conflicted paths. */
  async mergeability(owner: string, name: string, baseSha: string, headSha: string): Promise<{ mergeable: boolean; conflicts: string[] }> {
    await requireGitVersion();
    const dir = await this.existing(owner, name);
    const [b, h] = await Promise.all([this.requireCommit(dir, owner, name, baseSha), this.requireCommit(dir, owner, name, headSha)]);
    try {
      const r = await mergeTree(dir, b, h, this.timeoutMs);
      return { mergeable: r.clean, conflicts: r.conflicts };
    } catch (e) {
      if (e instanceof GitCommandError && /unrelated histories/.test(e.stderr)) return { mergeable: false, conflicts: [] };
      throw e;
    }
  }

  /**
   * A pull request's figures for base...head, from three git processes run together (no commit
   * read, no patch made): `rev-list --count`, `diff --shortstat` from the merge base, and
   * `merge-tree --write-tree` for the mergeability. The commits are full SHAs the caller holds
   * (from the database); a missing one is git's error.
   */
  async stats(owner: string, name: string, baseSha: string, headSha: string): Promise<PullStats> {
    await requireGitVersion();
    checkSha(baseSha);
    checkSha(headSha);
    const dir = await this.existing(owner, name);
    const t = { timeoutMs: this.timeoutMs };
    const shortstat = async () => {
      const r = await runGit(dir, ['diff', '--shortstat', '-M', '--no-ext-diff', '--no-textconv', `${baseSha}...${headSha}`, '--'], { ...t, okCodes: [128] });
      if (r.code === 0) return r.stdout.toString('utf8');
      // No merge base (unrelated histories): the whole of head, from the empty tree, as compare shows it.
      const empty = (await runGit(dir, ['hash-object', '-t', 'tree', '--stdin'], { ...t, input: '' })).stdout.toString('utf8').trim();
      return (await runGit(dir, ['diff', '--shortstat', '-M', '--no-ext-diff', '--no-textconv', empty, headSha, '--'], t)).stdout.toString('utf8');
    };
    const mergeable = async (): Promise<{ mergeable: boolean; tree?: string }> => {
      try {
        const m = await mergeTree(dir, baseSha, headSha, this.timeoutMs);
        return m.clean ? { mergeable: true, tree: m.tree } : { mergeable: false };
      } catch (e) {
        if (e instanceof GitCommandError && /unrelated histories/.test(e.stderr)) return { mergeable: false };
        throw e;
      }
    };
    // `behind ahead`: with nothing of base missing from head, base is head's ancestor and the merge
    // is clean by construction; merge-tree runs only when base has commits of its own.
    const [count, stat] = await Promise.all([runGit(dir, ['rev-list', '--left-right', '--count', `${baseSha}...${headSha}`, '--'], t), shortstat()]);
    const [behind, ahead] = count.stdout.toString('utf8').trim().split(/\s+/).map(Number);
    const num = (re: RegExp) => Number(re.exec(stat)?.[1] ?? 0);
    return {
      commits: ahead!,
      changedFiles: num(/(\d+) files? changed/),
      additions: num(/(\d+) insertions?\(\+\)/),
      deletions: num(/(\d+) deletions?\(-\)/),
      ...(behind === 0 ? { mergeable: true } : await mergeable()),
      behind: behind!,
    };
  }

  /** `git merge-base --is-ancestor`. */
  async isAncestor(owner: string, name: string, ancestor: string, descendant: string): Promise<boolean> {
    const dir = await this.existing(owner, name);
    const a = await this.commit(dir, ancestor);
    const d = await this.commit(dir, descendant);
    if (a === null || d === null) return false;
    const r = await runGit(dir, ['merge-base', '--is-ancestor', a, d], { timeoutMs: this.timeoutMs, okCodes: [1] });
    return r.code === 0;
  }

  /**
   * Merges head into the base branch and publishes it with `git update-ref refs/heads/<base> NEW OLD`
   * (ARCHITECTURE §14: an atomic ref update from the expected old value, so two merges or a merge and
   * a push never lose a commit). When the base moved meanwhile the merge is recomputed on the new
   * base, up to MERGE_ATTEMPTS times, then RefMovedError; a conflict is MergeConflictError.
   */
  async merge(owner: string, name: string, o: MergeOptions): Promise<{ sha: string; old: string }> {
    await requireGitVersion();
    checkBranchName(o.baseBranch);
    checkSha(o.headSha);
    if (o.baseSha !== undefined) checkSha(o.baseSha);
    if (o.mergedTree !== undefined) checkSha(o.mergedTree);
    const dir = await this.existing(owner, name);
    const head = o.baseSha !== undefined ? o.headSha : await this.requireCommit(dir, owner, name, o.headSha);
    const ref = `refs/heads/${o.baseBranch}`;
    let known = o.baseSha;
    for (let attempt = 1; attempt <= MERGE_ATTEMPTS; attempt++) {
      const fromKnown = known !== undefined;
      const old = known ?? (await this.branchSha(owner, name, o.baseBranch));
      known = undefined;
      if (old === null) throw new GitNameError(`There is no branch ${o.baseBranch} in ${owner}/${name} to merge into.`);
      let next: string;
      try {
        // What the caller knows of its base holds only for that base, and only on the first attempt.
        next = await buildMerge(
          dir,
          this.conversations.objects(dir),
          old,
          head,
          o,
          this.timeoutMs,
          fromKnown ? { baseIsAncestor: o.baseIsAncestor === true, mergedTree: o.mergedTree } : {},
        );
      } catch (e) {
        // The caller's base may be out of date (gone from git): git's own answer decides.
        if (fromKnown && e instanceof GitCommandError) continue;
        throw e;
      }
      // Nothing to publish: true only of the branch as git has it now.
      if (next === old && fromKnown) continue;
      if (next === old) return { sha: old, old };
      try {
        // The reflog tells which method made the entry; the pull request's row (merged, head and merge commit) tells the rest.
        await this.conversations.publish(dir, `merge (${o.method})`, ref, next, old);
        return { sha: next, old };
      } catch (e) {
        if (!(e instanceof GitCommandError) || !/cannot lock ref|but expected|unable to create .*\.lock|File exists/i.test(e.stderr)) throw e;
      }
      // Lost a race with another merge or a push: back off a little (randomly, so racers spread) and redo it on the new base.
      await sleep(Math.floor(Math.random() * 20 * attempt) + 5);
    }
    throw new RefMovedError(o.baseBranch, MERGE_ATTEMPTS);
  }
}
