import type { EventListener, HostEvent, RefUpdate } from '../domain/events.js';
import { gitOf, type CodeHost } from '../domain/host.js';
import { hooksOf } from '../domain/hooks.js';
import { integrate } from '../domain/integration.js';
import { PUSH_COMMITS_MAX } from '../domain/limits.js';
import type { ChRepo, ChUser } from '../domain/model.js';
import { detailOf, viewOf } from '../domain/pull-views.js';
import type { RefUpdate as GitRefUpdate } from '../domain/pushes.js';
import { storeOf } from '../domain/store-access.js';
import type { PullView } from '../domain/views.js';
import { pullHtml, type Urls } from '../http/render.js';
import { commentPayload, pullPayload, pushPayload, refPayload, reviewPayload } from './payloads.js';

/**
 * What the composition hears from the code host's domain (domain/events.ts): each event becomes
 * its webhooks' deliveries (payloads.ts, queued in the database) and, for an issue branch, the
 * tracker's move (domain/integration.ts). `urls` are the server's own addresses.
 */
export function hostListener(host: CodeHost, urls: () => Urls): EventListener {
  return async (event: HostEvent) => {
    const u = urls();
    if (event.kind === 'refs') return refsHappened(host, u, event.repo, event.pusher, event.updates);
    const { repo } = event.access;
    const sender = event.access.user;
    // Read once; a payload's figures (git) are made only for an event some active hook hears.
    const hooks = await hooksOf(host, repo);
    if (event.kind === 'pull_request_review') {
      if (!hooks.hears('pull_request_review')) return;
      const d = await detailOf(host, event.view);
      await hooks.queue('pull_request_review', 'submitted', () => reviewPayload(u, d, event.review, sender));
      return;
    }
    if (event.kind === 'issue_comment') {
      if (!hooks.hears('issue_comment')) return;
      const d = await detailOf(host, event.view);
      await hooks.queue('issue_comment', 'created', () => commentPayload(u, event.view, event.comment, sender, d.comments));
      return;
    }
    if (hooks.hears('pull_request')) {
      const d = await detailOf(host, event.view);
      await hooks.queue('pull_request', event.action, () =>
        pullPayload(u, event.action, d, sender, {
          ...(event.changes ? { changes: event.changes } : {}),
          ...(event.before ? { before: event.before } : {}),
          ...(event.after ? { after: event.after } : {}),
        }),
      );
    }
    const { pull } = event.view;
    const link = pullHtml(u, repo, pull.number);
    const name = `${repo.owner}/${repo.name}#${pull.number}`;
    if (event.action === 'opened') {
      await integrate(host, repo, 'open', {
        subject: `pull:${pull.number}`,
        sha: event.view.headSha,
        headRef: pull.head_ref,
        link,
        text: `Pull request ${name} opened`,
      });
    } else if (event.action === 'closed' && pull.merged === 1) {
      await integrate(host, repo, 'merge', {
        subject: `pull:${pull.number}`,
        sha: pull.merge_commit_sha ?? event.view.headSha,
        headRef: pull.head_ref,
        link,
        text: `Pull request ${name} merged`,
      });
    }
  };
}

async function refsHappened(host: CodeHost, u: Urls, repo: ChRepo, pusher: ChUser | null, updates: RefUpdate[]): Promise<void> {
  const hooks = await hooksOf(host, repo);
  const owner = hooks.hears('create') || hooks.hears('push') || hooks.hears('delete') ? await ownerOf(host, repo) : null;
  const git = gitOf(host);
  for (const up of updates) {
    if (up.before === null) await hooks.queue('create', null, () => refPayload(u, repo, owner, pusher, up.branch, true));
    // The push event's commits and its `forced` are git's work: done only when a hook hears pushes.
    if (hooks.hears('push')) {
      const base = up.before ?? (up.branch === repo.default_branch ? null : await git.branchSha(repo.owner, repo.name, repo.default_branch));
      const commits =
        up.after === null || base === null
          ? []
          : (await git.compare(repo.owner, repo.name, base, up.after, { maxCommits: PUSH_COMMITS_MAX, maxFiles: 0, maxPatchBytes: 0 })).commits;
      const forced = up.before !== null && up.after !== null && !(await git.isAncestor(repo.owner, repo.name, up.before, up.after));
      await hooks.queue('push', null, () => pushPayload(u, repo, owner, pusher, { branch: up.branch, before: up.before, after: up.after, commits, forced }));
    }
    if (up.after === null) await hooks.queue('delete', null, () => refPayload(u, repo, owner, pusher, up.branch, false));
    if (up.before !== null && up.after !== null && hooks.hears('pull_request')) {
      for (const view of await openPullsWithHead(host, repo, up.branch)) {
        const d = await detailOf(host, view);
        const sender = pusher ?? view.author;
        await hooks.queue('pull_request', 'synchronize', () => pullPayload(u, 'synchronize', d, sender, { before: up.before!, after: up.after! }));
      }
    }
    if (up.before === null && up.after !== null) {
      const link = `${u.web}/${encodeURIComponent(repo.owner)}/${encodeURIComponent(repo.name)}/tree/${up.branch.split('/').map(encodeURIComponent).join('/')}`;
      await integrate(host, repo, 'branch', {
        subject: `ref:${up.branch}`,
        sha: up.after,
        headRef: up.branch,
        link,
        text: `Branch ${up.branch} pushed to ${repo.owner}/${repo.name}`,
      });
    }
  }
}

const zero = (sha: string) => /^0+$/.test(sha);

/** The branches among refs git updated (domain/pushes.ts), as the events name them (null: created/deleted). */
export function branchUpdates(updates: GitRefUpdate[]): RefUpdate[] {
  return updates
    .filter((u) => u.ref.startsWith('refs/heads/') && !(zero(u.old) && zero(u.new)))
    .map((u) => ({ branch: u.ref.slice('refs/heads/'.length), before: zero(u.old) ? null : u.old, after: zero(u.new) ? null : u.new }));
}

/** The open pull requests whose head is `branch` (a push to it synchronizes them), as views. */
async function openPullsWithHead(host: CodeHost, repo: ChRepo, branch: string): Promise<PullView[]> {
  const store = storeOf(host);
  const { rows } = await store.pulls.list(repo.id, { state: 'open', head: branch, sort: 'created', direction: 'asc', offset: 0, limit: 100 });
  const owner = (await store.users.byLogin(repo.owner)) ?? null;
  const views: PullView[] = [];
  for (const row of rows) views.push(await viewOf(host, { repo, owner }, row));
  return views;
}

/** The user named as a repository's owner, when it is a code-host user. */
async function ownerOf(host: CodeHost, repo: ChRepo): Promise<ChUser | null> {
  return (await storeOf(host).users.byLogin(repo.owner)) ?? null;
}
