import { html, type Html } from '../../../kit/html.js';
import { page } from '../../../kit/layout.js';
import { markdownBudget, markdownHtml, type MarkdownBudget } from '../../../kit/markdown-html.js';
import type { ChUser } from '../../domain/model.js';
import type { ReviewPage } from '../../domain/review-page.js';
import type { FileChange } from '../../domain/git-port.js';
import { verdictOfReview, type VerdictState } from '../../domain/verdicts.js';
import { diffRows } from './diff.js';
import { pullForms, type FormDraft, type FormTokensOf } from './forms-view.js';
import { plural, pullFrame, pullPath, pullStateOf, when, who, type PullState } from './frame.js';
import { mergeBox } from './merge-box.js';

export { pullPath, type PullState };

/**
 * A pull request's conversation page (ARCHITECTURE §22 "Pages"), inside the code host's frame
 * (frame.ts pullFrame): the description and every review and comment rendered from Markdown
 * (kit/markdown-html.ts: escaped, within MARKDOWN_LIMITS), the reviews with their verdict badges,
 * the merge box (merge-box.ts), the forms (forms-view.ts). Until the Files changed tab has its own
 * page the diff stays below, bounded as before.
 */

export const stateOf = (view: ReviewPage): PullState => pullStateOf(view.detail.pull);

const BADGES: Record<VerdictState, string> = {
  approved: 'Approved',
  changes_requested: 'Changes requested',
  commented: 'Commented',
  pending: 'Pending',
  dismissed: 'Dismissed',
};
const REVIEW_VERBS: Record<VerdictState, string> = {
  approved: 'approved these changes',
  changes_requested: 'requested changes',
  commented: 'reviewed',
  pending: 'started a review',
  dismissed: 'reviewed (dismissed)',
};

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

/** Reviews and comments in one timeline, oldest first (each list is the first PAGE_THREAD_MAX), rendered in that order. */
function timeline(view: ReviewPage, budget: MarkdownBudget): Html[] {
  const items: { at: string; html: () => Html }[] = [];
  for (const r of view.reviews) {
    const v = verdictOfReview(r.review);
    items.push({
      at: r.review.submitted_at,
      html: () => html`<article class="review review-${v}" id="pullrequestreview-${r.review.id}" data-verdict="${v}">
<p class="comment-head"><span class="author">${r.user.login}</span> <span class="review-state">${REVIEW_VERBS[v]}</span> <span class="verdict verdict-${v}">${BADGES[v]}</span> ${when(r.review.submitted_at)} <code class="sha" title="the head this review was made on">${r.review.commit_id.slice(0, 7)}</code></p>
${r.review.body ? markdownHtml(r.review.body, budget) : ''}
</article>`,
    });
  }
  for (const c of view.comments) {
    items.push({
      at: c.comment.created_at,
      html: () => html`<article class="comment" id="issuecomment-${c.comment.id}">
<p class="comment-head"><span class="author">${c.user.login}</span> commented ${when(c.comment.created_at)}</p>
${markdownHtml(c.comment.body, budget)}
</article>`,
    });
  }
  return items.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0)).map((i) => i.html());
}

export interface ConversationOptions {
  /** The merge form's token (review-page.ts FormTokens.make), '' for a reader. */
  mergeToken: string;
  /** The other forms' tokens, null for a reader (no forms). */
  formTokens: FormTokensOf | null;
  /** A refused form's refusal, shown above the forms (escaped), and what it sent. */
  refusal?: { lines: string[]; draft: FormDraft } | undefined;
}

/** The conversation page of a pull request. */
export function reviewPage(view: ReviewPage, viewer: ChUser, options: ConversationOptions): string {
  const { detail } = view;
  const { pull } = detail;
  const base = pullPath(detail.repo, pull.number);
  const fileNote =
    view.totalFiles > view.files.length
      ? html`<p class="cut">Showing ${view.files.length} of ${view.totalFiles} changed files; the rest are not shown on this page (git diff, or the REST files listing, has them all).</p>`
      : '';
  const patchNote =
    view.patchesCut > 0 ? html`<p class="cut">${plural(view.patchesCut, 'file')} shown without lines: the page holds at most 1 MiB of diff.</p>` : '';
  const threadNote = (shown: number, total: number, what: string) =>
    total > shown ? html`<p class="cut">Showing the first ${shown} of ${total} ${what}.</p>` : '';
  const reviewed = view.verdicts.viewerReviewedSha;
  const since =
    reviewed !== null && reviewed !== detail.headSha && /^[0-9a-f]{40}$/.test(reviewed)
      ? html`<p class="since-review"><a href="${base}/files/${reviewed}..${detail.headSha}">Changes since your last review</a> (you reviewed <code class="sha">${reviewed.slice(0, 7)}</code>; the head is now <code class="sha">${detail.headSha.slice(0, 7)}</code>)</p>`
      : '';
  const budget = markdownBudget();
  const description = pull.body ? markdownHtml(pull.body, budget) : html`<p class="empty">No description provided.</p>`;
  const items = timeline(view, budget);
  const refusal = options.refusal
    ? html`<section class="refusal" role="alert"><h2>Not done</h2>${options.refusal.lines.map((l) => html`<p>${l}</p>`)}</section>`
    : '';
  return pullFrame(
    view.header,
    viewer,
    'conversation',
    html`<p class="pull-stats"><span class="files-count"><a href="${base}/files">${plural(detail.changedFiles, 'file')} changed</a></span> <span class="adds">+${detail.additions}</span> <span class="dels">−${detail.deletions}</span> · head <code class="sha">${detail.headSha.slice(0, 7)}</code> · opened ${when(pull.created_at)}</p>
${since}
<section class="pull-body timeline-item"><p class="comment-head"><span class="author">${who(detail.author)}</span> opened this pull request ${when(pull.created_at)}</p>${description}</section>
<section class="timeline"><h2>Conversation (${view.totalReviews + view.totalComments})</h2>${items.length > 0 ? items : html`<p class="empty">No reviews or comments yet.</p>`}${threadNote(view.reviews.length, view.totalReviews, 'reviews')}${threadNote(view.comments.length, view.totalComments, 'comments')}</section>
${mergeBox(view, options.mergeToken)}
${refusal}
${pullForms(view, options.formTokens, options.refusal?.draft ?? null)}
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
