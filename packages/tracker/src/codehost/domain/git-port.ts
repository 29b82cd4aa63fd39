/**
 * What the code host's domain needs of git (implemented by ../git/repos.ts, BareRepos, over the
 * bare repositories under --repos). Every call runs git itself; nothing here re-implements it.
 */
// The values git answers with are git's own types (../git); only the calls are the domain's port.
export type { CommitInfo, GitPerson } from '../git/commits.js';
export type { Comparison, FileChange } from '../git/compare.js';
export type { BranchTip } from '../git/repos.js';
import type { BranchTip } from '../git/repos.js';
export type { DiffKind, DiffText } from '../git/diff-text.js';
import type { Comparison } from '../git/compare.js';
import type { DiffKind, DiffText } from '../git/diff-text.js';
import type { GitPerson } from '../git/commits.js';

export type { PullStats } from '../git/repos.js';
import type { PullStats } from '../git/repos.js';

export interface CompareLimits {
  maxCommits: number;
  maxFiles: number;
  maxPatchBytes: number;
  /** The rest default to docs/limits.md "Diffs". */
  maxPatchLines?: number;
  maxTotalPatchBytes?: number;
  maxTotalPatchLines?: number;
}

export interface MergeRequest {
  baseBranch: string;
  headSha: string;
  /** The base's commit as recorded (refs.ts): tried first, proven by git's compare-and-set. */
  baseSha?: string | undefined;
  /** `baseSha` is an ancestor of the head (the pull request's kept figures say so): the merge needs no merge-tree. */
  baseIsAncestor?: boolean | undefined;
  /** The merged tree of exactly `baseSha` and head, from the pull request's kept figures (pull-stats.ts reusableTree): no merge-tree. */
  mergedTree?: string | undefined;
  method: 'merge' | 'squash' | 'rebase';
  title: string;
  message: string;
  author: GitPerson;
  committer: GitPerson;
}

export interface GitRepos {
  ensure(owner: string, name: string, defaultBranch: string): Promise<void>;
  exists(owner: string, name: string): Promise<boolean>;
  /** The branch's commit, or null when there is no such branch. */
  branchSha(owner: string, name: string, branch: string): Promise<string | null>;
  /** base...head (the diff from their merge base), or base..head's trees directly (mode 'direct': two heads of a pull request). */
  compare(owner: string, name: string, base: string, head: string, limits: CompareLimits, mode?: 'merge-base' | 'direct'): Promise<Comparison>;
  /** One commit's change, from its first parent. */
  compareCommit(owner: string, name: string, sha: string, limits: CompareLimits): Promise<Comparison>;
  /** The diff (`git diff base...head`) or patch (`git format-patch --stdout base..head`) as text, or which budget it passes. */
  diffText(owner: string, name: string, base: string, head: string, kind: DiffKind): Promise<DiffText>;
  /** A full commit id from a full or abbreviated one, or null when it names no single commit. */
  resolveCommit(owner: string, name: string, sha: string): Promise<string | null>;
  /** A commit's first parent, or null for a root commit. */
  parentOf(owner: string, name: string, sha: string): Promise<string | null>;
  mergeability(owner: string, name: string, baseSha: string, headSha: string): Promise<{ mergeable: boolean; conflicts: string[] }>;
  /** Publishes the merge on the base branch (`old`: the base it was made on); throws MergeConflictError or RefMovedError (../git/errors). */
  merge(owner: string, name: string, request: MergeRequest): Promise<{ sha: string; old: string }>;
  /** The repository's refs (all, or those named) and their objects, from git itself. */
  refs(owner: string, name: string, only?: string[]): Promise<Array<{ ref: string; sha: string }>>;
  /** The refs pushes made straight into the repository's folder updated since last asked. */
  takeOutsidePushes(owner: string, name: string): Promise<{ updates: Array<{ ref: string; old: string; new: string }>; done(): Promise<void> }>;
  isAncestor(owner: string, name: string, ancestor: string, descendant: string): Promise<boolean>;
  /** The branches, the most recently committed first (at most `max`), with their latest commits; and how many there are. */
  branchTips(owner: string, name: string, max: number): Promise<{ branches: BranchTip[]; total: number }>;
  /** A pull request's figures for base...head (commits, lines, files, mergeability), from as few git processes as git allows. */
  stats(owner: string, name: string, baseSha: string, headSha: string): Promise<PullStats>;
}

/** How the domain tells a merge refusal from a fault, whatever error classes the implementation throws. */
export interface GitErrorKinds {
  isConflict(error: unknown): boolean;
  isRefMoved(error: unknown): boolean;
}
