import { randomUUID } from 'node:crypto';
import { CodehostError } from './errors.js';
import { announce } from './events.js';
import { gitOf, type CodeHost } from './host.js';
import { MERGE_CLAIM_STALE_MS } from './limits.js';
import { mergeBlock } from './protection.js';
import { knownMerge } from './pull-stats.js';
import { pullOf, viewOf } from './pull-views.js';
import { refsUpdated } from './pushes.js';
import { branchShas } from './refs.js';
import { storeOf } from './store-access.js';
import type { RepoAccess } from './views.js';

/** What a merge takes (the HTTP edge has checked the types and sizes). */
export interface MergeInput {
  merge_method?: 'merge' | 'squash' | 'rebase' | null | undefined;
  commit_title?: string | null | undefined;
  commit_message?: string | null | undefined;
  /** The head the caller saw: the merge is refused when the head moved since. */
  sha?: string | null | undefined;
}

const notMergeable = (message = 'Pull Request is not mergeable') => new CodehostError('not_mergeable', message);

export async function isMerged(host: CodeHost, access: RepoAccess, number: number): Promise<boolean> {
  const pull = await storeOf(host).pulls.byNumber(access.repo.id, number);
  return pull?.merged === 1;
}

/**
 * Merges an open pull request (ARCHITECTURE §14): git makes the merge in the bare repository and
 * publishes it with an atomic ref update (retried when the base moved); only then is the pull
 * request recorded as merged. One merge of a pull request at a time, across processes (a claim
 * in the database), so two callers get one merge and one refusal, and no commit is ever lost.
 */
export async function merge(host: CodeHost, access: RepoAccess, number: number, input: MergeInput): Promise<{ sha: string }> {
  const git = gitOf(host);
  const store = storeOf(host);
  const method = input.merge_method ?? 'merge';
  const { repo, user } = access;
  const pull = await pullOf(host, access, number);
  if (pull.state !== 'open') throw notMergeable();
  if (pull.draft) throw notMergeable('Pull Request is still a draft');
  const shas = await branchShas(host, repo, [pull.head_ref, pull.base_ref]);
  const headSha = shas.get(pull.head_ref) ?? null;
  const baseSha = shas.get(pull.base_ref) ?? null;
  if (headSha === null || baseSha === null) throw notMergeable();
  if (typeof input.sha === 'string' && input.sha !== headSha) throw new CodehostError('changed', 'Head branch was modified. Review and try the merge again.');
  // ARCHITECTURE §21: a protected base takes the merge only with its approvals (GitHub's 405 and words).
  const view = await viewOf(host, access, pull);
  const blocked = await mergeBlock(host, view, access);
  if (blocked !== null) throw notMergeable(blocked);
  const claim = randomUUID();
  const now = host.now();
  if (!(await store.pulls.claimMerge(pull.id, claim, now, new Date(Date.parse(now) - MERGE_CLAIM_STALE_MS).toISOString()))) {
    const current = await store.pulls.byNumber(repo.id, number);
    throw notMergeable(current?.state === 'open' ? 'Merge already in progress' : 'Pull Request is not mergeable');
  }
  let sha: string;
  let old: string;
  try {
    const person = { name: user.name ?? user.login, email: `${user.login}@users.noreply.jst-tracker`, date: now };
    const defaultTitle = method === 'squash' ? `${pull.title} (#${pull.number})` : `Merge pull request #${pull.number} from ${repo.owner}/${pull.head_ref}`;
    const defaultMessage = method === 'squash' ? '' : pull.title;
    ({ sha, old } = await git.merge(repo.owner, repo.name, {
      baseBranch: pull.base_ref,
      headSha,
      baseSha,
      // The kept figures of exactly these commits: base is head's ancestor, or their merged tree (no merge-tree).
      ...knownMerge(host, view, baseSha, headSha),
      method,
      title: typeof input.commit_title === 'string' && input.commit_title !== '' ? input.commit_title : defaultTitle,
      message: typeof input.commit_message === 'string' ? input.commit_message : defaultMessage,
      author: person,
      committer: person,
    }));
  } catch (e) {
    await store.pulls.releaseMerge(pull.id, claim);
    if (host.gitErrors.isConflict(e)) throw notMergeable();
    if (host.gitErrors.isRefMoved(e)) throw new CodehostError('changed', 'Base branch was modified. Review and try the merge again.');
    throw e;
  }
  // Published on the base branch: record it (the claim is ours; a claim taken over as stale
  // still ends merged, since git has the merge).
  const merged = { sha, headSha, baseSha, mergedBy: user.id };
  if (!(await store.pulls.markMerged(pull.id, claim, merged, host.now()))) {
    await store.pulls.claimMerge(pull.id, claim, host.now(), host.now());
    await store.pulls.markMerged(pull.id, claim, merged, host.now());
  }
  const done = await store.pulls.byNumber(repo.id, number);
  if (done) await announce(host, { kind: 'pull_request', action: 'closed', access, view: await viewOf(host, access, done) });
  // The base branch moved (ARCHITECTURE §14 "Refs from the database"): recorded and told, as a push is.
  if (sha !== old) await refsUpdated(host, repo, user, [{ ref: `refs/heads/${pull.base_ref}`, old, new: sha }], 'merge');
  return { sha };
}
