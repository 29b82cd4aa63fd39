import { ADF_LIMITS } from '../types.js';

/**
 * Bounds on the work `markdownToAdf` does for one input, checked by one linear pre-scan
 * (prescan.ts) before micromark runs: micromark is synchronous and cannot be interrupted, and
 * several of its constructs cost time that grows faster than the input. Each bound was set by
 * measurement (bench/markdown.mjs) so that any input inside all of them converts in well under a
 * second, while ordinary documents stay far inside them.
 */
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
   * Runs of `*` or `_` in the whole input (emphasis delimiters, and snake_case in code). micromark
   * pairs emphasis delimiters in time that grows faster than linearly with their number. Prose and
   * code have far fewer (about one per 30 characters in underscore-heavy code, 1,100 at the length
   * limit).
   */
  maxDelimiterRuns: 8_192,
  /**
   * The longest run of one of `*`, `_` or `~` (outside fenced code and lines that are a thematic
   * break). Paired runs nest one emphasis inside the next: two runs of 16,383 `*` cost micromark
   * 26-31 s and 300 MB and then overflow the stack. 100 is more than any rule of `*`, `_____` blank or
   * masked `********` needs.
   */
  maxDelimiterRun: 100,
  /**
   * Emphasis delimiter runs (`*`, `_`, `~`) plus brackets (`[`, `]`) in one block of consecutive
   * non-blank lines (outside fenced code). micromark matches each closer by walking back over the
   * paragraph, so this work grows with the square of their number: 8,000 brackets or 4,000
   * mismatched `*a_` in one paragraph took seconds.
   */
  maxMarkupPerBlock: 500,
  /**
   * `<!` and `<?` (the starts of inline HTML comments, declarations, CDATA and processing
   * instructions) in one block of consecutive non-blank lines (outside fenced code). micromark looks
   * for the end of each up to the end of its paragraph: 8,000 unclosed `<?` took 2 s of CPU, and 500
   * before 32 K characters still took 1 s.
   */
  maxHtmlPerBlock: 100,
  /**
   * Lines that are not blank and not inside fenced code. Each line costs micromark a block
   * construct (list item, heading, quote, table row); lazy continuation lines of a list item or quote
   * cost more the more of them there are. 16,000 one-character lines took 1.6 s.
   */
  maxLines: 1_000,
  /**
   * Quote and list markers (`>`, `-`, `+`, `*`, `1.`) at the starts of lines, all lines together.
   * Each costs micromark a container to open, continue or close, and closing one costs more the
   * longer the document: 1,333 paragraphs each in 20 nested quotes (27,000 markers) took 4 s of CPU,
   * 1,000 paragraphs of `- - - - - a` 1.2 s. A list of a thousand items, or a long email quoted three
   * levels deep, stays inside.
   */
  maxContainerMarkers: 2_000,
  /**
   * Table cells: the `|` outside fenced code before parsing, and the cells of the tables produced
   * (a row shorter than its header is filled with empty cells, so a 2,000-column header over 900
   * one-word rows would make 1.8 million). micromark spends about as long on a cell as on a line;
   * 2,000 cells of ADF are over 100,000 characters of JSON, three times what a field can store.
   */
  maxTableCells: 2_000,
} as const;

export type MarkdownLimit = keyof typeof MARKDOWN_LIMITS;

/** Where a limit was met and with what, for the message. */
export interface MarkdownLimitDetail {
  /** 1-based line of the input where the limit was met. */
  line?: number;
  /** The delimiter character of an over-long run. */
  char?: string;
}

const MESSAGES: Record<MarkdownLimit, (actual: number, max: number, d: MarkdownLimitDetail) => string> = {
  maxChars: (actual, max) =>
    `Markdown input is ${actual} characters; the limit is ${max} (MARKDOWN_LIMITS.maxChars). Shorten it or split it into several comments.`,
  maxDepth: (_actual, max) => `Markdown nests deeper than ${max} levels (MARKDOWN_LIMITS.maxDepth, the ADF nesting limit). Flatten the nested lists or quotes.`,
  maxDelimiterRuns: (actual, max) =>
    `Markdown has ${actual} runs of * or _; the limit is ${max} (MARKDOWN_LIMITS.maxDelimiterRuns). Put code in code blocks as plain text without --markdown, or shorten it.`,
  maxDelimiterRun: (actual, max, d) =>
    `Markdown has a run of ${actual} '${d.char ?? '*'}' characters${at(d)}; the limit is ${max} in one run (MARKDOWN_LIMITS.maxDelimiterRun). Escape them (\\${d.char ?? '*'}), put them in a fenced code block, or send the text without --markdown.`,
  maxMarkupPerBlock: (actual, max, d) =>
    `Markdown has ${actual} emphasis delimiters and brackets (* _ ~ [ ]) in one paragraph${d.line ? ` (from line ${d.line})` : ''}; the limit is ${max} (MARKDOWN_LIMITS.maxMarkupPerBlock). Split it with blank lines, put code in fenced code blocks, or send the text without --markdown.`,
  maxHtmlPerBlock: (actual, max, d) =>
    `Markdown has ${actual} '<!' and '<?' (HTML comments, declarations, instructions) in one paragraph${d.line ? ` (from line ${d.line})` : ''}; the limit is ${max} (MARKDOWN_LIMITS.maxHtmlPerBlock). Split it with blank lines, put markup in a fenced code block, or send the text without --markdown.`,
  maxContainerMarkers: (actual, max) =>
    `Markdown has ${actual} quote and list markers (>, -, +, *, 1.) at the starts of its lines; the limit is ${max} (MARKDOWN_LIMITS.maxContainerMarkers). Nest fewer quotes and lists, or send the text without --markdown.`,
  maxTableCells: (actual, max, d) =>
    `Markdown has ${actual} table cells${d.line ? ` (| characters, by line ${d.line})` : ''}; the limit is ${max} (MARKDOWN_LIMITS.maxTableCells). Split the table, or send it as text without --markdown.`,
  maxLines: (actual, max) =>
    `Markdown has ${actual} lines outside fenced code blocks; the limit is ${max} (MARKDOWN_LIMITS.maxLines). Shorten it, put listings in a fenced code block, or send the text without --markdown.`,
};

const at = (d: MarkdownLimitDetail): string => (d.line ? ` at line ${d.line}` : '');

/** Markdown input over a `MARKDOWN_LIMITS` bound; nothing was converted. */
export class MarkdownLimitError extends Error {
  override readonly name = 'MarkdownLimitError';
  readonly code = 'MARKDOWN_LIMIT';
  readonly max: number;

  constructor(
    readonly limit: MarkdownLimit,
    readonly actual: number,
    detail: MarkdownLimitDetail = {},
  ) {
    const max = MARKDOWN_LIMITS[limit];
    super(MESSAGES[limit](actual, max, detail));
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
  return containers(markdown).deepest;
}

/**
 * `deepest`: as `nestingBound`. `markers`: the quote and list markers at the starts of all lines
 * together, each one a container micromark opens or continues.
 */
export function containers(markdown: string): { deepest: number; markers: number } {
  let worst = 0;
  let markers = 0;
  let i = 0;
  while (i < markdown.length) {
    let levels = 0;
    let columns = 0;
    for (;;) {
      const c = markdown.charCodeAt(i);
      if (c === 32) columns += 1;
      else if (c === 9) columns += 4;
      else if (c === 62)
        levels += 1; // >
      else if ((c === 45 || c === 43 || c === 42) && isSpace(markdown.charCodeAt(i + 1)))
        levels += 1; // - + *
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
    markers += levels;
    // Lines end at \n, \r\n or a lone \r, as micromark reads them.
    while (i < markdown.length && markdown.charCodeAt(i) !== 10 && markdown.charCodeAt(i) !== 13) i++;
    i++;
  }
  return { deepest: worst, markers };
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
