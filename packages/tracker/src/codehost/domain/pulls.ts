import { custom, invalid, invalidFields, type FieldProblem } from './errors.js';
import { announce } from './events.js';
import { gitOf, type CodeHost } from './host.js';
import { issueKeyOfBranch, isIssueKey } from './issue-keys.js';
import type { Comparison } from './git-port.js';
import { PAGE_PATCH_BYTES_MAX, PATCH_BYTES_MAX, PULL_COMMITS_MAX, PULL_FILES_MAX } from './limits.js';
import type { PullListQuery } from './model.js';
import { computeStats, statsKey } from './pull-stats.js';
import { detailOf, pullOf, viewOf } from './pull-views.js';
import { branchSha, branchShas } from './refs.js';
import { isBranchName } from './seed.js';
import { storeOf } from './store-access.js';
import type { IssuePull, PullDetail, PullView, RepoAccess } from './views.js';

/** Pull requests (ARCHITECTURE §14): their numbers, listing, opening, editing, closing and reopening, commits and files. */

/** What opening a pull request takes (the HTTP edge has checked the types and sizes). */
export interface CreatePull {
  title: string;
  /** `branch`, or `owner:branch` of this repository's owner. */
  head: string;
  base: string;
  body?: string | null | undefined;
  draft?: boolean | null | undefined;
}

/** What an edit may change; each optional. */
export interface UpdatePull {
  title?: string | undefined;
  body?: string | null | undefined;
  state?: 'open' | 'closed' | undefined;
  base?: string | undefined;
}

/** A branch name git could take, or null (never asked of git). */
const branchOrNull = (name: string) => (isBranchName(name) ? name : null);

export async function getPull(host: CodeHost, access: RepoAccess, number: number): Promise<PullDetail> {
  return detailOf(host, await viewOf(host, access, await pullOf(host, access, number)));
}

export async function listPulls(
  host: CodeHost,
  access: RepoAccess,
  q: Omit<PullListQuery, 'head'> & { head?: string | undefined },
): Promise<{ pulls: PullView[]; total: number }> {
  let head: string | undefined;
  if (q.head !== undefined) {
    // GitHub's filter is `owner:branch`; a head without an owner filters nothing (as on GitHub),
    // and another owner's branch cannot be the head of a pull request here (no forks).
    const colon = q.head.indexOf(':');
    if (colon >= 0) {
      if (q.head.slice(0, colon).toLowerCase() !== access.repo.owner.toLowerCase()) return { pulls: [], total: 0 };
      head = q.head.slice(colon + 1);
    }
  }
  const { rows, total } = await storeOf(host).pulls.list(access.repo.id, { ...q, head });
  // The open ones' branches, read from the database at once (no git: refs.ts).
  const open = rows.filter((r) => r.state === 'open');
  const shas =
    open.length === 0
      ? new Map<string, string | null>()
      : await branchShas(
          host,
          access.repo,
          open.flatMap((r) => [r.head_ref, r.base_ref]),
        );
  const pulls: PullView[] = [];
  for (const row of rows) pulls.push(await viewOf(host, access, row, shas));
  return { pulls, total };
}

/** `head` of a create: `branch` or `owner:branch` of this repository's owner. */
function headBranch(access: RepoAccess, head: string): string | null {
  const colon = head.indexOf(':');
  if (colon < 0) return branchOrNull(head);
  if (head.slice(0, colon).toLowerCase() !== access.repo.owner.toLowerCase()) return null;
  return branchOrNull(head.slice(colon + 1));
}

const alreadyOpen = (owner: string, head: string, field?: string, base?: string) =>
  invalidFields([
    field === undefined
      ? custom(`A pull request already exists for ${owner}:${head}.`)
      : custom(`state cannot be changed. There is already an open pull request from ${head} to ${base}.`, 'PullRequest', field),
  ]);

export async function createPull(host: CodeHost, access: RepoAccess, input: CreatePull): Promise<PullDetail> {
  gitOf(host); // the code host is on (its 'off' error otherwise)
  const store = storeOf(host);
  const { repo } = access;
  const errors: FieldProblem[] = [];
  const headRef = headBranch(access, input.head);
  const baseRef = branchOrNull(input.base);
  const shas = await branchShas(
    host,
    repo,
    [headRef, baseRef].filter((b): b is string => b !== null),
  );
  const headSha = headRef === null ? null : (shas.get(headRef) ?? null);
  const baseSha = baseRef === null ? null : (shas.get(baseRef) ?? null);
  if (headSha === null) errors.push(invalid('head'));
  if (baseSha === null) errors.push(invalid('base'));
  if (errors.length > 0) throw invalidFields(errors);
  if (await store.pulls.openFor(repo.id, headRef!, baseRef!)) throw alreadyOpen(repo.owner, headRef!);
  // The figures the answer shows, computed once here and kept (pull-stats.ts).
  const stats = await computeStats(host, repo.owner, repo.name, baseSha!, headSha!);
  if (stats.commits === 0) throw invalidFields([custom(`No commits between ${baseRef} and ${headRef}`)]);
  const created = await store.pulls.create(
    {
      repo_id: repo.id,
      user_id: access.user.id,
      title: input.title,
      body: input.body ?? null,
      draft: input.draft === true,
      head_ref: headRef!,
      issue_key: issueKeyOfBranch(headRef!),
      base_ref: baseRef!,
      head_sha: headSha!,
      base_sha: baseSha!,
      stats_key: statsKey(baseSha!, headSha!),
      stats: JSON.stringify(stats),
    },
    host.now(),
  );
  // The database refused a second open pull request: another request opened it a moment before.
  if (created === 'exists') throw alreadyOpen(repo.owner, headRef!);
  const view = await viewOf(host, access, created);
  await announce(host, { kind: 'pull_request', action: 'opened', access, view });
  return detailOf(host, view);
}

export async function updatePull(host: CodeHost, access: RepoAccess, number: number, input: UpdatePull): Promise<PullDetail> {
  gitOf(host); // the code host is on (its 'off' error otherwise)
  const store = storeOf(host);
  const pull = await pullOf(host, access, number);
  const { repo } = access;
  const now = host.now();
  const changes: Record<string, { from: string }> = {};
  let stateChange: 'closed' | 'reopened' | undefined;
  if (input.base !== undefined && input.base !== pull.base_ref) {
    if (pull.state !== 'open') throw invalidFields([{ ...invalid('base'), message: 'Cannot change the base branch of a closed pull request.' }]);
    const base = branchOrNull(input.base);
    const baseSha = base === null ? null : await branchSha(host, repo, base);
    if (baseSha === null) throw invalidFields([invalid('base')]);
    if ((await store.pulls.update(pull.id, { base_ref: base!, base_sha: baseSha }, now)) === 'exists') throw alreadyOpen(repo.owner, pull.head_ref);
    changes.base = { from: pull.base_ref };
  }
  if (input.title !== undefined || input.body !== undefined) {
    await store.pulls.update(
      pull.id,
      { ...(input.title !== undefined ? { title: input.title } : {}), ...(input.body !== undefined ? { body: input.body } : {}) },
      now,
    );
    if (input.title !== undefined && input.title !== pull.title) changes.title = { from: pull.title };
    if (input.body !== undefined && input.body !== pull.body) changes.body = { from: pull.body ?? '' };
  }
  if (input.state !== undefined && input.state !== pull.state) {
    const current = (await store.pulls.byNumber(repo.id, pull.number))!;
    const view = await viewOf(host, access, current);
    if (input.state === 'closed') {
      if (!(await store.pulls.close(pull.id, view.headSha, view.baseSha, now)) && !current.merged) {
        throw invalidFields([custom('The pull request is being merged; it cannot be closed now.', 'PullRequest', 'state')]);
      }
      if (!current.merged) stateChange = 'closed';
    } else {
      if (current.merged) throw invalidFields([custom('state cannot be changed. The pull request has been merged.', 'PullRequest', 'state')]);
      const shas = await branchShas(host, repo, [current.head_ref, current.base_ref]);
      const headSha = shas.get(current.head_ref) ?? null;
      const baseSha = shas.get(current.base_ref) ?? null;
      if (headSha === null || baseSha === null) {
        const gone = headSha === null ? current.head_ref : current.base_ref;
        throw invalidFields([custom(`state cannot be changed. The ${gone} branch has been deleted.`, 'PullRequest', 'state')]);
      }
      if ((await store.pulls.reopen(pull.id, headSha, baseSha, now)) === 'exists') throw alreadyOpen(repo.owner, current.head_ref, 'state', current.base_ref);
      stateChange = 'reopened';
    }
  }
  const detail = await getPull(host, access, number);
  if (Object.keys(changes).length > 0) await announce(host, { kind: 'pull_request', action: 'edited', access, view: detail, changes });
  if (stateChange) await announce(host, { kind: 'pull_request', action: stateChange, access, view: detail });
  return detail;
}

export async function pullCommits(host: CodeHost, access: RepoAccess, number: number): Promise<{ view: PullView; comparison: Comparison }> {
  const view = await viewOf(host, access, await pullOf(host, access, number));
  const comparison = await gitOf(host).compare(access.repo.owner, access.repo.name, view.baseSha, view.headSha, {
    maxCommits: PULL_COMMITS_MAX,
    maxFiles: 0,
    maxPatchBytes: 0,
  });
  return { view, comparison };
}

/** The files of one page of the diff (GitHub's 3,000 at most); patches cut by file and by page. */
export async function pullFiles(
  host: CodeHost,
  access: RepoAccess,
  number: number,
  offset: number,
  limit: number,
): Promise<{ files: Comparison['files']; total: number; headSha: string }> {
  const view = await viewOf(host, access, await pullOf(host, access, number));
  const cmp = await gitOf(host).compare(access.repo.owner, access.repo.name, view.baseSha, view.headSha, {
    maxCommits: 0,
    maxFiles: PULL_FILES_MAX,
    maxPatchBytes: PATCH_BYTES_MAX,
  });
  let budget = PAGE_PATCH_BYTES_MAX;
  const files = cmp.files.slice(offset, offset + limit).map((f) => {
    if (f.patch === undefined) return f;
    const bytes = Buffer.byteLength(f.patch);
    if (bytes > budget) {
      const { patch: _, ...rest } = f;
      return rest;
    }
    budget -= bytes;
    return f;
  });
  return { files, total: Math.min(cmp.files.length, PULL_FILES_MAX), headSha: view.headSha };
}

/**
 * The board's question: the pull requests whose head branch carries an issue key
 * (`feature/<KEY>-…`, `hotfix/<KEY>-…`, or the bare `feature/<KEY>`), in every repository, oldest
 * first; the key matches whole and case-insensitively (ABC-1 is not ABC-12). `baseUrl` is the
 * address the asker reached the server at (for `htmlUrl`).
 */
export async function pullsForIssueKey(host: CodeHost, key: string, baseUrl: string): Promise<IssuePull[]> {
  if (!isIssueKey(key)) return [];
  const rows = await storeOf(host).pulls.forIssueKey(key.toUpperCase());
  return rows.map((r) => ({
    repo: `${r.owner}/${r.repo_name}`,
    number: r.number,
    title: r.title,
    state: r.state,
    merged: r.merged === 1,
    head: r.head_ref,
    base: r.base_ref,
    htmlUrl: `${baseUrl}/${r.owner}/${r.repo_name}/pull/${r.number}`,
  }));
}
