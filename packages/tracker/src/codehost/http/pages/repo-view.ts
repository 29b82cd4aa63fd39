import { html, type Html } from '../../../kit/html.js';
import type { ChUser } from '../../domain/model.js';
import { PAGE_PULLS, type PullList, type PullRow, type RepoPage } from '../../domain/repo-page.js';
import { branchWithKey, pullPath, pullsPath, pullStateOf, repoFrame, stateBadge, when, who } from './frame.js';

/**
 * A repository's pages in GitHub's layout (ARCHITECTURE §22 "Pages"): `/<o>/<r>` (the Code tab:
 * default branch, clone URL, branches with their latest commits, open pull requests) and
 * `/<o>/<r>/pulls?state=` (the Pull requests tab: GitHub's list, paged). Every value escaped.
 */

const BADGE: Record<'approved' | 'changes_requested', string> = { approved: 'Approved', changes_requested: 'Changes requested' };

function pullRow({ view, badge }: PullRow): Html {
  const { pull, repo } = view;
  const state = pullStateOf(pull);
  return html`<li class="pull-row" data-state="${state}">${stateBadge(state)} <a class="pull-title" href="${pullPath(repo, pull.number)}">${pull.title}</a>${badge ? html` <span class="verdict verdict-${badge}">${BADGE[badge]}</span>` : ''}
<span class="pull-row-meta">#${pull.number} opened ${when(pull.created_at)} by <span class="author">${who(view.author)}</span> · ${branchWithKey(pull.head_ref, 'head')} → <code class="base">${pull.base_ref}</code></span></li>`;
}

const pullRows = (rows: PullRow[], empty: string) =>
  rows.length > 0 ? html`<ul class="pull-rows">${rows.map(pullRow)}</ul>` : html`<p class="empty">${empty}</p>`;

/** `/<o>/<r>`: the Code tab. `cloneUrl` is the git address on this server. */
export function repoPage(view: RepoPage, viewer: ChUser, cloneUrl: string): string {
  const { repo } = view.header.access;
  const cut =
    view.totalBranches > view.branches.length
      ? html`<p class="cut">Showing the ${view.branches.length} most recently committed of ${view.totalBranches} branches (git ls-remote lists them all).</p>`
      : '';
  return repoFrame(
    view.header,
    viewer,
    'code',
    'Code',
    html`<section class="repo-summary">
<p>Default branch <code class="branch default-branch">${repo.default_branch}</code> · ${view.totalBranches} ${view.totalBranches === 1 ? 'branch' : 'branches'}</p>
<p class="clone"><label>Clone <input class="clone-url" type="text" readonly value="${cloneUrl}"></label></p>
</section>
<section class="branches"><h2>Branches</h2>${cut}<table class="branch-list"><tbody>${view.branches.map(
      (b) =>
        html`<tr data-branch="${b.name}"><td>${branchWithKey(b.name, 'branch')}${b.name === repo.default_branch ? html` <span class="default-label">default</span>` : ''}</td><td><code class="sha">${b.sha.slice(0, 7)}</code></td><td class="message">${b.subject}</td><td>${when(b.date)}</td></tr>`,
    )}</tbody></table></section>
<section class="open-pulls"><h2>Open pull requests (${view.header.openPulls})</h2>${pullRows(view.pulls, 'There are no open pull requests.')}${view.header.openPulls > view.pulls.length ? html`<p><a href="${pullsPath(repo)}">All ${view.header.openPulls} open pull requests</a></p>` : ''}</section>`,
  );
}

/** `/<o>/<r>/pulls?state=…&page=…`: the Pull requests tab. */
export function pullListPage(list: PullList, viewer: ChUser): string {
  const { repo } = list.header.access;
  const link = (state: 'open' | 'closed' | 'all', page: number) => `${pullsPath(repo, state)}${page > 1 ? `${state === 'open' ? '?' : '&'}page=${page}` : ''}`;
  const filter = (state: 'open' | 'closed', label: string, count: number) =>
    html`<a class="filter-state${list.state === state ? ' selected' : ''}" href="${link(state, 1)}">${count} ${label}</a>`;
  const pages = Math.max(1, Math.ceil(list.total / PAGE_PULLS));
  const paging =
    pages > 1
      ? html`<nav class="paging">${list.page > 1 ? html`<a rel="prev" href="${link(list.state, list.page - 1)}">Previous</a>` : ''} <span>Page ${list.page} of ${pages}</span> ${list.page < pages ? html`<a rel="next" href="${link(list.state, list.page + 1)}">Next</a>` : ''}</nav>`
      : '';
  return repoFrame(
    list.header,
    viewer,
    'pulls',
    'Pull requests',
    html`<section class="pull-list" data-state="${list.state}">
<nav class="states">${filter('open', 'Open', list.open)} ${filter('closed', 'Closed', list.closed)} <a class="filter-state${list.state === 'all' ? ' selected' : ''}" href="${link('all', 1)}">All</a></nav>
${pullRows(list.pulls, list.state === 'open' ? 'There are no open pull requests.' : list.state === 'closed' ? 'There are no closed pull requests.' : 'There are no pull requests.')}
${paging}
</section>`,
  );
}
