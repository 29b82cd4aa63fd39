/* eslint-disable max-lines -- The operations of §14 are one class over one store and one git port (431 lines once formatted); what each accepts (pull-input.ts), its views (views.ts) and its branch keys (issue-keys.ts) already live apart. */
import { randomUUID } from 'node:crypto';
import { hashToken, sameHash } from '../../kit/tokens.js';
import type { CodehostStore } from '../store/codehost-store.js';
import { OpenPullExists } from '../store/codehost-store.js';
import { GhError, noPush, notFound, unprocessable, validationFailed, type GhErrorEntry } from './errors.js';
import type { Comparison, GitErrorKinds, GitRepos } from './git-port.js';
import { COMMENTS_MAX, MERGE_CLAIM_STALE_MS, REVIEWS_MAX, PAGE_PATCH_BYTES_MAX, PATCH_BYTES_MAX, PULL_COMMITS_MAX, PULL_FILES_MAX } from './limits.js';
import { issueKeyOfBranch, isIssueKey } from './issue-keys.js';
import type { ChPull, ChRepo, ChUser, Permission, PullListQuery } from './model.js';
import { branchOrNull, checkComment, checkCreatePull, checkMerge, checkReview, checkUpdatePull, DOCS, invalid } from './pull-input.js';
import { tokenSalt } from './token-salt.js';
import type { CommentView, IssuePull, PullDetail, PullView, RepoAccess, ReviewView } from './views.js';

export type { CommentView, IssuePull, PullDetail, PullView, RepoAccess, ReviewView } from './views.js';

/**
 * The code host's rules (ARCHITECTURE §14): who may read and write which repository, pull
 * requests and their numbers, reviews, comments and merges. Knows nothing of HTTP; git's work is
 * done by the injected GitRepos (../git/repos.ts), the rows by the CodehostStore.
 */
export class CodeHost {
  /** The server's own address for links made outside a request (the board's); set once it listens. */
  baseUrl = 'http://127.0.0.1';

  private constructor(
    readonly store: CodehostStore,
    /** Null when the server runs without a repository folder (--database-url without --repos). */
    readonly git: GitRepos | null,
    private readonly gitErrors: GitErrorKinds,
    private readonly salt: string,
    private readonly now: () => string,
    /** Why the code host is off (no git fit for it), when it is off for another reason than a missing --repos. */
    private readonly offReason?: string,
  ) {}

  /** Opens the code host over its store, making the token salt on first use. */
  static async open(
    store: CodehostStore,
    git: GitRepos | null,
    gitErrors: GitErrorKinds,
    offReason?: string,
    now = () => new Date().toISOString(),
  ): Promise<CodeHost> {
    const salt = await tokenSalt(store);
    return new CodeHost(store, git, gitErrors, salt, now, offReason);
  }

  /** The stored form of a token (ARCHITECTURE §4: tokens are kept only as hashes). */
  hash(token: string): string {
    return hashToken(this.salt, token);
  }

  // --- authentication and access ----------------------------------------------------------------

  /** The user of a token, or null (compared in constant time against the stored hash). */
  async userOfToken(token: string): Promise<ChUser | null> {
    if (token.length === 0 || token.length > 1024) return null;
    const hash = this.hash(token);
    const row = await this.store.userByTokenHash(hash);
    if (!row || !sameHash(row.token_hash, hash)) return null;
    const { token_hash: _, ...user } = row;
    return user;
  }

  /** The caller's permission on a repository, or undefined when it may not even read it. */
  async permission(user: ChUser | null, repo: ChRepo): Promise<Permission | undefined> {
    if (!user) return undefined;
    // The owner of a repository administers it, as on GitHub.
    if (user.login.toLowerCase() === repo.owner.toLowerCase()) return 'admin';
    return this.store.permissionOf(repo.id, user.id);
  }

  /**
   * The repository for a caller who needs `need` on it: 404 when it does not exist or the caller
   * may not read it (masked, as GitHub), 403 for a write without write permission.
   */
  async repoFor(user: ChUser, owner: string, name: string, need: 'read' | 'write', docs?: string): Promise<RepoAccess> {
    const repo = await this.store.repoByName(owner, name);
    const permission = repo ? await this.permission(user, repo) : undefined;
    if (!repo || !permission) throw notFound(docs);
    if (need === 'write' && permission === 'read') throw noPush(docs);
    return { repo, owner: (await this.store.userByLogin(repo.owner)) ?? null, permission, user };
  }

  /**
   * Git over HTTP's question (http-backend's access callback): may this token read or write the
   * repository? `ok` names it as stored (names are case-insensitive) and the signed-in login.
   */
  async gitAccess(
    token: string | null,
    owner: string,
    name: string,
    need: 'read' | 'write',
  ): Promise<'unauthenticated' | 'not_found' | 'forbidden' | { decision: 'ok'; owner: string; repo: string; login: string }> {
    const user = token === null ? null : await this.userOfToken(token);
    if (!user) return 'unauthenticated';
    const repo = await this.store.repoByName(owner, name);
    const permission = repo ? await this.permission(user, repo) : undefined;
    if (!repo || !permission) return 'not_found';
    if (need === 'write' && permission === 'read') return 'forbidden';
    return { decision: 'ok', owner: repo.owner, repo: repo.name, login: user.login };
  }

  /** Throws the code host's 503 when it runs without a repository folder. */
  requireGit(): GitRepos {
    if (!this.git && this.offReason) throw new GhError(503, `The code host is off: ${this.offReason}`);
    if (!this.git)
      throw new GhError(
        503,
        'The code host is off: this jst-tracker was started with --database-url and without --repos, so it has no repository folder. Restart it with --repos DIR (docs/codehost.md).',
      );
    return this.git;
  }

  // --- pull requests ----------------------------------------------------------------------------

  private async view(access: Pick<RepoAccess, 'repo' | 'owner'>, pull: ChPull, shas?: Map<string, string | null>): Promise<PullView> {
    const ids = [pull.user_id, ...(pull.merged_by_id ? [pull.merged_by_id] : [])];
    const users = new Map((await this.store.usersByIds(ids)).map((u) => [u.id, u]));
    let { head_sha: headSha, base_sha: baseSha } = pull;
    if (pull.state === 'open') {
      const sha = async (branch: string) => {
        if (shas?.has(branch)) return shas.get(branch)!;
        const found = await this.requireGit().branchSha(access.repo.owner, access.repo.name, branch);
        shas?.set(branch, found);
        return found;
      };
      // A branch deleted under an open pull request: its last known commit stands.
      headSha = (await sha(pull.head_ref)) ?? headSha;
      baseSha = (await sha(pull.base_ref)) ?? baseSha;
    }
    return {
      repo: access.repo,
      owner: access.owner,
      pull,
      author: users.get(pull.user_id)!,
      mergedBy: pull.merged_by_id ? (users.get(pull.merged_by_id) ?? null) : null,
      headSha,
      baseSha,
    };
  }

  private async pullOf(access: RepoAccess, number: number, docs?: string): Promise<ChPull> {
    const pull = Number.isSafeInteger(number) && number > 0 ? await this.store.pullByNumber(access.repo.id, number) : undefined;
    if (!pull) throw notFound(docs);
    return pull;
  }

  async getPull(access: RepoAccess, number: number): Promise<PullDetail> {
    const view = await this.view(access, await this.pullOf(access, number));
    return this.detail(view);
  }

  private async detail(view: PullView): Promise<PullDetail> {
    const git = this.requireGit();
    const { repo, pull } = view;
    const cmp = await git.compare(repo.owner, repo.name, view.baseSha, view.headSha, {
      maxCommits: PULL_COMMITS_MAX,
      maxFiles: PULL_FILES_MAX,
      maxPatchBytes: 0,
    });
    let mergeable: boolean | null = null;
    let mergeableState: PullDetail['mergeableState'] = 'unknown';
    if (pull.state === 'open') {
      mergeable = (await git.mergeability(repo.owner, repo.name, view.baseSha, view.headSha)).mergeable;
      mergeableState = !mergeable ? 'dirty' : pull.draft ? 'draft' : 'clean';
    }
    return {
      ...view,
      commits: cmp.totalCommits,
      additions: cmp.additions,
      deletions: cmp.deletions,
      changedFiles: cmp.changedFiles,
      mergeable,
      mergeableState,
      comments: await this.store.commentCount(repo.id, pull.number),
    };
  }

  async listPulls(access: RepoAccess, q: Omit<PullListQuery, 'head'> & { head?: string | undefined }): Promise<{ pulls: PullView[]; total: number }> {
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
    const { rows, total } = await this.store.listPulls(access.repo.id, { ...q, head });
    const shas = new Map<string, string | null>();
    const pulls: PullView[] = [];
    for (const row of rows) pulls.push(await this.view(access, row, shas));
    return { pulls, total };
  }

  /** Parses `head` of a create: `branch` or `owner:branch` of this repository's owner. */
  private headBranch(access: RepoAccess, head: string): string | null {
    const colon = head.indexOf(':');
    if (colon < 0) return branchOrNull(head);
    if (head.slice(0, colon).toLowerCase() !== access.repo.owner.toLowerCase()) return null;
    return branchOrNull(head.slice(colon + 1));
  }

  async createPull(access: RepoAccess, input: { title?: unknown; head?: unknown; base?: unknown; body?: unknown; draft?: unknown }): Promise<PullDetail> {
    const git = this.requireGit();
    checkCreatePull(input);
    const { title } = input;
    const errors: GhErrorEntry[] = [];
    const { repo } = access;
    const headInput = input.head;
    const headRef = this.headBranch(access, headInput);
    const baseRef = branchOrNull(input.base);
    const headSha = headRef === null ? null : await git.branchSha(repo.owner, repo.name, headRef);
    const baseSha = baseRef === null ? null : await git.branchSha(repo.owner, repo.name, baseRef);
    if (headSha === null) errors.push(invalid('head'));
    if (baseSha === null) errors.push(invalid('base'));
    if (errors.length > 0) throw validationFailed(errors, DOCS.create);
    const exists = () =>
      validationFailed([{ resource: 'PullRequest', code: 'custom', message: `A pull request already exists for ${repo.owner}:${headRef}.` }], DOCS.create);
    if (await this.store.openPullFor(repo.id, headRef!, baseRef!)) throw exists();
    const cmp = await git.compare(repo.owner, repo.name, baseSha!, headSha!, { maxCommits: 1, maxFiles: 0, maxPatchBytes: 0 });
    if (cmp.totalCommits === 0) {
      throw validationFailed([{ resource: 'PullRequest', code: 'custom', message: `No commits between ${baseRef} and ${headRef}` }], DOCS.create);
    }
    const created = await this.store.createPull(
      {
        repo_id: repo.id,
        user_id: access.user.id,
        title,
        body: input.body ?? null,
        draft: input.draft === true,
        head_ref: headRef!,
        issue_key: issueKeyOfBranch(headRef!),
        base_ref: baseRef!,
        head_sha: headSha!,
        base_sha: baseSha!,
      },
      this.now(),
    );
    // The database refused a second open pull request: another request opened it a moment before.
    if (created === 'exists') throw exists();
    return this.detail(await this.view(access, created));
  }

  async updatePull(access: RepoAccess, number: number, input: { title?: unknown; body?: unknown; state?: unknown; base?: unknown }): Promise<PullDetail> {
    const git = this.requireGit();
    checkUpdatePull(input);
    const pull = await this.pullOf(access, number);
    const { repo } = access;
    const now = this.now();
    if (typeof input.base === 'string' && input.base !== pull.base_ref) {
      if (pull.state !== 'open')
        throw validationFailed(
          [{ resource: 'PullRequest', field: 'base', code: 'invalid', message: 'Cannot change the base branch of a closed pull request.' }],
          DOCS.update,
        );
      const base = branchOrNull(input.base);
      const baseSha = base === null ? null : await git.branchSha(repo.owner, repo.name, base);
      if (baseSha === null) throw validationFailed([invalid('base')], DOCS.update);
      try {
        await this.store.updatePull(pull.id, { base_ref: base!, base_sha: baseSha }, now);
      } catch (e) {
        if (e instanceof OpenPullExists)
          throw validationFailed(
            [{ resource: 'PullRequest', code: 'custom', message: `A pull request already exists for ${repo.owner}:${pull.head_ref}.` }],
            DOCS.update,
          );
        throw e;
      }
    }
    if (input.title !== undefined || input.body !== undefined) {
      await this.store.updatePull(
        pull.id,
        {
          ...(input.title !== undefined ? { title: input.title as string } : {}),
          ...(input.body !== undefined ? { body: input.body as string | null } : {}),
        },
        now,
      );
    }
    if (input.state !== undefined && input.state !== pull.state) {
      const current = (await this.store.pullByNumber(repo.id, pull.number))!;
      const view = await this.view(access, current);
      if (input.state === 'closed') {
        if (!(await this.store.closePull(pull.id, view.headSha, view.baseSha, now)) && !current.merged) {
          throw validationFailed(
            [{ resource: 'PullRequest', field: 'state', code: 'custom', message: 'The pull request is being merged; it cannot be closed now.' }],
            DOCS.update,
          );
        }
      } else {
        if (current.merged)
          throw validationFailed(
            [{ resource: 'PullRequest', field: 'state', code: 'custom', message: 'state cannot be changed. The pull request has been merged.' }],
            DOCS.update,
          );
        const headSha = await git.branchSha(repo.owner, repo.name, current.head_ref);
        const baseSha = await git.branchSha(repo.owner, repo.name, current.base_ref);
        if (headSha === null || baseSha === null) {
          throw validationFailed(
            [
              {
                resource: 'PullRequest',
                field: 'state',
                code: 'custom',
                message: `state cannot be changed. The ${headSha === null ? current.head_ref : current.base_ref} branch has been deleted.`,
              },
            ],
            DOCS.update,
          );
        }
        const reopened = await this.store.reopenPull(pull.id, headSha, baseSha, now);
        if (reopened === 'exists') {
          throw validationFailed(
            [
              {
                resource: 'PullRequest',
                field: 'state',
                code: 'custom',
                message: `state cannot be changed. There is already an open pull request from ${current.head_ref} to ${current.base_ref}.`,
              },
            ],
            DOCS.update,
          );
        }
      }
    }
    return this.getPull(access, number);
  }

  async pullCommits(access: RepoAccess, number: number): Promise<{ view: PullView; comparison: Comparison }> {
    const view = await this.view(access, await this.pullOf(access, number));
    const comparison = await this.requireGit().compare(access.repo.owner, access.repo.name, view.baseSha, view.headSha, {
      maxCommits: PULL_COMMITS_MAX,
      maxFiles: 0,
      maxPatchBytes: 0,
    });
    return { view, comparison };
  }

  /** The files of one page of the diff (GitHub's 3,000 at most); patches cut by file and by page. */
  async pullFiles(access: RepoAccess, number: number, offset: number, limit: number): Promise<{ files: Comparison['files']; total: number; headSha: string }> {
    const view = await this.view(access, await this.pullOf(access, number));
    const cmp = await this.requireGit().compare(access.repo.owner, access.repo.name, view.baseSha, view.headSha, {
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

  async isMerged(access: RepoAccess, number: number): Promise<boolean> {
    const pull = await this.store.pullByNumber(access.repo.id, number);
    return pull?.merged === 1;
  }

  /**
   * Merges an open pull request (ARCHITECTURE §14): git makes the merge in the bare repository and
   * publishes it with an atomic ref update (retried when the base moved); only then is the pull
   * request recorded as merged. One merge of a pull request at a time, across processes (a claim
   * in the database), so two callers get one 200 and one 405, and no commit is ever lost.
   */
  async merge(
    access: RepoAccess,
    number: number,
    input: { merge_method?: unknown; commit_title?: unknown; commit_message?: unknown; sha?: unknown },
  ): Promise<{ sha: string }> {
    const git = this.requireGit();
    const method = checkMerge(input);
    const { repo, user } = access;
    const pull = await this.pullOf(access, number, DOCS.merge);
    const notMergeable = (message = 'Pull Request is not mergeable') => new GhError(405, message, undefined, DOCS.merge);
    if (pull.state !== 'open') throw notMergeable();
    if (pull.draft) throw notMergeable('Pull Request is still a draft');
    const headSha = await git.branchSha(repo.owner, repo.name, pull.head_ref);
    const baseSha = await git.branchSha(repo.owner, repo.name, pull.base_ref);
    if (headSha === null || baseSha === null) throw notMergeable();
    if (typeof input.sha === 'string' && input.sha !== headSha)
      throw new GhError(409, 'Head branch was modified. Review and try the merge again.', undefined, DOCS.merge);
    const claim = randomUUID();
    const now = this.now();
    if (!(await this.store.claimMerge(pull.id, claim, now, new Date(Date.parse(now) - MERGE_CLAIM_STALE_MS).toISOString()))) {
      const current = await this.store.pullByNumber(repo.id, number);
      throw notMergeable(current?.state === 'open' ? 'Merge already in progress' : 'Pull Request is not mergeable');
    }
    let sha: string;
    try {
      const person = { name: user.name ?? user.login, email: `${user.login}@users.noreply.jst-tracker`, date: now };
      const defaultTitle = method === 'squash' ? `${pull.title} (#${pull.number})` : `Merge pull request #${pull.number} from ${repo.owner}/${pull.head_ref}`;
      const defaultMessage = method === 'squash' ? '' : pull.title;
      ({ sha } = await git.merge(repo.owner, repo.name, {
        baseBranch: pull.base_ref,
        headSha,
        method,
        title: typeof input.commit_title === 'string' && input.commit_title !== '' ? input.commit_title : defaultTitle,
        message: typeof input.commit_message === 'string' ? input.commit_message : defaultMessage,
        author: person,
        committer: person,
      }));
    } catch (e) {
      await this.store.releaseMerge(pull.id, claim);
      if (this.gitErrors.isConflict(e)) throw notMergeable();
      if (this.gitErrors.isRefMoved(e)) throw new GhError(409, 'Base branch was modified. Review and try the merge again.', undefined, DOCS.merge);
      throw e;
    }
    // Published on the base branch: record it (the claim is ours; a claim taken over as stale
    // still ends merged, since git has the merge).
    if (!(await this.store.markMerged(pull.id, claim, { sha, headSha, baseSha, mergedBy: user.id }, this.now()))) {
      await this.store.claimMerge(pull.id, claim, this.now(), this.now());
      await this.store.markMerged(pull.id, claim, { sha, headSha, baseSha, mergedBy: user.id }, this.now());
    }
    return { sha };
  }

  // --- reviews and comments ---------------------------------------------------------------------

  async reviews(access: RepoAccess, number: number, offset: number, limit: number): Promise<{ view: PullView; reviews: ReviewView[]; total: number }> {
    const view = await this.view(access, await this.pullOf(access, number));
    const { rows, total } = await this.store.reviewsOf(view.pull.id, offset, limit);
    const users = new Map((await this.store.usersByIds(rows.map((r) => r.user_id))).map((u) => [u.id, u]));
    return { view, reviews: rows.map((review) => ({ review, user: users.get(review.user_id)! })), total };
  }

  async createReview(
    access: RepoAccess,
    number: number,
    input: { event?: unknown; body?: unknown; commit_id?: unknown },
  ): Promise<{ view: PullView; review: ReviewView }> {
    const body = checkReview(input);
    const view = await this.view(access, await this.pullOf(access, number));
    const event = (input.event as string | undefined | null) ?? null;
    const own = view.pull.user_id === access.user.id;
    if (event === 'APPROVE' && own) throw unprocessable(['Can not approve your own pull request'], DOCS.review);
    if (event === 'REQUEST_CHANGES' && own) throw unprocessable(['Can not request changes on your own pull request'], DOCS.review);
    // GitHub's words for REQUEST_CHANGES; a COMMENT review needs a body too (its documentation).
    if (event === 'REQUEST_CHANGES' && body.trim() === '') throw unprocessable(['You need to leave a comment indicating the requested changes.'], DOCS.review);
    if (event === 'COMMENT' && body.trim() === '') throw unprocessable(['You need to leave a comment: a COMMENT review needs a body.'], DOCS.review);
    if ((await this.store.reviewCount(view.pull.id)) >= REVIEWS_MAX)
      throw unprocessable([`This pull request already has ${REVIEWS_MAX} reviews, the most one may carry.`], DOCS.review);
    const state = event === 'APPROVE' ? 'APPROVED' : event === 'REQUEST_CHANGES' ? 'CHANGES_REQUESTED' : event === 'COMMENT' ? 'COMMENTED' : 'PENDING';
    const commitId = typeof input.commit_id === 'string' && input.commit_id !== '' ? input.commit_id : view.headSha;
    const review = await this.store.insertReview({
      pull_id: view.pull.id,
      user_id: access.user.id,
      state,
      body,
      commit_id: commitId,
      submitted_at: this.now(),
    });
    return { view, review: { review, user: access.user } };
  }

  /** An issue number here is a pull request's (the code host has no issues of its own). */
  private async issueOf(access: RepoAccess, number: number, docs?: string): Promise<ChPull> {
    return this.pullOf(access, number, docs);
  }

  async comments(access: RepoAccess, number: number, offset: number, limit: number, since?: string): Promise<{ comments: CommentView[]; total: number }> {
    await this.issueOf(access, number);
    const { rows, total } = await this.store.commentsOf(access.repo.id, number, offset, limit, since);
    const users = new Map((await this.store.usersByIds(rows.map((r) => r.user_id))).map((u) => [u.id, u]));
    return { comments: rows.map((comment) => ({ comment, user: users.get(comment.user_id)! })), total };
  }

  async createComment(access: RepoAccess, number: number, input: { body?: unknown }): Promise<CommentView> {
    const body = checkComment(input);
    await this.issueOf(access, number, DOCS.comment);
    if ((await this.store.commentCount(access.repo.id, number)) >= COMMENTS_MAX) {
      throw validationFailed(
        [{ resource: 'IssueComment', code: 'custom', message: `This pull request already has ${COMMENTS_MAX} comments, the most one may carry.` }],
        DOCS.comment,
      );
    }
    const now = this.now();
    const comment = await this.store.insertComment({ repo_id: access.repo.id, number, user_id: access.user.id, body, created_at: now, updated_at: now });
    return { comment, user: access.user };
  }

  // --- the board's question ---------------------------------------------------------------------

  /**
   * The pull requests whose head branch carries an issue key (`feature/<KEY>-…`, `hotfix/<KEY>-…`,
   * or the bare `feature/<KEY>`), in every repository, oldest first; the key matches whole and
   * case-insensitively (ABC-1 is not ABC-12). `baseUrl` is the server's own (for `htmlUrl`; by
   * default the address it listens on).
   */
  async pullsForIssueKey(key: string, baseUrl = this.baseUrl): Promise<IssuePull[]> {
    if (!isIssueKey(key)) return [];
    const rows = await this.store.pullsForIssueKey(key.toUpperCase());
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
}
