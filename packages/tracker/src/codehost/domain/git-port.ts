/**
 * What the code host's domain needs of git (implemented by ../git/repos.ts, BareRepos, over the
 * bare repositories under --repos). Every call runs git itself; nothing here re-implements it.
 */
// The values git answers with are git's own types (../git); only the calls are the domain's port.
export type { CommitInfo, GitPerson } from '../git/commits.js';
export type { Comparison, FileChange } from '../git/compare.js';
import type { Comparison } from '../git/compare.js';
import type { GitPerson } from '../git/commits.js';

export interface CompareLimits {
  maxCommits: number;
  maxFiles: number;
  maxPatchBytes: number;
}

export interface MergeRequest {
  baseBranch: string;
  headSha: string;
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
  compare(owner: string, name: string, base: string, head: string, limits: CompareLimits): Promise<Comparison>;
  mergeability(owner: string, name: string, baseSha: string, headSha: string): Promise<{ mergeable: boolean; conflicts: string[] }>;
  /** Publishes the merge on the base branch; throws MergeConflictError or RefMovedError (../git/errors). */
  merge(owner: string, name: string, request: MergeRequest): Promise<{ sha: string }>;
  isAncestor(owner: string, name: string, ancestor: string, descendant: string): Promise<boolean>;
  /** Every branch and its commit. */
  branches(owner: string, name: string): Promise<Array<{ name: string; sha: string }>>;
}

/** How the domain tells a merge refusal from a fault, whatever error classes the implementation throws. */
export interface GitErrorKinds {
  isConflict(error: unknown): boolean;
  isRefMoved(error: unknown): boolean;
}
