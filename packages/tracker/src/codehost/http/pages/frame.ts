import { ISSUE_KEY } from '@jst/protocol';
import { html, type Html } from '../../../kit/html.js';
import { page } from '../../../kit/layout.js';
import { issueKeyOfBranch } from '../../domain/issue-keys.js';
import type { ChRepo, ChUser } from '../../domain/model.js';
import type { PullHeader, RepoHeader } from '../../domain/pull-frame.js';
import type { PullDetail } from '../../domain/views.js';

/**
 * The frame every code-host page shares, in GitHub's layout (ARCHITECTURE §22 "Pages"): the
 * repository header (owner/repo, the Code and Pull requests tabs with the open count) and, on a
 * pull request's pages, its header (title #n, the state badge, "X wants to merge N commits into
 * base from head") and the Conversation / Commits / Files changed tabs with their counts. Every
 * value goes through the kit's `html` (escaped); the page around it is the kit's `page`.
 */

const seg = (s: string) => encodeURIComponent(s);

/** `/<owner>/<repo>`: the repository's page. */
export const repoPath = (repo: Pick<ChRepo, 'owner' | 'name'>) => `/${seg(repo.owner)}/${seg(repo.name)}`;
/** `/<owner>/<repo>/pull/<n>`: the pull request's conversation (its `html_url` without the origin). */
export const pullPath = (repo: Pick<ChRepo, 'owner' | 'name'>, n: number) => `${repoPath(repo)}/pull/${n}`;
/** `/<owner>/<repo>/pulls`, with `?state=` when not the open list. */
export const pullsPath = (repo: Pick<ChRepo, 'owner' | 'name'>, state?: 'open' | 'closed' | 'all') =>
  `${repoPath(repo)}/pulls${state && state !== 'open' ? `?state=${state}` : ''}`;

/** A time as the pages show it: UTC to the minute, the exact instant in `datetime`. */
export const when = (iso: string) => html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>`;
/** A user's login, or GitHub's `ghost` for a user no longer there. */
export const who = (u: ChUser | null | undefined) => (u ? u.login : 'ghost');
export const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

export type PullState = 'open' | 'draft' | 'closed' | 'merged';
export function pullStateOf(pull: PullDetail['pull']): PullState {
  return pull.merged === 1 ? 'merged' : pull.state === 'closed' ? 'closed' : pull.draft === 1 ? 'draft' : 'open';
}
const STATE_LABEL: Record<PullState, string> = { open: 'Open', draft: 'Draft', closed: 'Closed', merged: 'Merged' };
/** The state badge (GitHub's green Open, grey Draft, red Closed, purple Merged). */
export const stateBadge = (state: PullState) => html`<span class="state state-${state}">${STATE_LABEL[state]}</span>`;

/**
 * Issue keys in a text (`ABC-12` in the tracker's capitals, whole words, so `step-1` is no key)
 * linked to the tracker's `/browse/<KEY>`; the rest escaped.
 */
const KEYS = new RegExp(`(?<![A-Za-z0-9_])${ISSUE_KEY.source.slice(1, -1)}(?![A-Za-z0-9_])`, 'g');
export function keyLinks(text: string): Html {
  const parts: (string | Html)[] = [];
  let last = 0;
  for (const m of text.matchAll(KEYS)) {
    parts.push(text.slice(last, m.index), html`<a class="issue-key" href="/browse/${seg(m[0])}">${m[0]}</a>`);
    last = m.index + m[0].length;
  }
  parts.push(text.slice(last));
  return html`${parts}`;
}

/** A branch name, and the issue it belongs to (`feature/<KEY>-…`, any case) linked after it. */
export function branchWithKey(branch: string, cls: string): Html {
  const key = issueKeyOfBranch(branch);
  return html`<code class="${cls}">${branch}</code>${key !== null ? html` <a class="issue-key" href="/browse/${seg(key)}">${key}</a>` : ''}`;
}

export type RepoTab = 'code' | 'pulls';
export type PullTab = 'conversation' | 'commits' | 'files';

function repoHead(header: RepoHeader, active: RepoTab | null): Html {
  const { repo } = header.access;
  const tab = (id: RepoTab, href: string, label: string, count?: number) =>
    html`<a class="tab${id === active ? ' selected' : ''}" href="${href}"${id === active ? html` aria-current="page"` : ''}>${label}${count !== undefined ? html` <span class="counter">${count}</span>` : ''}</a>`;
  return html`<header class="repo-head">
<h1 class="repo-name"><span class="owner">${repo.owner}</span> / <a href="${repoPath(repo)}"><strong>${repo.name}</strong></a></h1>
<nav class="tabs repo-tabs">${tab('code', repoPath(repo), 'Code')}${tab('pulls', pullsPath(repo), 'Pull requests', header.openPulls)}</nav>
</header>`;
}

/** A repository's page (its Code or Pull requests tab) around `body`. */
export function repoFrame(header: RepoHeader, viewer: ChUser, tab: RepoTab, title: string, body: Html): string {
  const { repo } = header.access;
  return page(
    { title: `${title} · ${repo.owner}/${repo.name}`, viewer: viewer.name ?? viewer.login },
    html`<main class="codehost" data-tab="${tab}">${repoHead(header, tab)}${body}</main>`,
  );
}

/**
 * A pull request's page (its Conversation, Commits or Files changed tab) around `body`: the
 * repository header with Pull requests selected, the pull request's header, the notices, the tabs.
 */
export function pullFrame(header: PullHeader, viewer: ChUser, tab: PullTab, body: Html, title?: string): string {
  const { detail } = header;
  const { pull, repo } = detail;
  const state = pullStateOf(pull);
  const base = pullPath(repo, pull.number);
  const tabLink = (id: PullTab, href: string, label: string, count: number) =>
    html`<a class="tab${id === tab ? ' selected' : ''}" href="${href}"${id === tab ? html` aria-current="page"` : ''}>${label} <span class="counter">${count}</span></a>`;
  const verb = state === 'merged' ? 'merged' : 'wants to merge';
  return page(
    { title: `${title ? `${title} · ` : ''}${pull.title} · #${pull.number} · ${repo.owner}/${repo.name}`, viewer: viewer.name ?? viewer.login },
    html`<main class="codehost pull" data-state="${state}" data-tab="${tab}">${repoHead(header, 'pulls')}
<header class="pull-head">
<h1><span class="title">${keyLinks(pull.title)}</span> <span class="number">#${pull.number}</span></h1>
<p class="pull-meta">${stateBadge(state)} <span class="author">${who(detail.author)}</span> ${verb} ${plural(detail.commits, 'commit')} into <code class="base">${pull.base_ref}</code> from ${branchWithKey(pull.head_ref, 'head')}</p>
</header>
${header.notices.length > 0 ? html`<section class="notices">${header.notices.map((n) => html`<p class="notice">${n}</p>`)}</section>` : ''}
<nav class="tabs pull-tabs">${tabLink('conversation', base, 'Conversation', detail.comments)}${tabLink('commits', `${base}/commits`, 'Commits', detail.commits)}${tabLink('files', `${base}/files`, 'Files changed', detail.changedFiles)}</nav>
${body}
</main>`,
  );
}
