import { readRawCommits } from './commits.js';
import type { GitObjects } from './conversation.js';
import { GitCommandError, MergeConflictError } from './errors.js';
import { runGit } from './run.js';

/**
 * Merges made by git in the bare repository, without a work tree (ARCHITECTURE §14: "a merge is
 * made by git in the bare repository"): `merge-tree --write-tree` computes the merged tree, and
 * the repository's git conversation (./conversation.ts: `cat-file --batch-check`, `hash-object -w`)
 * checks the objects and writes the commit as `git commit-tree` would, with no process started.
 * Nothing here moves a ref; the caller publishes.
 */

export interface GitIdentity {
  name: string;
  email: string;
  date?: Date | string;
}

export type MergeMethod = 'merge' | 'squash' | 'rebase';

export interface MergeTreeResult {
  tree: string;
  clean: boolean;
  conflicts: string[];
}

/** `git merge-tree --write-tree OURS THEIRS`: the merged tree and the conflicted paths. */
export async function mergeTree(gitDir: string, ours: string, theirs: string, timeoutMs: number): Promise<MergeTreeResult> {
  const r = await runGit(gitDir, ['merge-tree', '--write-tree', '--name-only', '-z', '--no-messages', ours, theirs], { timeoutMs, okCodes: [1] });
  const parts = r.stdout.toString('utf8').split('\0');
  const tree = parts[0]!.trim();
  const conflicts = [...new Set(parts.slice(1).filter((p) => p !== ''))];
  return { tree, clean: r.code === 0, conflicts };
}

/**
 * An identity as git writes it: the characters that would end its field or line (angle brackets,
 * line breaks, every control) removed, then what git's ident.c strips from either end as "crud"
 * (spaces, `.,:;"'\\`; newer gits keep a `.`, so it goes too, and every git writes the result
 * unchanged): the text is what `git commit-tree` writes for it.
 */
export function cleanIdent(s: string): string {
  return s.replace(/[<>\x00-\x1f]/g, '').replace(/^[\x20.,:;"'\\]+|[\x20.,:;"'\\]+$/g, '');
}

/** git's raw date (`@<epoch> +0000`) for a Date or an ISO 8601 string. */
function rawDate(date: Date | string | undefined): string | undefined {
  if (date === undefined) return undefined;
  const d = typeof date === 'string' ? new Date(date) : date;
  if (Number.isNaN(d.getTime())) throw new Error(`The commit date ${JSON.stringify(String(date).slice(0, 40))} is not a valid date (use ISO 8601).`);
  return `@${Math.floor(d.getTime() / 1000)} +0000`;
}

/** `Name <email> <epoch> <zone>`: a name that cleans to nothing is the email's, else "unknown". */
function identLine(who: { name: string; email: string }, raw: string | undefined): string {
  const email = cleanIdent(who.email);
  const name = cleanIdent(who.name) || email || 'unknown';
  const date = (raw ?? `@${Math.floor(Date.now() / 1000)} +0000`).replace(/^@/, '');
  return `${name} <${email}> ${date}`;
}

export interface CommitSpec {
  /** A tree's id, or `<commit>^{tree}`. */
  tree: string;
  parents: string[];
  /** Written as is (git's commit-tree does not clean it up). */
  message: string;
  author: { name: string; email: string };
  /** git's raw date or undefined for now. */
  authorDate: string | undefined;
  committer: GitIdentity;
}

/** A commit object's text, as `git commit-tree` writes it (tree and parents already full ids). */
export function commitText(c: CommitSpec & { tree: string }): string {
  return [
    `tree ${c.tree}`,
    ...c.parents.map((p) => `parent ${p}`),
    `author ${identLine(c.author, c.authorDate)}`,
    `committer ${identLine(c.committer, rawDate(c.committer.date))}`,
    '',
    c.message,
  ].join('\n');
}

/**
 * Writes a commit through the repository's conversation (git/conversation.ts), as `git commit-tree`
 * would: the tree and every parent must be there (a tree gone is git's own error, which the merge
 * answers by making it again), and git checks the commit's format before it writes it.
 */
export async function writeCommit(objects: GitObjects, c: CommitSpec): Promise<string> {
  const [tree, ...parents] = await objects.lookup([c.tree, ...c.parents]);
  if (tree?.type !== 'tree') throw new GitCommandError('commit-tree', 128, `fatal: not a valid tree object name ${c.tree}`);
  parents.forEach((p, i) => {
    if (p?.type !== 'commit') throw new GitCommandError('commit-tree', 128, `fatal: not a valid object name ${c.parents[i]}`);
  });
  return objects.writeCommit(commitText({ ...c, tree: tree.oid, parents: parents.map((p) => p!.oid) }));
}

export interface MergeSpec {
  method: MergeMethod;
  title: string;
  message: string;
  author: GitIdentity;
  committer: GitIdentity;
}

/** A pull request's figures (repos.ts BareRepos.stats). */
export interface PullStats {
  commits: number;
  additions: number;
  deletions: number;
  changedFiles: number;
  mergeable: boolean;
  /**
   * Commits of base not in head: 0 when base is an ancestor of head, so the merge is clean and its
   * tree is head's (no merge-tree needed, here or at the merge). Absent from figures kept before it was.
   */
  behind?: number;
  /**
   * The merged tree `merge-tree --write-tree` wrote for these two commits, when it ran and the
   * merge is clean (a merge on exactly this base and head takes it: MergeOptions.mergedTree).
   */
  tree?: string;
  /** When the figures were computed (ISO 8601; set by the domain, pull-stats.ts). */
  computedAt?: string;
}

export interface MergeOptions {
  baseBranch: string;
  headSha: string;
  /**
   * The base branch's commit as the caller knows it (the database's record): the first attempt is
   * made on it without asking git, and `update-ref`'s compare-and-set proves it; when the branch
   * is elsewhere the merge is redone on git's own answer. Given, the head is taken as a commit
   * the caller knows to exist (no rev-parse).
   */
  baseSha?: string | undefined;
  /**
   * The caller knows `baseSha` to be an ancestor of the head (the pull request's kept figures,
   * PullStats.behind 0): a merge on that base takes head's tree as it is, without merge-tree.
   */
  baseIsAncestor?: boolean | undefined;
  /**
   * The merged tree of exactly `baseSha` and head, written by merge-tree less than a day ago (the
   * pull request's kept figures): a merge on that base takes it without merge-tree. The conversation
   * (./conversation.ts) proves it is there; gone (pruned), the merge is redone from git's own answers.
   */
  mergedTree?: string | undefined;
  method: MergeMethod;
  title: string;
  message: string;
  author: GitIdentity;
  committer: GitIdentity;
}

/** What the caller knows of exactly this base and head (the pull request's kept figures), so merge-tree need not run. */
export interface KnownMerge {
  /** base is an ancestor of head: the merged tree is head's. */
  baseIsAncestor?: boolean;
  /** The merged tree merge-tree wrote for them. */
  mergedTree?: string | undefined;
}

/** GitHub's commit message: the title, a blank line, the message when there is one. */
function messageOf(title: string, message: string): string {
  const body = message.replace(/\s+$/, '');
  return body === '' ? `${title}\n` : `${title}\n\n${body}\n`;
}

/** A commit's tree id, asked of the conversation. */
async function treeOf(objects: GitObjects, commit: string): Promise<string> {
  const [tree] = await objects.lookup([`${commit}^{tree}`]);
  if (tree?.type !== 'tree') throw new GitCommandError('rev-parse', 128, `fatal: not a valid object name ${commit}^{tree}`);
  return tree.oid;
}

/**
 * The commit the base branch would move to when `head` is merged into `base` (a commit of base),
 * or MergeConflictError. `merge`: a merge commit with parents base and head. `squash`: one commit
 * with base as its only parent and the merged tree. `rebase`: head's own commits (base..head, merge
 * commits left out as `git rebase` does) replayed one by one onto base, keeping their authors and
 * messages; a commit that becomes empty is dropped, as `git rebase` drops it.
 */
export async function buildMerge(
  gitDir: string,
  objects: GitObjects,
  base: string,
  head: string,
  spec: MergeSpec,
  timeoutMs: number,
  known: KnownMerge = {},
): Promise<string> {
  // base an ancestor of head (the caller knows it): the three-way merge is head's tree, clean by
  // construction, taken by name (`<head>^{tree}`) with no merge-tree first. The caller holds the
  // merged tree of this very base and head: taken as it is (and git's error if it is gone).
  const merged =
    known.baseIsAncestor === true && spec.method !== 'rebase'
      ? { tree: `${head}^{tree}`, clean: true, conflicts: [] }
      : known.mergedTree !== undefined && spec.method !== 'rebase'
        ? { tree: known.mergedTree, clean: true, conflicts: [] }
        : await mergeTree(gitDir, base, head, timeoutMs).catch((e: unknown) => {
            if (e instanceof GitCommandError && /unrelated histories/.test(e.stderr)) throw new MergeConflictError([]);
            throw e;
          });
  if (!merged.clean) throw new MergeConflictError(merged.conflicts);
  const message = messageOf(spec.title, spec.message);
  const authorDate = rawDate(spec.author.date);
  if (spec.method === 'merge') {
    return writeCommit(objects, { tree: merged.tree, parents: [base, head], message, author: spec.author, authorDate, committer: spec.committer });
  }
  if (spec.method === 'squash') {
    return writeCommit(objects, { tree: merged.tree, parents: [base], message, author: spec.author, authorDate, committer: spec.committer });
  }
  return replay(gitDir, objects, base, head, merged.tree, spec.committer, timeoutMs);
}

async function replay(
  gitDir: string,
  objects: GitObjects,
  base: string,
  head: string,
  mergedTree: string,
  committer: GitIdentity,
  timeoutMs: number,
): Promise<string> {
  const list = await runGit(gitDir, ['rev-list', '--reverse', '--topo-order', '--no-merges', head, `^${base}`], { timeoutMs });
  const shas = list.stdout
    .toString('utf8')
    .split('\n')
    .filter((s) => s !== '');
  const commits = await readRawCommits(gitDir, shas, timeoutMs);
  let tip = base;
  let tipTree = await treeOf(objects, base);
  for (const c of commits) {
    const parent = c.parents[0];
    let tree: string;
    if (parent === tip || parent === undefined) {
      tree = c.tree;
    } else {
      // A cherry-pick without a work tree: a stand-in commit with the tip's tree whose only parent is
      // c's parent makes that parent the merge base, so merge-tree applies exactly c's change to the tip.
      const standIn = await writeCommit(objects, {
        tree: tipTree,
        parents: [parent],
        message: 'replay\n',
        author: committer,
        authorDate: undefined,
        committer,
      });
      const picked = await mergeTree(gitDir, standIn, c.sha, timeoutMs);
      if (!picked.clean) throw new MergeConflictError(picked.conflicts);
      tree = picked.tree;
    }
    if (tree === tipTree) continue;
    tip = await writeCommit(objects, {
      tree,
      parents: [tip],
      message: c.message,
      author: { name: c.authorName, email: c.authorEmail },
      authorDate: `@${c.authorDate}`,
      committer,
    });
    tipTree = tree;
  }
  // Every change of head must be there: a replay that dropped a merge commit's own resolution
  // would end elsewhere than the three-way merge; refuse rather than publish a different result.
  if (tipTree !== mergedTree) {
    const diff = await runGit(gitDir, ['diff', '--name-only', '-z', tipTree, mergedTree, '--'], { timeoutMs });
    throw new MergeConflictError(
      diff.stdout
        .toString('utf8')
        .split('\0')
        .filter((p) => p !== ''),
    );
  }
  return tip;
}
