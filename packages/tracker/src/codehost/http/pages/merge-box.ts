import { html, type Html } from '../../../kit/html.js';
import type { ReviewPage } from '../../domain/review-page.js';
import { pullPath, pullStateOf, when, who } from './frame.js';

/**
 * The conversation's merge box (ARCHITECTURE §22): what blocks the merge — merged, closed, a draft,
 * a conflict, a latest verdict asking for changes, approvals a protected base still wants (§21,
 * domain/protection.ts) — and "Ready to merge" only when nothing does. A writer gets the Merge
 * button when the merge would be made; a latest verdict asking for changes does not bind the merge
 * (as on GitHub without protection), so the button stays, under the box that says who asked.
 */

const METHODS = [
  ['merge', 'Create a merge commit'],
  ['squash', 'Squash and merge'],
  ['rebase', 'Rebase and merge'],
] as const;

function mergeForm(view: ReviewPage, formToken: string): Html {
  const { detail } = view;
  return html`<form class="merge-form" method="post" action="${pullPath(detail.repo, detail.pull.number)}/merge">
<input type="hidden" name="sha" value="${detail.headSha}">
<input type="hidden" name="token" value="${formToken}">
<label>Method <select name="merge_method">${METHODS.map(([value, label]) => html`<option value="${value}">${label}</option>`)}</select></label>
<button type="submit" class="merge-button">Merge pull request</button>
</form>`;
}

export function mergeBox(view: ReviewPage, formToken: string): Html {
  const { detail } = view;
  const { pull } = detail;
  const state = pullStateOf(pull);
  if (state === 'merged') {
    return html`<section class="merge-box merged" data-block="merged"><h2>Merged</h2><p><span class="author">${who(detail.mergedBy)}</span> merged this into <code>${pull.base_ref}</code>${pull.merged_at ? html` on ${when(pull.merged_at)}` : ''}${pull.merge_commit_sha ? html` as <code class="sha">${pull.merge_commit_sha.slice(0, 7)}</code>` : ''}.</p></section>`;
  }
  if (state === 'closed')
    return html`<section class="merge-box closed" data-block="closed"><h2>Closed</h2><p>This pull request was closed without being merged.</p></section>`;
  if (state === 'draft')
    return html`<section class="merge-box draft" data-block="draft"><h2>Draft</h2><p>This pull request is still a draft: it cannot be merged until it is marked ready for review.</p></section>`;
  if (detail.mergeable === false) {
    return html`<section class="merge-box conflict" data-block="conflict"><h2>This branch has conflicts that must be resolved</h2><p>Merge or rebase <code>${pull.base_ref}</code> into <code>${pull.head_ref}</code>, resolve the conflicts, then push.</p>${view.conflicts.length > 0 ? html`<p>Conflicting files:</p><ul class="conflicts">${view.conflicts.map((f) => html`<li><code>${f}</code></li>`)}</ul>` : ''}</section>`;
  }
  const asking = view.verdicts.latest.filter((l) => l.verdict === 'changes_requested');
  const changes =
    asking.length > 0
      ? html`<div class="block changes" data-block="changes"><h2>Changes requested</h2><p>${asking.length === 1 ? '1 review is' : `${asking.length} reviews are`} requesting changes; the latest verdict of each reviewer counts:</p><ul>${asking.map((l) => html`<li><span class="author">${l.user.login}</span> requested changes ${when(l.review.submitted_at)}</li>`)}</ul></div>`
      : '';
  if (detail.blocked !== null) {
    return html`<section class="merge-box conflict" data-block="approvals">${changes}<h2>Merging is blocked</h2><p><code>${pull.base_ref}</code> is a protected branch. ${detail.blocked}</p></section>`;
  }
  const writer = view.canWrite ? mergeForm(view, formToken) : html`<p>Only someone with write access to this repository can merge it; you can read it.</p>`;
  if (asking.length > 0)
    return html`<section class="merge-box conflict" data-block="changes">${changes}<p>No conflicts with <code>${pull.base_ref}</code>.</p>${writer}</section>`;
  return html`<section class="merge-box mergeable" data-block="none"><h2>Ready to merge</h2><p>No conflicts with <code>${pull.base_ref}</code>.</p>${writer}</section>`;
}
