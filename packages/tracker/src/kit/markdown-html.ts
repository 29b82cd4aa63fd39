import { markdownToAdf, MarkdownLimitError } from '@jst/adf';
import { adfToHtml } from './adf-html.js';
import { html, type Html } from './html.js';

/**
 * Markdown (a pull request's description, a review, a comment) as HTML for the code host's pages
 * (ARCHITECTURE §22): the same path as the tracker's Markdown, `markdownToAdf` within
 * MARKDOWN_LIMITS (docs/limits.md), then the issue page's ADF renderer, which escapes every text and
 * keeps only http(s)/mailto links. Raw HTML in the Markdown is never passed through (the converter
 * keeps it as text). A text over a limit is shown as it was written, escaped, with the reason.
 *
 * Converting costs up to a few tenths of a second of CPU for a hostile body inside the limits
 * (`node bench/markdown.mjs inside`), and a page shows up to 200 bodies, so one page converts at
 * most MARKDOWN_PAGE_CHARS characters (`budget`); the bodies past it are shown as text, saying so.
 */

/** Characters of Markdown one page converts, in the order it shows them (one limit-sized body's worth). */
export const MARKDOWN_PAGE_CHARS = 32_768;

/** What is left of a page's Markdown budget (one per page rendered). */
export interface MarkdownBudget {
  left: number;
}

export const markdownBudget = (): MarkdownBudget => ({ left: MARKDOWN_PAGE_CHARS });

export function markdownHtml(text: string, budget: MarkdownBudget): Html {
  if (text.length > budget.left) {
    budget.left = 0;
    return html`<div class="text">${text}</div><p class="cut">Shown as written, not as Markdown: this page renders at most ${MARKDOWN_PAGE_CHARS} characters of Markdown.</p>`;
  }
  budget.left -= text.length;
  try {
    return html`<div class="adf markdown">${adfToHtml(markdownToAdf(text))}</div>`;
  } catch (e) {
    const why = e instanceof MarkdownLimitError ? e.message : 'It could not be read as Markdown.';
    return html`<div class="text">${text}</div><p class="cut">Shown as written, not as Markdown: ${why}</p>`;
  }
}
