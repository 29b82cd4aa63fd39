import { createHash } from 'node:crypto';
import type { CommentView, PullDetail, PullView, RepoAccess, ReviewView } from '../domain/views.js';
import type { CommitInfo, FileChange } from '../domain/git-port.js';
import type { ChRepo, ChUser, Permission } from '../domain/model.js';
import type { BranchRules } from '../domain/protection.js';
import { ghTime } from './time.js';

/**
 * GitHub's JSON objects (simple-user, repository, pull-request, commit, diff-entry, review,
 * issue-comment), laid out as GitHub Enterprise Server lays out its addresses: the API under
 * `<web>/api/v3`, pages at `<web>/<owner>/<repo>/…`. Every property GitHub's description requires
 * is present (spec/github-openapi/; test/support/github-openapi.ts checks each answer).
 */
export interface Urls {
  web: string;
  api: string;
}

/** GitHub's `node_id` of an object: base64 of `<kind>_<id>` (the GraphQL ID of the same object, graphql/ids.ts). */
export const nodeId = (kind: string, id: number) => Buffer.from(`${kind}_${id}`).toString('base64').replace(/=+$/, '');
const seg = (s: string) => encodeURIComponent(s);
const path = (p: string) => p.split('/').map(seg).join('/');

/** An owner that is no code-host user (an organisation named only by repositories): a stable id of its own. */
export function ownerId(login: string): number {
  return 1_000_000_000 + parseInt(createHash('sha256').update(login.toLowerCase()).digest('hex').slice(0, 7), 16);
}

export function simpleUser(u: Urls, user: ChUser | null, login = user?.login ?? 'ghost') {
  const api = `${u.api}/users/${seg(login)}`;
  return {
    login,
    id: user?.id ?? ownerId(login),
    node_id: nodeId(user ? 'U' : 'O', user?.id ?? ownerId(login)),
    avatar_url: `${u.web}/identicons/${seg(login)}.png`,
    gravatar_id: '',
    url: api,
    html_url: `${u.web}/${seg(login)}`,
    followers_url: `${api}/followers`,
    following_url: `${api}/following{/other_user}`,
    gists_url: `${api}/gists{/gist_id}`,
    starred_url: `${api}/starred{/owner}{/repo}`,
    subscriptions_url: `${api}/subscriptions`,
    organizations_url: `${api}/orgs`,
    repos_url: `${api}/repos`,
    events_url: `${api}/events{/privacy}`,
    received_events_url: `${api}/received_events`,
    type: user ? 'User' : 'Organization',
    user_view_type: 'public',
    site_admin: false,
    ...(user ? { name: user.name } : {}),
  };
}

/** GET /user: the caller's own profile (private-user). */
export function privateUser(u: Urls, user: ChUser) {
  return {
    ...simpleUser(u, user),
    user_view_type: 'private',
    name: user.name,
    company: null,
    blog: '',
    location: null,
    email: null,
    notification_email: null,
    hireable: null,
    bio: null,
    twitter_username: null,
    public_repos: 0,
    public_gists: 0,
    followers: 0,
    following: 0,
    created_at: ghTime(user.created_at),
    updated_at: ghTime(user.created_at),
    private_gists: 0,
    total_private_repos: 0,
    owned_private_repos: 0,
    disk_usage: 0,
    collaborators: 0,
    two_factor_authentication: false,
  };
}

const permissions = (p: Permission | undefined) => ({
  admin: p === 'admin',
  maintain: p === 'admin',
  push: p === 'admin' || p === 'write',
  triage: p === 'admin' || p === 'write',
  pull: p !== undefined,
});

/** A repository object (full-repository's properties, which include repository's). */
export function repository(u: Urls, repo: ChRepo, owner: ChUser | null, permission?: Permission) {
  const full = `${repo.owner}/${repo.name}`;
  const api = `${u.api}/repos/${seg(repo.owner)}/${seg(repo.name)}`;
  const html = `${u.web}/${seg(repo.owner)}/${seg(repo.name)}`;
  const host = new URL(u.web).host;
  return {
    id: repo.id,
    node_id: nodeId('R', repo.id),
    name: repo.name,
    full_name: full,
    owner: simpleUser(u, owner, repo.owner),
    private: true,
    html_url: html,
    description: null,
    fork: false,
    url: api,
    archive_url: `${api}/{archive_format}{/ref}`,
    assignees_url: `${api}/assignees{/user}`,
    blobs_url: `${api}/git/blobs{/sha}`,
    branches_url: `${api}/branches{/branch}`,
    collaborators_url: `${api}/collaborators{/collaborator}`,
    comments_url: `${api}/comments{/number}`,
    commits_url: `${api}/commits{/sha}`,
    compare_url: `${api}/compare/{base}...{head}`,
    contents_url: `${api}/contents/{+path}`,
    contributors_url: `${api}/contributors`,
    deployments_url: `${api}/deployments`,
    downloads_url: `${api}/downloads`,
    events_url: `${api}/events`,
    forks_url: `${api}/forks`,
    git_commits_url: `${api}/git/commits{/sha}`,
    git_refs_url: `${api}/git/refs{/sha}`,
    git_tags_url: `${api}/git/tags{/sha}`,
    git_url: `git://${host}/${full}.git`,
    issue_comment_url: `${api}/issues/comments{/number}`,
    issue_events_url: `${api}/issues/events{/number}`,
    issues_url: `${api}/issues{/number}`,
    keys_url: `${api}/keys{/key_id}`,
    labels_url: `${api}/labels{/name}`,
    languages_url: `${api}/languages`,
    merges_url: `${api}/merges`,
    milestones_url: `${api}/milestones{/number}`,
    notifications_url: `${api}/notifications{?since,all,participating}`,
    pulls_url: `${api}/pulls{/number}`,
    releases_url: `${api}/releases{/id}`,
    ssh_url: `git@${new URL(u.web).hostname}:${full}.git`,
    stargazers_url: `${api}/stargazers`,
    statuses_url: `${api}/statuses/{sha}`,
    subscribers_url: `${api}/subscribers`,
    subscription_url: `${api}/subscription`,
    tags_url: `${api}/tags`,
    teams_url: `${api}/teams`,
    trees_url: `${api}/git/trees{/sha}`,
    clone_url: `${html}.git`,
    mirror_url: null,
    hooks_url: `${api}/hooks`,
    svn_url: html,
    homepage: null,
    language: null,
    forks_count: 0,
    forks: 0,
    stargazers_count: 0,
    watchers_count: 0,
    watchers: 0,
    size: 0,
    default_branch: repo.default_branch,
    open_issues_count: 0,
    open_issues: 0,
    is_template: false,
    topics: [],
    has_issues: false,
    has_projects: false,
    has_wiki: false,
    has_pages: false,
    has_downloads: false,
    has_discussions: false,
    archived: false,
    disabled: false,
    visibility: 'private',
    // GitHub's: the last accepted push (or a merge), the creation time before the first.
    pushed_at: ghTime(repo.pushed_at ?? repo.created_at),
    created_at: ghTime(repo.created_at),
    updated_at: ghTime(repo.updated_at),
    ...(permission ? { permissions: permissions(permission) } : {}),
    allow_rebase_merge: true,
    allow_squash_merge: true,
    allow_merge_commit: true,
    allow_auto_merge: false,
    delete_branch_on_merge: false,
    allow_update_branch: false,
    allow_forking: false,
    web_commit_signoff_required: false,
    license: null,
    network_count: 0,
    subscribers_count: 0,
  };
}

function associationOf(user: ChUser, repo: ChRepo): 'OWNER' | 'COLLABORATOR' {
  return user.login.toLowerCase() === repo.owner.toLowerCase() ? 'OWNER' : 'COLLABORATOR';
}

export const pullApi = (u: Urls, repo: ChRepo, n: number) => `${u.api}/repos/${seg(repo.owner)}/${seg(repo.name)}/pulls/${n}`;
export const pullHtml = (u: Urls, repo: ChRepo, n: number) => `${u.web}/${seg(repo.owner)}/${seg(repo.name)}/pull/${n}`;

/** A pull-request-simple (the lists' items); `pull()` adds the detail's fields. */
export function pullSimple(u: Urls, v: PullView, permission?: Permission) {
  const { repo, pull } = v;
  const api = `${u.api}/repos/${seg(repo.owner)}/${seg(repo.name)}`;
  const self = pullApi(u, repo, pull.number);
  const html = pullHtml(u, repo, pull.number);
  const repoJson = repository(u, repo, v.owner, permission);
  const ownerJson = simpleUser(u, v.owner, repo.owner);
  const side = (ref: string, sha: string) => ({ label: `${repo.owner}:${ref}`, ref, sha, user: ownerJson, repo: repoJson });
  return {
    url: self,
    id: pull.id,
    node_id: nodeId('PR', pull.id),
    html_url: html,
    diff_url: `${html}.diff`,
    patch_url: `${html}.patch`,
    issue_url: `${api}/issues/${pull.number}`,
    number: pull.number,
    state: pull.state,
    locked: false,
    title: pull.title,
    user: simpleUser(u, v.author),
    body: pull.body,
    labels: [],
    milestone: null,
    active_lock_reason: null,
    created_at: ghTime(pull.created_at),
    updated_at: ghTime(pull.updated_at),
    closed_at: ghTime(pull.closed_at),
    merged_at: ghTime(pull.merged_at),
    merge_commit_sha: pull.merge_commit_sha,
    assignee: null,
    assignees: [],
    requested_reviewers: [],
    requested_teams: [],
    commits_url: `${self}/commits`,
    review_comments_url: `${self}/comments`,
    review_comment_url: `${api}/pulls/comments{/number}`,
    comments_url: `${api}/issues/${pull.number}/comments`,
    statuses_url: `${api}/statuses/${v.headSha}`,
    head: side(pull.head_ref, v.headSha),
    base: side(pull.base_ref, v.baseSha),
    _links: {
      self: { href: self },
      html: { href: html },
      issue: { href: `${api}/issues/${pull.number}` },
      comments: { href: `${api}/issues/${pull.number}/comments` },
      review_comments: { href: `${self}/comments` },
      review_comment: { href: `${api}/pulls/comments{/number}` },
      commits: { href: `${self}/commits` },
      statuses: { href: `${api}/statuses/${v.headSha}` },
    },
    author_association: associationOf(v.author, repo),
    auto_merge: null,
    draft: pull.draft === 1,
  };
}

export function pullFull(u: Urls, d: PullDetail, permission?: Permission) {
  return {
    ...pullSimple(u, d, permission),
    merged: d.pull.merged === 1,
    mergeable: d.mergeable,
    rebaseable: d.mergeable,
    mergeable_state: d.mergeableState,
    merged_by: d.mergedBy ? simpleUser(u, d.mergedBy) : null,
    comments: d.comments,
    review_comments: 0,
    maintainer_can_modify: false,
    commits: d.commits,
    additions: d.additions,
    deletions: d.deletions,
    changed_files: d.changedFiles,
  };
}

export function commit(u: Urls, repo: ChRepo, c: CommitInfo) {
  const api = `${u.api}/repos/${seg(repo.owner)}/${seg(repo.name)}`;
  const html = `${u.web}/${seg(repo.owner)}/${seg(repo.name)}`;
  return {
    sha: c.sha,
    node_id: nodeId('C', parseInt(c.sha.slice(0, 8), 16)),
    url: `${api}/commits/${c.sha}`,
    html_url: `${html}/commit/${c.sha}`,
    comments_url: `${api}/commits/${c.sha}/comments`,
    commit: {
      url: `${api}/git/commits/${c.sha}`,
      author: c.author,
      committer: c.committer,
      message: c.message,
      comment_count: 0,
      tree: { sha: c.tree, url: `${api}/git/trees/${c.tree}` },
    },
    author: null,
    committer: null,
    parents: c.parents.map((p) => ({ sha: p, url: `${api}/commits/${p}`, html_url: `${html}/commit/${p}` })),
  };
}

export function diffEntry(u: Urls, repo: ChRepo, headSha: string, f: FileChange) {
  const api = `${u.api}/repos/${seg(repo.owner)}/${seg(repo.name)}`;
  const html = `${u.web}/${seg(repo.owner)}/${seg(repo.name)}`;
  return {
    sha: f.sha,
    filename: f.filename,
    status: f.status,
    additions: f.additions,
    deletions: f.deletions,
    changes: f.changes,
    blob_url: `${html}/blob/${headSha}/${path(f.filename)}`,
    raw_url: `${html}/raw/${headSha}/${path(f.filename)}`,
    contents_url: `${api}/contents/${path(f.filename)}?ref=${headSha}`,
    ...(f.patch !== undefined ? { patch: f.patch } : {}),
    ...(f.previous_filename !== undefined ? { previous_filename: f.previous_filename } : {}),
  };
}

export function review(u: Urls, v: PullView, r: ReviewView) {
  const html = pullHtml(u, v.repo, v.pull.number);
  return {
    id: r.review.id,
    node_id: nodeId('PRR', r.review.id),
    user: simpleUser(u, r.user),
    body: r.review.body,
    state: r.review.state,
    html_url: `${html}#pullrequestreview-${r.review.id}`,
    pull_request_url: pullApi(u, v.repo, v.pull.number),
    author_association: associationOf(r.user, v.repo),
    _links: { html: { href: `${html}#pullrequestreview-${r.review.id}` }, pull_request: { href: pullApi(u, v.repo, v.pull.number) } },
    ...(r.review.state === 'PENDING' ? {} : { submitted_at: ghTime(r.review.submitted_at) }),
    commit_id: r.review.commit_id,
  };
}

export function issueComment(u: Urls, access: RepoAccess, number: number, c: CommentView) {
  const api = `${u.api}/repos/${seg(access.repo.owner)}/${seg(access.repo.name)}`;
  return {
    id: c.comment.id,
    node_id: nodeId('IC', c.comment.id),
    url: `${api}/issues/comments/${c.comment.id}`,
    html_url: `${pullHtml(u, access.repo, number)}#issuecomment-${c.comment.id}`,
    body: c.comment.body,
    user: simpleUser(u, c.user),
    created_at: ghTime(c.comment.created_at),
    updated_at: ghTime(c.comment.updated_at),
    issue_url: `${api}/issues/${number}`,
    author_association: associationOf(c.user, access.repo),
    performed_via_github_app: null,
  };
}

/** branch-protection / protected-branch: GitHub's shape of a branch's rules (domain/protection.ts). */
export function branchProtection(u: Urls, repo: ChRepo, branch: string, r: BranchRules) {
  const url = `${u.api}/repos/${seg(repo.owner)}/${seg(repo.name)}/branches/${seg(branch)}/protection`;
  return {
    url,
    ...(r.statusChecks === null
      ? {}
      : {
          required_status_checks: {
            url: `${url}/required_status_checks`,
            strict: r.statusChecks.strict,
            contexts: r.statusChecks.contexts,
            contexts_url: `${url}/required_status_checks/contexts`,
            checks: r.statusChecks.checks,
          },
        }),
    ...(r.reviews === null
      ? {}
      : {
          required_pull_request_reviews: {
            url: `${url}/required_pull_request_reviews`,
            dismiss_stale_reviews: r.reviews.dismissStale,
            require_code_owner_reviews: r.reviews.codeOwners,
            required_approving_review_count: r.reviews.requiredApprovals,
            require_last_push_approval: r.reviews.lastPush,
          },
        }),
    required_signatures: { url: `${url}/required_signatures`, enabled: false },
    enforce_admins: { url: `${url}/enforce_admins`, enabled: r.enforceAdmins },
    required_linear_history: { enabled: r.linearHistory },
    allow_force_pushes: { enabled: r.allowForcePushes },
    allow_deletions: { enabled: r.allowDeletions },
    block_creations: { enabled: r.blockCreations },
    required_conversation_resolution: { enabled: r.conversationResolution },
    lock_branch: { enabled: r.lockBranch },
    allow_fork_syncing: { enabled: r.allowForkSyncing },
  };
}
