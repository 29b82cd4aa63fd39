import type { IssuePage } from '../../domain/board.js';
import type { User } from '../../domain/model.js';
import { adfToHtml } from '../../kit/adf-html.js';
import { html } from '../../kit/html.js';
import { page } from '../../kit/layout.js';
import { highlightedMarker } from './markers.js';

const when = (iso: string) => iso.slice(0, 16).replace('T', ' ');

/**
 * A pull request whose head branch carries the issue's key (the code host's answer, ARCHITECTURE
 * §14), as far as the board shows it: the board's viewer signed in to the tracker, which says
 * nothing of what they may read on the code host, so no title or branch is shown (docs/codehost.md
 * "The board's development panel"); the review page shows them to whoever may read the repository.
 */
export interface IssuePullRequest {
  /** `owner/name`. */
  repo: string;
  number: number;
  state: 'open' | 'closed';
  merged: boolean;
  /** The sub-task whose branch it is, when listed on its parent's page (ARCHITECTURE §22). */
  subtask?: string | undefined;
}

/** The one question the board asks the code host (injected by the composition, src/server.ts). */
export type PullsForIssue = (key: string, baseUrl: string) => Promise<IssuePullRequest[]>;

/** Pull requests the development panel lists; past it, it says how many more there are. */
export const PANEL_PULLS_MAX = 50;
/** Sub-tasks whose pull requests a parent's panel asks for (the first ones; the sub-task's own page has the rest). */
export const PANEL_SUBTASKS_MAX = 50;

/** The development panel: the issue's pull requests, each linked to its review page (same origin). */
function developmentPanel(all: IssuePullRequest[]) {
  const pulls = all.slice(0, PANEL_PULLS_MAX);
  const state = (p: IssuePullRequest) => (p.merged ? 'merged' : p.state);
  const href = (p: IssuePullRequest) => `/${p.repo.split('/').map(encodeURIComponent).join('/')}/pull/${p.number}`;
  return html`<section class="development"><h2>Development</h2>${
    pulls.length === 0
      ? html`<p class="empty">No pull requests: none has a head branch named for this issue or its sub-tasks (feature/KEY-… or hotfix/KEY-…).</p>`
      : html`<ul class="pulls">${pulls.map((p) => html`<li class="pull-link" data-state="${state(p)}">${p.subtask ? html`<a class="subtask-key" href="/browse/${p.subtask}">${p.subtask}</a> ` : ''}<a href="${href(p)}">${p.repo}#${p.number}</a> <span class="state state-${state(p)}">${state(p)}</span></li>`)}</ul><p class="note">Titles and branches are on each pull request's page, for those who may read its repository on the code host.</p>${all.length > pulls.length ? html`<p class="cut">Showing the first ${pulls.length} of ${all.length} pull requests.</p>` : ''}`
  }</section>`;
}

/**
 * `/browse/KEY`: the issue, its description and comments from ADF, its transitions as buttons, and
 * (when the code host is on) its pull requests.
 */
export function issuePage(view: IssuePage, viewer: User, pulls?: IssuePullRequest[]): string {
  const { issue, project, people } = view;
  const name = (id: number | null) => (id === null ? 'Unassigned' : (people.get(id)?.display_name ?? 'Unknown user'));
  const transitions =
    view.transitions.length === 0
      ? ''
      : html`<div class="transitions" aria-label="Move this issue">${view.transitions.map((t) => html`<button type="button" class="transition" data-issue="${issue.key}" data-transition="${t.id}" title="Move to ${t.to}">${t.name}</button>`)}</div>`;
  const authors = { roles: view.roles, reporterId: issue.reporter_id, assigneeId: issue.assignee_id };
  const comments = view.comments.map((c) => {
    const marker = highlightedMarker(c.body, c.author_id, authors);
    return html`<article class="comment${marker ? html` marker marker-${marker.kind}` : ''}">
<p class="comment-head"><span class="author">${name(c.author_id)}</span> <time datetime="${c.created_at}">${when(c.created_at)}</time>${marker ? html` <span class="badge">${marker.label}</span>` : ''}</p>
<div class="adf">${adfToHtml(c.body)}</div>
</article>`;
  });
  return page(
    { title: `${issue.key} ${issue.summary}`, viewer: viewer.display_name, poll: { projectKey: project.key, version: view.version } },
    html`<main class="issue" data-key="${issue.key}">
<nav class="crumbs"><a href="/?project=${project.key}">${project.key} board</a>${view.parent ? html` / <a href="/browse/${view.parent.key}">${view.parent.key}</a>` : ''} / ${issue.key}</nav>
<h1><span class="key">${issue.key}</span> <span class="summary">${issue.summary}</span></h1>
<dl class="fields">
<dt>Status</dt><dd class="status" data-status="${view.status.name}">${view.status.name}</dd>
<dt>Type</dt><dd>${issue.issue_type}</dd>
<dt>Assignee</dt><dd class="assignee">${name(issue.assignee_id)}</dd>
<dt>Reporter</dt><dd>${name(issue.reporter_id)}</dd>
<dt>Updated</dt><dd><time datetime="${issue.updated_at}">${when(issue.updated_at)}</time></dd>
</dl>
${transitions}
<section class="description"><h2>Description</h2>${issue.description ? html`<div class="adf">${adfToHtml(issue.description)}</div>` : html`<p class="empty">No description.</p>`}</section>
${pulls ? developmentPanel(pulls) : ''}
${view.subtasks.length > 0 ? html`<section class="subtasks"><h2>Sub-tasks</h2><ul>${view.subtasks.map((s) => html`<li><a href="/browse/${s.issue.key}">${s.issue.key}</a> ${s.issue.summary} <span class="status-badge" data-status="${s.status.name}">${s.status.name}</span></li>`)}</ul></section>` : ''}
<section class="comments"><h2>Comments (${view.comments.length})</h2>${comments.length > 0 ? comments : html`<p class="empty">No comments.</p>`}</section>
</main>`,
  );
}
