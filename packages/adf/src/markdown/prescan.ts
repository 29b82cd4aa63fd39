import { containers, delimiterRuns, MARKDOWN_LIMITS, MarkdownLimitError } from './limits.js';

const STAR = 42;
const UNDERSCORE = 95;
const TILDE = 126;
const BACKTICK = 96;
const DASH = 45;
const LT = 60;
const SPACE = 32;
const TAB = 9;
const LF = 10;
const CR = 13;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const PIPE = 124;
const BANG = 33;
const QUESTION = 63;

/**
 * The start of an HTML block that a blank line does not end (CommonMark §4.6, kinds 1-5): a fence
 * after one may be inside it. The other kinds end at the blank line every recognised fence follows.
 */
const LONG_HTML_BLOCK = /^<(?:(?:script|pre|style|textarea)(?:[\s>]|$)|!--|\?|![A-Za-z]|!\[CDATA\[)/i;

/**
 * Refuses, before micromark runs, every input over a `MARKDOWN_LIMITS` bound (a
 * `MarkdownLimitError` naming the limit, its value and the line): one pass over the characters, so
 * the check costs microseconds where the parse it saves would cost seconds.
 *
 * Fenced code is skipped only where it surely is fenced code for micromark too (a fence at column 0
 * after a blank line or the start, with no HTML block that spans blank lines opened before it
 * anywhere): everywhere else the text is counted as if micromark parsed it as inline text, so a
 * misread fence can only make the scan stricter, never let a bomb through.
 */
export function prescanMarkdown(markdown: string): void {
  const L = MARKDOWN_LIMITS;
  if (markdown.length > L.maxChars) throw new MarkdownLimitError('maxChars', markdown.length);
  const nesting = containers(markdown);
  if (nesting.deepest > L.maxDepth) throw new MarkdownLimitError('maxDepth', nesting.deepest);
  if (nesting.markers > L.maxContainerMarkers) throw new MarkdownLimitError('maxContainerMarkers', nesting.markers);
  const runs = delimiterRuns(markdown);
  if (runs > L.maxDelimiterRuns) throw new MarkdownLimitError('maxDelimiterRuns', runs);

  let lines = 0;
  const counts = { pipes: 0, html: 0 };
  let line = 0;
  let blockMarkup = 0;
  let blockLine = 0;
  let previousBlank = true;
  let htmlSeen = false;
  let fence: { char: number; length: number } | undefined;
  const n = markdown.length;
  let start = 0;
  while (start <= n) {
    line++;
    let end = start;
    while (end < n && markdown.charCodeAt(end) !== LF && markdown.charCodeAt(end) !== CR) end++;
    const next = markdown.charCodeAt(end) === CR && markdown.charCodeAt(end + 1) === LF ? end + 2 : end + 1;
    const shape = lineShape(markdown, start, end);
    const from = start;
    start = next;
    if (fence) {
      if (shape.indent <= 3 && shape.first === fence.char && shape.run >= fence.length && shape.onlyRun) fence = undefined;
      previousBlank = false;
      continue;
    }
    if (shape.blank) {
      previousBlank = true;
      blockMarkup = 0;
      counts.html = 0;
      continue;
    }
    if (++lines > L.maxLines) throw new MarkdownLimitError('maxLines', lines);
    if (shape.indent <= 3 && shape.first === LT && LONG_HTML_BLOCK.test(markdown.slice(from + shape.indent, Math.min(end, from + shape.indent + 12))))
      htmlSeen = true;
    if (
      previousBlank &&
      !htmlSeen &&
      shape.indent === 0 &&
      shape.run >= 3 &&
      (shape.first === TILDE || (shape.first === BACKTICK && !hasBacktick(markdown, from + shape.run, end)))
    ) {
      fence = { char: shape.first, length: shape.run };
      previousBlank = false;
      continue;
    }
    if (previousBlank) blockLine = line;
    previousBlank = false;
    if (shape.indent <= 3 && shape.thematicBreak) continue;
    blockMarkup += inlineMarkup(markdown, from, end, line, counts);
    if (blockMarkup > L.maxMarkupPerBlock) throw new MarkdownLimitError('maxMarkupPerBlock', blockMarkup, { line: blockLine });
    if (counts.html > L.maxHtmlPerBlock) throw new MarkdownLimitError('maxHtmlPerBlock', counts.html, { line: blockLine });
    if (counts.pipes > L.maxTableCells) throw new MarkdownLimitError('maxTableCells', counts.pipes, { line });
  }
}

interface LineShape {
  blank: boolean;
  /** Leading spaces (a tab counts as 4). */
  indent: number;
  /** The first character after the indentation. */
  first: number;
  /** How many times `first` repeats from there. */
  run: number;
  /** Nothing but spaces and tabs follows that run. */
  onlyRun: boolean;
  /** Only one of `*`, `_`, `-` (3 or more) with spaces and tabs between: a rule, not inline text. */
  thematicBreak: boolean;
}

function lineShape(s: string, start: number, end: number): LineShape {
  let i = start;
  let indent = 0;
  while (i < end && (s.charCodeAt(i) === SPACE || s.charCodeAt(i) === TAB)) indent += s.charCodeAt(i++) === TAB ? 4 : 1;
  if (i === end) return { blank: true, indent, first: 0, run: 0, onlyRun: false, thematicBreak: false };
  const first = s.charCodeAt(i);
  let run = 0;
  while (i < end && s.charCodeAt(i) === first) {
    i++;
    run++;
  }
  let j = i;
  while (j < end && (s.charCodeAt(j) === SPACE || s.charCodeAt(j) === TAB)) j++;
  const onlyRun = j === end;
  let marks = run;
  let thematic = first === STAR || first === UNDERSCORE || first === DASH;
  for (let k = i; thematic && k < end; k++) {
    const c = s.charCodeAt(k);
    if (c === first) marks++;
    else if (c !== SPACE && c !== TAB) thematic = false;
  }
  return { blank: false, indent, first, run, onlyRun, thematicBreak: thematic && marks >= 3 };
}

function hasBacktick(s: string, from: number, end: number): boolean {
  const i = s.indexOf('`', from);
  return i >= 0 && i < end;
}

/**
 * Runs of `*`, `_`, `~` and brackets on one line; throws on a run over `maxDelimiterRun`. Adds the
 * line's `|` (each at most one table cell) and its `<!` and `<?` to `counts`.
 */
function inlineMarkup(s: string, start: number, end: number, line: number, counts: { pipes: number; html: number }): number {
  let count = 0;
  let i = start;
  while (i < end) {
    const c = s.charCodeAt(i);
    if (c === STAR || c === UNDERSCORE || c === TILDE) {
      let j = i + 1;
      while (j < end && s.charCodeAt(j) === c) j++;
      if (j - i > MARKDOWN_LIMITS.maxDelimiterRun) throw new MarkdownLimitError('maxDelimiterRun', j - i, { line, char: String.fromCharCode(c) });
      count++;
      i = j;
    } else {
      if (c === OPEN_BRACKET || c === CLOSE_BRACKET) count++;
      else if (c === LT && (s.charCodeAt(i + 1) === BANG || s.charCodeAt(i + 1) === QUESTION)) counts.html++;
      else if (c === PIPE) counts.pipes++;
      i++;
    }
  }
  return count;
}
