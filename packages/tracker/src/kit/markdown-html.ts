import { markdownToAdf, MarkdownLimitError } from '@jst/adf';
import { adfToHtml } from './adf-html.js';
import { html, type Html } from './html.js';

/**
 * Markdown (a pull request's description, a review, a comment) as HTML for the code host's pages
 * (ARCHITECTURE §22): the same path as the tracker's Markdown, `markdownToAdf` within
 * MARKDOWN_LIMITS (docs/limits.md), then the issue page's ADF renderer, which escapes every text and
 * keeps only http(s)/mailto links. Raw HTML in the Markdown is never passed through (the converter
 * keeps it as text). A text over a limit is shown as it was written, escaped, with the reason.
 */
export function markdownHtml(text: string): Html {
  try {
    return html`<div class="adf markdown">${adfToHtml(markdownToAdf(text))}</div>`;
  } catch (e) {
    const why = e instanceof MarkdownLimitError ? e.message : 'It could not be read as Markdown.';
    return html`<div class="text">${text}</div><p class="cut">Shown as written, not as Markdown: ${why}</p>`;
  }
}
