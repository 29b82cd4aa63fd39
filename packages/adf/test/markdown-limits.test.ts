import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { MARKDOWN_LIMITS, MarkdownLimitError, markdownToAdf, type AdfDoc, type MarkdownLimit } from '../src/index.js';
import { expectValidAdf } from './support/vendor-schema.js';

// The time bounds are CPU time of this process: the machine the suite runs on is shared, so wall
// time says more about the neighbours than about the parser. Every input inside the limits costs
// well under a second (bench/markdown.mjs has the measured worst cases), about what ordinary prose
// of the same length costs. A conversion may take 1 s, or twice what converting 32 K characters of
// ordinary prose took here just now when the host is so loaded that even that is slow.
const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const PROSE = 'Some **bold** and _em_ text, with `code` and a [link](http://x.y).\n\n';
let budgetMs = 1000;
beforeAll(() => {
  markdownToAdf(PROSE); // load the parser
  const start = cpuMs();
  markdownToAdf(PROSE.repeat(Math.floor(MARKDOWN_LIMITS.maxChars / PROSE.length)));
  budgetMs = Math.max(1000, 2 * (cpuMs() - start));
});

function timed(markdown: string): { result: AdfDoc | MarkdownLimitError; ms: number } {
  const start = cpuMs();
  let result: AdfDoc | MarkdownLimitError;
  try {
    result = markdownToAdf(markdown);
  } catch (e) {
    if (!(e instanceof MarkdownLimitError)) throw e;
    result = e;
  }
  return { result, ms: cpuMs() - start };
}

function refusal(markdown: string, limit: MarkdownLimit): MarkdownLimitError {
  const { result, ms } = timed(markdown);
  expect(result).toBeInstanceOf(MarkdownLimitError);
  const error = result as MarkdownLimitError;
  expect(error.limit).toBe(limit);
  expect(error.message).toContain(`(MARKDOWN_LIMITS.${limit}`);
  expect(error.message).toContain(` ${MARKDOWN_LIMITS[limit]} `);
  expect(ms).toBeLessThan(1000);
  return error;
}

function converts(markdown: string): AdfDoc {
  const { result, ms } = timed(markdown);
  if (result instanceof MarkdownLimitError) throw result;
  expectValidAdf(result);
  expect(ms).toBeLessThan(budgetMs);
  return result;
}

describe('Markdown that would cost the parser seconds is refused before it runs, naming the limit', () => {
  it('two runs of 16,383 * around one letter (nested emphasis 8,000 deep): maxDelimiterRun, at once', () => {
    const error = refusal(`${'*'.repeat(16_383)}a${'*'.repeat(16_383)}`, 'maxDelimiterRun');
    expect(error.message).toBe(
      `Markdown has a run of 16383 '*' characters at line 1; the limit is ${MARKDOWN_LIMITS.maxDelimiterRun} in one run (MARKDOWN_LIMITS.maxDelimiterRun). Escape them (\\*), put them in a fenced code block, or send the text without --markdown.`,
    );
    refusal(`x\n${'_'.repeat(5000)}a${'_'.repeat(5000)}`, 'maxDelimiterRun');
    refusal(`a ${'~'.repeat(101)}a`, 'maxDelimiterRun');
  });

  it('16,000 [ (and 16,000 [ then 16,000 ]) in one paragraph: maxMarkupPerBlock, naming the paragraph', () => {
    const error = refusal('['.repeat(16_000), 'maxMarkupPerBlock');
    expect(error.message).toContain('(from line 1)');
    refusal(`${'['.repeat(16_000)}${']'.repeat(16_000)}`, 'maxMarkupPerBlock');
    expect(refusal(`intro\n\nplain line\n${'a] '.repeat(600)}`, 'maxMarkupPerBlock').message).toContain('in one paragraph (from line 3)');
    refusal('*a_ '.repeat(300), 'maxMarkupPerBlock');
  });

  it('unclosed inline <!-- and <? (the end of each is looked for up to the end of the paragraph): maxHtmlPerBlock', () => {
    refusal(`x${'<!--'.repeat(8000)}`, 'maxHtmlPerBlock');
    refusal(`x${'<?'.repeat(16_000)}`, 'maxHtmlPerBlock');
    converts(`x${'<!--'.repeat(MARKDOWN_LIMITS.maxHtmlPerBlock)}${' y'.repeat(15_000)}`);
  });

  it('many paragraphs in nested quotes or lists (each container opened and closed again): maxContainerMarkers', () => {
    refusal(`${'>'.repeat(20)} a\n\n`.repeat(1333), 'maxContainerMarkers');
    refusal('- - - - - a\n\n'.repeat(500), 'maxContainerMarkers');
    converts('> > > quoted reply, three levels deep\n'.repeat(600));
  });

  it('more lines than maxLines outside fenced code (each a block for the parser): maxLines', () => {
    refusal('a\n'.repeat(MARKDOWN_LIMITS.maxLines + 1), 'maxLines');
    refusal(`- a\n${'b\n'.repeat(MARKDOWN_LIMITS.maxLines)}`, 'maxLines');
    refusal('a\r'.repeat(MARKDOWN_LIMITS.maxLines + 1), 'maxLines');
  });

  it('a wide header over many short rows (cells padded to the header): maxTableCells, before or after parsing', () => {
    refusal(`${'a|'.repeat(2000)}\n${'-|'.repeat(2000)}\n${'x\n'.repeat(900)}`, 'maxTableCells');
    // Few | but many padded cells: refused by the converter before it builds them.
    const header = `${'a|'.repeat(199)}a\n${'-|'.repeat(199)}-\n`;
    refusal(header + 'x\n'.repeat(50), 'maxTableCells');
  });

  it('a fence the parser would not see as one does not hide what follows from the scan', () => {
    const bomb = `${'*'.repeat(500)}a${'*'.repeat(500)}`;
    refusal(`<div>\n\`\`\`\n\n${bomb}`, 'maxDelimiterRun'); // an HTML block holds the ```
    refusal(`<!--\n\n\`\`\`\n\n-->\n\n${bomb}`, 'maxDelimiterRun'); // a comment spans the blank lines
    refusal(`<PRE>\n\n\`\`\`\n</pre>\n\n${bomb}`, 'maxDelimiterRun');
    refusal(`[a]: /u '\n\`\`\`\n'\n\n${bomb}`, 'maxDelimiterRun'); // a definition's title holds it
    refusal(`- a\n\n  \`\`\`\n${bomb}`, 'maxDelimiterRun'); // the list item ends, and its fence with it
    refusal(`\`\`\`\nx\n\`\`\`\r\n${bomb}`, 'maxDelimiterRun'); // closed at \r\n
    refusal(`\`\`\`a\`b\n${bomb}`, 'maxDelimiterRun'); // a backtick in the info string: not a fence
  });

  it('deep nesting the scan cannot see is refused by the converter, never a stack overflow', () => {
    const ladder = `${'*a **a '.repeat(120)}b${' a** a*'.repeat(120)}`;
    const { result } = timed(ladder);
    expect(result).toBeInstanceOf(MarkdownLimitError);
    expect((result as MarkdownLimitError).limit).toBe('maxDepth');
    refusal(`a\r${'> '.repeat(5000)}b`, 'maxDepth');
  });
});

describe('ordinary documents stay inside the limits and convert', () => {
  it('nested lists 10 deep, a 20×20 table, long bold spans, rules of 200 *, and code fences full of snake_case', () => {
    const lists = Array.from({ length: 10 }, (_, i) => `${'  '.repeat(i)}- level ${i + 1}`).join('\n');
    const row = (c: string) => `| ${Array.from({ length: 20 }, () => c).join(' | ')} |\n`;
    const table = row('h') + row('---') + row('cell').repeat(19);
    const bold = `**${'a long bold span '.repeat(300)}**`;
    const code = `\`\`\`py\n${'some_name = other_name(third_name, fourth_name) * factor_of_two\n'.repeat(200)}\`\`\``;
    const doc = converts([lists, table, bold, '*'.repeat(200), '_'.repeat(60), code, '[a] [b] [c]'].join('\n\n'));
    expect(doc.content.map((n) => n.type)).toEqual(['bulletList', 'table', 'paragraph', 'rule', 'rule', 'codeBlock', 'paragraph']);
  });

  it('fenced code after a blank line is not counted, also after an autolink or a <div> block', () => {
    const code = `\`\`\`\n${'some_name = other_name(third_name, [fourth_name]) * factor_of_two\n'.repeat(150)}\`\`\``;
    for (const before of ['Intro', '<https://example.com/a_b>', '<div>\nhtml\n</div>']) {
      const doc = converts(`${before}\n\n${code}\n\nafter`);
      expect(doc.content.some((n) => n.type === 'codeBlock')).toBe(true);
    }
    refusal(`<pre>\n\n${code}`, 'maxMarkupPerBlock');
  });

  it('a document at the length limit of dense prose converts within a second', () => {
    converts(PROSE.repeat(Math.floor(MARKDOWN_LIMITS.maxChars / PROSE.length)));
  });
});

describe('property: Markdown of random delimiter runs, brackets, <, <!--, > and list markers is converted or refused within a second', () => {
  const piece = fc.oneof(
    fc
      .tuple(
        fc.constantFrom('*', '_', '~', '`', '[', ']', '(', ')', '<', '>', '|', '![', '](', '<!--', '<?', '- ', '> ', '\n', '\n\n', ' '),
        fc.integer({ min: 1, max: 120 }),
      )
      .map(([s, n]) => s.repeat(n)),
    fc.constantFrom('a', 'word ', 'x_y', '1. ', '  ', 'http://a.b', '<a>', '```\n', '---\n', '='),
  );
  it('each input (up to maxChars) costs under a second of CPU', () => {
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 400 }), fc.integer({ min: 1, max: 40 }), (pieces, times) => {
        const markdown = pieces.join('').repeat(times).slice(0, MARKDOWN_LIMITS.maxChars);
        const { result, ms } = timed(markdown);
        if (!(result instanceof MarkdownLimitError)) expectValidAdf(result);
        expect(ms).toBeLessThan(budgetMs);
      }),
      { numRuns: 40 },
    );
  });
});
