import { notFound } from './errors.js';
import { gitOf, type CodeHost } from './host.js';
import type { CommitInfo, Comparison, CompareLimits } from './git-port.js';
import { PATCH_BYTES_MAX, PULL_COMMITS_MAX } from './limits.js';
import { pullOf, viewOf } from './pull-views.js';
import { PAGE_FILES_MAX, PAGE_PATCH_BYTES } from './review-page.js';
import { isBranchName } from './seed.js';
import type { PullView, RepoAccess } from './views.js';

/**
 * What the diff pages show (ARCHITECTURE §22 "Pages"): a pull request's files, its commits, one of
 * its commits, the change between two of its heads; a commit of the repository; a comparison of
 * two branches or commits. Every commit named in an address is checked (hex, 4 to 40 digits, one
 * commit of this repository) before git diffs anything; an unknown one is 404, never git's words.
 */

/** A page's diff budget (docs/limits.md "Diffs"): 300 files, 1 MiB and 20,000 lines of patches, 512 KiB or 20,000 lines a file. */
export const PAGE_DIFF_LIMITS: CompareLimits = {
  maxCommits: PULL_COMMITS_MAX,
  maxFiles: PAGE_FILES_MAX,
  maxPatchBytes: PATCH_BYTES_MAX,
  maxPatchLines: 20_000,
  maxTotalPatchBytes: PAGE_PATCH_BYTES,
  maxTotalPatchLines: 20_000,
};

const SHA = /^[0-9a-f]{4,40}$/;

/** The full id of an abbreviated or full commit id of this repository; 404 for anything else. */
async function commitOf(host: CodeHost, access: RepoAccess, sha: string): Promise<string> {
  if (!SHA.test(sha)) throw notFound();
  const full = await gitOf(host).resolveCommit(access.repo.owner, access.repo.name, sha);
  if (full === null) throw notFound();
  return full;
}

export interface PullDiffPage {
  view: PullView;
  comparison: Comparison;
}

/** `/<o>/<r>/pull/<n>/files` and `/<o>/<r>/pull/<n>/commits`: the pull request's diff and its commits. */
export async function pullDiffPage(host: CodeHost, access: RepoAccess, number: number): Promise<PullDiffPage> {
  const view = await viewOf(host, access, await pullOf(host, access, number));
  const comparison = await gitOf(host).compare(access.repo.owner, access.repo.name, view.baseSha, view.headSha, PAGE_DIFF_LIMITS);
  return { view, comparison };
}

export interface CommitPage {
  commit: CommitInfo;
  comparison: Comparison;
}

/** One commit's change, from its first parent. */
async function commitChange(host: CodeHost, access: RepoAccess, sha: string): Promise<CommitPage> {
  const comparison = await gitOf(host).compareCommit(access.repo.owner, access.repo.name, sha, PAGE_DIFF_LIMITS);
  const commit = comparison.commits.find((c) => c.sha === sha);
  if (commit === undefined) throw notFound();
  return { commit, comparison };
}

/** `/<o>/<r>/commit/<sha>`. */
export async function commitPage(host: CodeHost, access: RepoAccess, sha: string): Promise<CommitPage> {
  return commitChange(host, access, await commitOf(host, access, sha));
}

/** `/<o>/<r>/pull/<n>/commits/<sha>`: a commit of the pull request (one of base..head; another is 404). */
export async function pullCommitPage(host: CodeHost, access: RepoAccess, number: number, sha: string): Promise<CommitPage & { view: PullView }> {
  const { view, comparison } = await pullDiffPage(host, access, number);
  const full = SHA.test(sha) ? comparison.commits.find((c) => c.sha.startsWith(sha)) : undefined;
  if (full === undefined) throw notFound();
  return { view, ...(await commitChange(host, access, full.sha)) };
}

/** `/<o>/<r>/pull/<n>/files/<a>..<b>`: what changed between two heads (the trees of a and b, compared directly). */
export async function pullRangePage(
  host: CodeHost,
  access: RepoAccess,
  number: number,
  from: string,
  to: string,
): Promise<PullDiffPage & { from: string; to: string }> {
  const view = await viewOf(host, access, await pullOf(host, access, number));
  const [a, b] = [await commitOf(host, access, from), await commitOf(host, access, to)];
  const comparison = await gitOf(host).compare(access.repo.owner, access.repo.name, a, b, PAGE_DIFF_LIMITS, 'direct');
  return { view, comparison, from: a, to: b };
}

/** A branch name or a commit id of the compare page's address; 404 when it names neither. */
async function revOf(host: CodeHost, access: RepoAccess, rev: string): Promise<string> {
  if (SHA.test(rev)) {
    const full = await gitOf(host).resolveCommit(access.repo.owner, access.repo.name, rev);
    if (full !== null) return full;
  }
  if (!isBranchName(rev)) throw notFound();
  const sha = await gitOf(host).branchSha(access.repo.owner, access.repo.name, rev);
  if (sha === null) throw notFound();
  return sha;
}

/** `/<o>/<r>/compare/<base>...<head>` (or `<base>..<head>`, read as GitHub reads it: the three dots). */
export async function comparePage(
  host: CodeHost,
  access: RepoAccess,
  spec: string,
): Promise<{ base: string; head: string; baseSha: string; headSha: string; comparison: Comparison }> {
  const m = /^(.+?)\.{2,3}(.+)$/.exec(spec);
  if (m === null) throw notFound();
  const [base, head] = [m[1]!, m[2]!];
  const [baseSha, headSha] = [await revOf(host, access, base), await revOf(host, access, head)];
  const comparison = await gitOf(host).compare(access.repo.owner, access.repo.name, baseSha, headSha, PAGE_DIFF_LIMITS);
  return { base, head, baseSha, headSha, comparison };
}
