import { ADF_LIMITS } from '../types.js';

/** Bounds on the work `markdownToAdf` does for one input. */
export const MARKDOWN_LIMITS = {
  /**
   * Characters read: Jira's own limit for a text field (32,767), so nothing longer could be stored
   * anyway. Dense inline markup grows about 20-fold into ADF JSON (`*a*` becomes a text node with an
   * `em` mark), which still fits jst-tracker's 1 MiB request body.
   */
  maxChars: 32_767,
  /** The produced document's nesting, the same bound `validateAdf` enforces. */
  maxDepth: ADF_LIMITS.maxDepth,
  /**
   * Runs of `*` or `_` (emphasis delimiters, and snake_case in code). micromark pairs emphasis
   * delimiters in time that grows faster than linearly with their number: 32 Ki characters of
   * `*_*_x_*_*` took 9 s, 8,192 runs take 0.3 s. Prose and code have far fewer (about one per 30
   * characters in underscore-heavy code, 1,100 at the length limit).
   */
  maxDelimiterRuns: 8_192,
} as const;

export type MarkdownLimit = keyof typeof MARKDOWN_LIMITS;

/** Markdown input over a `MARKDOWN_LIMITS` bound; nothing was converted. */
export class MarkdownLimitError extends Error {
  override readonly name = 'MarkdownLimitError';
  readonly code = 'MARKDOWN_LIMIT';
  readonly max: number;

  constructor(readonly limit: MarkdownLimit, readonly actual: number) {
    const max = MARKDOWN_LIMITS[limit];
    super(limit === 'maxChars'
      ? `Markdown input is ${actual} characters; the limit is ${max} (MARKDOWN_LIMITS.maxChars). Shorten it or split it into several comments.`
      : limit === 'maxDepth'
        ? `Markdown nests deeper than ${max} levels (MARKDOWN_LIMITS.maxDepth, the ADF nesting limit). Flatten the nested lists or quotes.`
        : `Markdown has ${actual} runs of * or _; the limit is ${max} (MARKDOWN_LIMITS.maxDelimiterRuns). Put code in code blocks as plain text without --markdown, or shorten it.`);
    this.max = max;
  }
}

/**
 * An upper bound on the container nesting (quotes and list items) any line opens: each level needs
 * a `>`, a list marker followed by a space, or two more columns of indentation. Checked before
 * parsing, because the parser's time and stack grow with that nesting long before the converter
 * could refuse the result.
 */
export function nestingBound(markdown: string): number {
  let worst = 0;
  let i = 0;
  while (i < markdown.length) {
    let levels = 0;
    let columns = 0;
    for (;;) {
      const c = markdown.charCodeAt(i);
      if (c === 32) columns += 1;
      else if (c === 9) columns += 4;
      else if (c === 62) levels += 1; // >
      else if ((c === 45 || c === 43 || c === 42) && isSpace(markdown.charCodeAt(i + 1))) levels += 1; // - + *
      else if (c >= 48 && c <= 57) {
        let j = i;
        while (markdown.charCodeAt(j) >= 48 && markdown.charCodeAt(j) <= 57) j++;
        const d = markdown.charCodeAt(j);
        if (!((d === 46 || d === 41) && isSpace(markdown.charCodeAt(j + 1)))) break; // "1." or "1)"
        levels += 1;
        i = j;
      } else break;
      i++;
    }
    worst = Math.max(worst, levels + Math.floor(columns / 2));
    const end = markdown.indexOf('\n', i);
    if (end < 0) break;
    i = end + 1;
  }
  return worst;
}

const isSpace = (c: number): boolean => c === 32 || c === 9;

/** Maximal runs of one of `*` or `_`: what micromark's emphasis pairing works over. */
export function delimiterRuns(markdown: string): number {
  let runs = 0;
  let previous = 0;
  for (let i = 0; i < markdown.length; i++) {
    const c = markdown.charCodeAt(i);
    if ((c === 42 || c === 95) && c !== previous) runs++;
    previous = c;
  }
  return runs;
}
