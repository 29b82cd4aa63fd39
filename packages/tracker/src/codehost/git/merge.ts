import { readRawCommits } from './commits.js';
import { GitCommandError, MergeConflictError } from './errors.js';
import { runGit } from './run.js';

/**
 * Merges made by git in the bare repository, without a work tree (ARCHITECTURE §14: "a merge is
 * made by git in the bare repository"): `merge-tree --write-tree` computes the merged tree,
 * `commit-tree` writes the commit. Nothing here moves a ref; the caller publishes.
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

/** Removes what git would refuse or mangle in an identity (angle brackets, line breaks, NUL). */
function cleanIdent(s: string): string {
  return s.replace(/[<>\x00-\x1f]/g, '').trim();
}

/** git's raw date (`@<epoch> +0000`) for a Date or an ISO 8601 string. */
function rawDate(date: Date | string | undefined): string | undefined {
  if (date === undefined) return undefined;
  const d = typeof date === 'string' ? new Date(date) : date;
  if (Number.isNaN(d.getTime())) throw new Error(`The commit date ${JSON.stringify(String(date).slice(0, 40))} is not a valid date (use ISO 8601).`);
  return `@${Math.floor(d.getTime() / 1000)} +0000`;
}

function identityEnv(role: 'AUTHOR' | 'COMMITTER', who: { name: string; email: string }, date: string | undefined): Record<string, string> {
  const name = cleanIdent(who.name) || cleanIdent(who.email) || 'unknown';
  const env: Record<string, string> = { [`GIT_${role}_NAME`]: name, [`GIT_${role}_EMAIL`]: cleanIdent(who.email) };
  if (date !== undefined) env[`GIT_${role}_DATE`] = date;
  return env;
}

export interface CommitSpec {
  tree: string;
  parents: string[];
  /** Written as is (git's commit-tree does not clean it up). */
  message: string;
  author: { name: string; email: string };
  /** git's raw date or undefined for now. */
  authorDate: string | undefined;
  committer: GitIdentity;
}

export async function commitTree(gitDir: string, c: CommitSpec, timeoutMs: number): Promise<string> {
  const env = {
    ...identityEnv('AUTHOR', c.author, c.authorDate),
    ...identityEnv('COMMITTER', c.committer, rawDate(c.committer.date)),
  };
  const args = ['commit-tree', c.tree, ...c.parents.flatMap((p) => ['-p', p])];
  const r = await runGit(gitDir, args, { input: c.message, env, timeoutMs });
  return r.stdout.toString('utf8').trim();
}

export interface MergeSpec {
  method: MergeMethod;
  title: string;
  message: string;
  author: GitIdentity;
  committer: GitIdentity;
}

/** GitHub's commit message: the title, a blank line, the message when there is one. */
function messageOf(title: string, message: string): string {
  const body = message.replace(/\s+$/, '');
  return body === '' ? `${title}\n` : `${title}\n\n${body}\n`;
}

const treeOf = async (gitDir: string, commit: string, timeoutMs: number) =>
  (await runGit(gitDir, ['rev-parse', '--verify', '--end-of-options', `${commit}^{tree}`], { timeoutMs })).stdout.toString('utf8').trim();

/**
 * The commit the base branch would move to when `head` is merged into `base` (a commit of base),
 * or MergeConflictError. `merge`: a merge commit with parents base and head. `squash`: one commit
 * with base as its only parent and the merged tree. `rebase`: head's own commits (base..head, merge
 * commits left out as `git rebase` does) replayed one by one onto base, keeping their authors and
 * messages; a commit that becomes empty is dropped, as `git rebase` drops it.
 */
export async function buildMerge(gitDir: string, base: string, head: string, spec: MergeSpec, timeoutMs: number, baseIsAncestor = false): Promise<string> {
  // base an ancestor of head (the caller knows it): the three-way merge is head's tree, clean by
  // construction, and commit-tree takes it by name (`<head>^{tree}`) with no merge-tree first.
  const merged =
    baseIsAncestor && spec.method !== 'rebase'
      ? { tree: `${head}^{tree}`, clean: true, conflicts: [] }
      : await mergeTree(gitDir, base, head, timeoutMs).catch((e: unknown) => {
          if (e instanceof GitCommandError && /unrelated histories/.test(e.stderr)) throw new MergeConflictError([]);
          throw e;
        });
  if (!merged.clean) throw new MergeConflictError(merged.conflicts);
  const message = messageOf(spec.title, spec.message);
  const authorDate = rawDate(spec.author.date);
  if (spec.method === 'merge') {
    return commitTree(gitDir, { tree: merged.tree, parents: [base, head], message, author: spec.author, authorDate, committer: spec.committer }, timeoutMs);
  }
  if (spec.method === 'squash') {
    return commitTree(gitDir, { tree: merged.tree, parents: [base], message, author: spec.author, authorDate, committer: spec.committer }, timeoutMs);
  }
  return replay(gitDir, base, head, merged.tree, spec.committer, timeoutMs);
}

async function replay(gitDir: string, base: string, head: string, mergedTree: string, committer: GitIdentity, timeoutMs: number): Promise<string> {
  const list = await runGit(gitDir, ['rev-list', '--reverse', '--topo-order', '--no-merges', head, `^${base}`], { timeoutMs });
  const shas = list.stdout
    .toString('utf8')
    .split('\n')
    .filter((s) => s !== '');
  const commits = await readRawCommits(gitDir, shas, timeoutMs);
  let tip = base;
  let tipTree = await treeOf(gitDir, base, timeoutMs);
  for (const c of commits) {
    const parent = c.parents[0];
    let tree: string;
    if (parent === tip || parent === undefined) {
      tree = await treeOf(gitDir, c.sha, timeoutMs);
    } else {
      // A cherry-pick without a work tree: a stand-in commit with the tip's tree whose only parent is
      // c's parent makes that parent the merge base, so merge-tree applies exactly c's change to the tip.
      const standIn = await commitTree(
        gitDir,
        { tree: tipTree, parents: [parent], message: 'replay\n', author: committer, authorDate: undefined, committer },
        timeoutMs,
      );
      const picked = await mergeTree(gitDir, standIn, c.sha, timeoutMs);
      if (!picked.clean) throw new MergeConflictError(picked.conflicts);
      tree = picked.tree;
    }
    if (tree === tipTree) continue;
    tip = await commitTree(
      gitDir,
      {
        tree,
        parents: [tip],
        message: c.message,
        author: { name: c.authorName, email: c.authorEmail },
        authorDate: `@${c.authorDate}`,
        committer,
      },
      timeoutMs,
    );
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
