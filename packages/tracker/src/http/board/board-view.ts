import { BOARD_MAX_ISSUES, type Board, type Card } from '../../domain/board.js';
import type { User } from '../../domain/model.js';
import { html, type Html } from '../../kit/html.js';
import { page } from '../../kit/layout.js';
import { filterForm } from './filter-form.js';

function progress(card: Card): Html | string {
  if (!card.progress) return '';
  const { done, total } = card.progress;
  return html`<span class="progress" title="${done} of ${total} sub-tasks done">${done}/${total}</span>`;
}

function cardHtml(card: Card): Html {
  const { issue } = card;
  return html`<article class="card ${issue.parent_id === null ? '' : 'subtask'}" data-key="${issue.key}" data-status="${card.status.name}">
<a class="key" href="/browse/${issue.key}">${issue.key}</a>${progress(card)}
<p class="summary">${issue.summary}</p>
<p class="meta"><span class="type">${issue.issue_type}</span> <span class="assignee">${card.assignee?.display_name ?? 'Unassigned'}</span></p>
</article>`;
}

/** The board: one row of columns per lane (a parent and its sub-tasks; then every other issue). */
export function boardPage(board: Board, viewer: User, jqlErrors: string[] = []): string {
  const filter = filterForm(board.projects, board.project?.key, board.jql);
  const title = board.project ? `${board.project.key} board` : 'Board';
  const errors =
    jqlErrors.length > 0
      ? html`<div class="error" role="alert"><p>The filter is not valid JQL:</p><ul>${jqlErrors.map((m) => html`<li>${m}</li>`)}</ul></div>`
      : '';
  if (!board.project) {
    return page(
      { title, viewer: viewer.display_name, filter },
      html`<main class="board">${errors}<p class="empty">You are not a member of any project on this site.</p></main>`,
    );
  }
  // A filter that could not run shows no cards (none of them would be its result), and the page
  // does not poll: there is no board on it to refresh.
  if (jqlErrors.length > 0) {
    return page(
      { title, viewer: viewer.display_name, filter },
      html`<main class="board" data-project="${board.project.key}">
${errors}
<p class="empty">No issues are shown until the filter is fixed. Correct it above, or clear it to see the whole ${board.project.name} board.</p>
</main>`,
    );
  }
  const heads = html`<div class="lane heads">${board.columns.map((c) => html`<h2 class="column-head">${c}</h2>`)}</div>`;
  const lanes = board.lanes
    .filter((lane) => [...lane.cells.values()].some((cards) => cards.length > 0))
    .map(
      (lane) => html`<section class="lane-group">
<h3 class="lane-title">${lane.parent ? html`<a href="/browse/${lane.parent.issue.key}">${lane.parent.issue.key}</a> ${lane.parent.issue.summary} ${progress(lane.parent)}` : 'Issues without sub-tasks'}</h3>
<div class="lane">${board.columns.map((c) => html`<div class="column" data-status="${c}">${lane.cells.get(c)!.map(cardHtml)}</div>`)}</div>
</section>`,
    );
  const count = board.lanes.reduce((n, l) => n + [...l.cells.values()].reduce((m, cards) => m + cards.length, 0), 0);
  return page(
    { title, viewer: viewer.display_name, filter, poll: { projectKey: board.project.key, version: board.version } },
    html`<main class="board" data-project="${board.project.key}">
${errors}
<p class="summary-line">${board.project.name}: ${count} issue${count === 1 ? '' : 's'}${board.jql ? ' matching the filter' : ''}${board.truncated ? ` (the first ${BOARD_MAX_ISSUES}; narrow the filter to see the rest)` : ''}</p>
${heads}
${lanes}
</main>`,
  );
}
