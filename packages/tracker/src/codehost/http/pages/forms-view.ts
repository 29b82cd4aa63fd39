import { html, type Html } from '../../../kit/html.js';
import { BODY_MAX } from '../../domain/limits.js';
import type { PageForm, ReviewPage } from '../../domain/review-page.js';
import { pullPath, pullStateOf } from './frame.js';

/**
 * The conversation's forms (ARCHITECTURE §22 "Forms"): a review (comment, approve, request
 * changes, with a body), a comment, close and reopen. Each posts to a page route (forms.ts) with its
 * own token; shown to writers only (the REST operations they mirror need write). A refused form
 * comes back filled in as it was sent (`draft`).
 */

/** What a refused form sent, shown again in it. */
export interface FormDraft {
  form: PageForm;
  body: string;
  event?: string | undefined;
}

export type FormTokensOf = Record<PageForm, string>;

const textarea = (name: string, value: string, label: string) =>
  html`<label class="form-label">${label}<textarea name="${name}" rows="6" maxlength="${BODY_MAX}">${value}</textarea></label>`;

const EVENTS = [
  ['COMMENT', 'Comment', 'Submit general feedback without explicit approval.'],
  ['APPROVE', 'Approve', 'Submit feedback and approve merging these changes.'],
  ['REQUEST_CHANGES', 'Request changes', 'Submit feedback that must be addressed before merging.'],
] as const;

export function pullForms(view: ReviewPage, tokens: FormTokensOf | null, draft: FormDraft | null): Html {
  if (tokens === null) return html`<p class="forms-none">You can read this repository; reviewing, commenting, closing and reopening need write access.</p>`;
  const { detail } = view;
  const { pull } = detail;
  const base = pullPath(detail.repo, pull.number);
  const state = pullStateOf(pull);
  const own = view.access.user.id === pull.user_id;
  const chosen = draft?.form === 'review' ? (draft.event ?? 'COMMENT') : 'COMMENT';
  const review =
    state === 'open' || state === 'draft'
      ? html`<form class="review-form" method="post" action="${base}/reviews">
<h2>Review changes</h2>
<input type="hidden" name="token" value="${tokens.review}">
<input type="hidden" name="sha" value="${detail.headSha}">
${textarea('body', draft?.form === 'review' ? draft.body : '', 'Leave a comment')}
<fieldset class="events">${EVENTS.map(
          ([value, label, hint]) =>
            html`<label class="event"><input type="radio" name="event" value="${value}"${value === chosen ? html` checked` : ''}${own && value !== 'COMMENT' ? html` title="You opened this pull request."` : ''}> <strong>${label}</strong> <span class="hint">${hint}</span></label>`,
        )}</fieldset>
<button type="submit" class="review-button">Submit review</button>
</form>`
      : '';
  const toggle =
    state === 'merged'
      ? ''
      : state === 'closed'
        ? html`<form class="reopen-form" method="post" action="${base}/reopen"><input type="hidden" name="token" value="${tokens.reopen}"><button type="submit" class="reopen-button">Reopen pull request</button></form>`
        : html`<form class="close-form" method="post" action="${base}/close"><input type="hidden" name="token" value="${tokens.close}"><button type="submit" class="close-button">Close pull request</button></form>`;
  const comment = html`<form class="comment-form" method="post" action="${base}/comments">
<h2>Add a comment</h2>
<input type="hidden" name="token" value="${tokens.comment}">
${textarea('body', draft?.form === 'comment' ? draft.body : '', 'Comment')}
<button type="submit" class="comment-button">Comment</button>
</form>`;
  return html`<section class="pull-forms">${comment}${toggle}${review}</section>`;
}
