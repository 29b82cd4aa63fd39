import { html, type Html } from '../../../kit/html.js';
import { page } from '../../../kit/layout.js';
import type { ChUser } from '../../domain/model.js';
import type { ReviewPage } from '../../domain/review-page.js';
import type { FileChange } from '../../domain/git-port.js';
import { diffRows } from './diff.js';
import { plural, pullFrame, pullPath, pullStateOf, when, who, type PullState } from './frame.js';

export { pullPath, type PullState };

/**
 * A pull request's review page (ARCHITECTURE §14 "Pages"), written with the board's one `html`
 * template (every value escaped) inside the board's layout (its stylesheet and headers; no inline
 * script or style). Bodies are shown as text, as written.
 */

const REVIEW_STATES: Record<string, string> = {
  APPROVED: 'approved',
  CHANGES_REQUESTED: 'requested changes',
  COMMENTED: 'commented',
  PENDING: 'pending',
  DISMISSED: 'dismissed',
};

const METHODS = [
  ['merge', 'Create a merge commit'],
  ['squash', 'Squash and merge'],
  ['rebase', 'Rebase and merge'],
] as const;

export const stateOf = (view: ReviewPage): PullState => pullStateOf(view.detail.pull);

function mergeBox(view: ReviewPage, formToken: string): Html {
  const { detail } = view;
  const { pull } = detail;
  const state = stateOf(view);
  if (state === 'merged') {
    return html`<section class="merge-box merged"><h2>Merged</h2><p><span class="author">${who(detail.mergedBy)}</span> merged this into <code>${pull.base_ref}</code>${pull.merged_at ? html` on ${when(pull.merged_at)}` : ''}${pull.merge_commit_sha ? html` as <code class="sha">${pull.merge_commit_sha.slice(0, 7)}</code>` : ''}.</p></section>`;
  }
  if (state === 'closed') return html`<section class="merge-box closed"><h2>Closed</h2><p>This pull request was closed without being merged.</p></section>`;
  if (state === 'draft')
    return html`<section class="merge-box draft"><h2>Draft</h2><p>This pull request is still a draft: it cannot be merged until it is marked ready for review.</p></section>`;
  if (detail.mergeable === false) {
    return html`<section class="merge-box conflict"><h2>Not mergeable</h2><p>This branch has conflicts with <code>${pull.base_ref}</code> that must be resolved (merge or rebase <code>${pull.base_ref}</code> into <code>${pull.head_ref}</code>, then push).</p>${view.conflicts.length > 0 ? html`<p>Conflicting files:</p><ul class="conflicts">${view.conflicts.map((f) => html`<li><code>${f}</code></li>`)}</ul>` : ''}</section>`;
  }
  if (detail.blocked !== null) {
    return html`<section class="merge-box conflict"><h2>Merging is blocked</h2><p><code>${pull.base_ref}</code> is a protected branch. ${detail.blocked}</p></section>`;
  }
  if (!view.canWrite) {
    return html`<section class="merge-box mergeable"><h2>Ready to merge</h2><p>No conflicts with <code>${pull.base_ref}</code>. Only someone with write access to this repository can merge it; you can read it.</p></section>`;
  }
  return html`<section class="merge-box mergeable"><h2>Ready to merge</h2><p>No conflicts with <code>${pull.base_ref}</code>.</p>
<form class="merge-form" method="post" action="${pullPath(detail.repo, pull.number)}/merge">
<input type="hidden" name="sha" value="${detail.headSha}">
<input type="hidden" name="token" value="${formToken}">
<label>Method <select name="merge_method">${METHODS.map(([value, label]) => html`<option value="${value}">${label}</option>`)}</select></label>
<button type="submit" class="merge-button">Merge pull request</button>
</form></section>`;
}

function fileHtml(f: FileChange, index: number): Html {
  const rows = f.patch === undefined ? [] : diffRows(f.patch);
  const body =
    f.patch !== undefined
      ? html`<table class="diff"><tbody>${rows.map((r) => html`<tr class="${r.kind}"><td class="ln">${r.old ?? ''}</td><td class="ln">${r.new ?? ''}</td><td class="code">${r.kind === 'add' ? '+' : r.kind === 'del' ? '-' : r.kind === 'ctx' ? ' ' : ''}${r.text}</td></tr>`)}</tbody></table>`
      : html`<p class="empty">${f.additions + f.deletions === 0 && f.cut === undefined ? 'No lines to show (binary, renamed or mode change).' : 'The diff of this file is not shown: it is too large for this page. Read it with git (git diff) or the REST files listing.'}</p>`;
  return html`<article class="file" id="file-${index}" data-status="${f.status}">
<h3 class="file-head"><span class="file-name">${f.previous_filename !== undefined ? html`${f.previous_filename} → ` : ''}${f.filename}</span> <span class="file-status">${f.status}</span> <span class="adds">+${f.additions}</span> <span class="dels">−${f.deletions}</span></h3>
${body}
</article>`;
}

/** The review page of a pull request; `formToken` goes into the merge form (review-page.ts FormTokens). */
export function reviewPage(view: ReviewPage, viewer: ChUser, formToken: string): string {
  const { detail } = view;
  const { pull } = detail;
  const fileNote =
    view.totalFiles > view.files.length
      ? html`<p class="cut">Showing ${view.files.length} of ${view.totalFiles} changed files; the rest are not shown on this page (git diff, or the REST files listing, has them all).</p>`
      : '';
  const patchNote =
    view.patchesCut > 0 ? html`<p class="cut">${plural(view.patchesCut, 'file')} shown without lines: the page holds at most 1 MiB of diff.</p>` : '';
  const threadNote = (shown: number, total: number, what: string) =>
    total > shown ? html`<p class="cut">Showing the first ${shown} of ${total} ${what}.</p>` : '';
  return pullFrame(
    view.header,
    viewer,
    'conversation',
    html`<p class="pull-stats"><span class="files-count">${plural(detail.changedFiles, 'file')} changed</span> <span class="adds">+${detail.additions}</span> <span class="dels">−${detail.deletions}</span> · head <code class="sha">${detail.headSha.slice(0, 7)}</code></p>
<section class="pull-body"><h2>Description</h2>${pull.body ? html`<div class="text">${pull.body}</div>` : html`<p class="empty">No description.</p>`}</section>
${mergeBox(view, formToken)}
<section class="reviews"><h2>Reviews (${view.totalReviews})</h2>${
      view.reviews.length > 0
        ? view.reviews.map(
            (r) => html`<article class="review review-${r.review.state.toLowerCase()}" id="pullrequestreview-${r.review.id}">
<p class="comment-head"><span class="author">${r.user.login}</span> <span class="review-state">${REVIEW_STATES[r.review.state] ?? r.review.state}</span> ${when(r.review.submitted_at)}</p>
${r.review.body ? html`<div class="text">${r.review.body}</div>` : ''}
</article>`,
          )
        : html`<p class="empty">No reviews yet.</p>`
    }${threadNote(view.reviews.length, view.totalReviews, 'reviews')}</section>
<section class="comments"><h2>Comments (${view.totalComments})</h2>${
      view.comments.length > 0
        ? view.comments.map(
            (c) => html`<article class="comment" id="issuecomment-${c.comment.id}">
<p class="comment-head"><span class="author">${c.user.login}</span> ${when(c.comment.created_at)}</p>
<div class="text">${c.comment.body}</div>
</article>`,
          )
        : html`<p class="empty">No comments.</p>`
    }${threadNote(view.comments.length, view.totalComments, 'comments')}</section>
<section class="commits"><h2>Commits (${view.totalCommits})</h2><table class="commit-list"><tbody>${view.commits.map((c) => html`<tr><td><code class="sha">${c.sha.slice(0, 7)}</code></td><td class="message">${c.message.split('\n', 1)[0]}</td><td class="author">${c.author.name}</td><td>${when(c.author.date)}</td></tr>`)}</tbody></table>${threadNote(view.commits.length, view.totalCommits, 'commits')}</section>
<section class="files"><h2>Files changed (${view.totalFiles})</h2>${fileNote}${patchNote}${view.files.map(fileHtml)}</section>`,
  );
}

/** A refusal or an outcome as a page: a title, lines of text, and an optional link back. */
export function notePage(title: string, lines: string[], back?: { href: string; label: string }): string {
  return page(
    { title },
    html`<main class="message"><h1>${title}</h1>${lines.map((l) => html`<p>${l}</p>`)}${back ? html`<p><a href="${back.href}">${back.label}</a></p>` : ''}</main>`,
  );
}
