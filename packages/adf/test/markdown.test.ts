import { describe, expect, it } from 'vitest';
import { adfToText, MARKDOWN_LIMITS, MarkdownLimitError, markdownToAdf, textToAdf, type AdfMark, type AdfNode } from '../src/index.js';
import { expectValidAdf } from './support/vendor-schema.js';

const t = (text: string, ...marks: AdfMark[]): AdfNode => (marks.length ? { type: 'text', text, marks } : { type: 'text', text });
const p = (...content: AdfNode[]): AdfNode => ({ type: 'paragraph', content });
const li = (...content: AdfNode[]): AdfNode => ({ type: 'listItem', content });
const cell = (type: 'tableHeader' | 'tableCell', ...content: AdfNode[]): AdfNode => ({ type, content: [p(...content)] });

/** Markdown → ADF (asserted exactly, and valid for both schemas) → adfToText (the normalised Markdown). */
function roundTrip(markdown: string, content: AdfNode[], text: string = markdown): void {
  const doc = markdownToAdf(markdown);
  expect(doc).toEqual({ type: 'doc', version: 1, content });
  expectValidAdf(doc);
  expect(adfToText(doc)).toBe(text);
}

describe('markdownToAdf: one round trip per construct (ARCHITECTURE §11 "Markdown, on request")', () => {
  it('headings 1 to 6', () => {
    for (let level = 1; level <= 6; level++) {
      roundTrip(`${'#'.repeat(level)} Title ${level}`, [{ type: 'heading', attrs: { level }, content: [t(`Title ${level}`)] }]);
    }
  });
  it("paragraphs: neighbouring paragraphs print on neighbouring lines; soft breaks keep the author's lines", () => {
    roundTrip('one\ntwo\n\nthree', [p(t('one\ntwo')), p(t('three'))], 'one\ntwo\nthree');
  });
  it('nested bullet lists', () => {
    roundTrip('- a\n  - b\n    - c\n- d', [
      {
        type: 'bulletList',
        content: [li(p(t('a')), { type: 'bulletList', content: [li(p(t('b')), { type: 'bulletList', content: [li(p(t('c')))] })] }), li(p(t('d')))],
      },
    ]);
  });
  it('ordered lists keep their start number in attrs.order, nested in bullets and back', () => {
    roundTrip('3. three\n4. four\n   - x\n     1. y', [
      {
        type: 'orderedList',
        attrs: { order: 3 },
        content: [
          li(p(t('three'))),
          li(p(t('four')), { type: 'bulletList', content: [li(p(t('x')), { type: 'orderedList', attrs: { order: 1 }, content: [li(p(t('y')))] })] }),
        ],
      },
    ]);
  });
  it('code blocks with and without a language', () => {
    roundTrip('```ts\nconst a = 1;\n\nreturn a;\n```', [{ type: 'codeBlock', attrs: { language: 'ts' }, content: [t('const a = 1;\n\nreturn a;')] }]);
    roundTrip('```\n```', [{ type: 'codeBlock' }]);
    roundTrip('````\nhas ``` inside\n````', [{ type: 'codeBlock', content: [t('has ``` inside')] }]);
  });
  it('inline code, bold, italic and strike', () => {
    roundTrip('a `x()` **b** *c* ~~d~~', [
      p(t('a '), t('x()', { type: 'code' }), t(' '), t('b', { type: 'strong' }), t(' '), t('c', { type: 'em' }), t(' '), t('d', { type: 'strike' })),
    ]);
    roundTrip('_under_ __strong__', [p(t('under', { type: 'em' }), t(' '), t('strong', { type: 'strong' }))], '*under* **strong**');
  });
  it('nested marks are one flat set; code keeps only a link beside it', () => {
    roundTrip('***both*** **`code`**', [p(t('both', { type: 'em' }, { type: 'strong' }), t(' '), t('code', { type: 'code' }))], '***both*** `code`');
  });
  it('links: a link mark with href (and title); autolinks; text equal to the address prints once', () => {
    roundTrip(
      'see [docs](https://x.test/d "Docs") or <https://x.test>',
      [
        p(
          t('see '),
          t('docs', { type: 'link', attrs: { href: 'https://x.test/d', title: 'Docs' } }),
          t(' or '),
          t('https://x.test', { type: 'link', attrs: { href: 'https://x.test' } }),
        ),
      ],
      'see docs (https://x.test/d) or https://x.test',
    );
    roundTrip(
      '[**bold** link][ref]\n\n[ref]: https://r.test',
      [p(t('bold', { type: 'link', attrs: { href: 'https://r.test' } }, { type: 'strong' }), t(' link', { type: 'link', attrs: { href: 'https://r.test' } }))],
      '**bold** link (https://r.test)',
    );
    roundTrip('[`run`](https://c.test)', [p(t('run', { type: 'code' }, { type: 'link', attrs: { href: 'https://c.test' } }))], '`run` (https://c.test)');
  });
  it('block quotes, with a heading inside degraded to a bold paragraph (ADF allows none there)', () => {
    roundTrip(
      '> quoted\n> - item',
      [{ type: 'blockquote', content: [p(t('quoted')), { type: 'bulletList', content: [li(p(t('item')))] }] }],
      '> quoted\n>\n> - item',
    );
    roundTrip('> # Title\n> > inner', [{ type: 'blockquote', content: [p(t('Title', { type: 'strong' })), p(t('inner'))] }], '> **Title**\n> inner');
  });
  it('rules', () => {
    roundTrip('a\n\n---\n\nb', [p(t('a')), { type: 'rule' }, p(t('b'))]);
  });
  it('tables: a header row, cells holding paragraphs, short rows padded', () => {
    roundTrip(
      '| Key | Status |\n| --- | --- |\n| ABC-1 | **Done** |\n| ABC-22 |',
      [
        {
          type: 'table',
          content: [
            { type: 'tableRow', content: [cell('tableHeader', t('Key')), cell('tableHeader', t('Status'))] },
            { type: 'tableRow', content: [cell('tableCell', t('ABC-1')), cell('tableCell', t('Done', { type: 'strong' }))] },
            { type: 'tableRow', content: [cell('tableCell', t('ABC-22')), cell('tableCell')] },
          ],
        },
      ],
      '| Key    | Status   |\n| ------ | -------- |\n| ABC-1  | **Done** |\n| ABC-22 |          |',
    );
  });
  it('hard breaks', () => {
    roundTrip('one  \ntwo\\\nthree', [p(t('one'), { type: 'hardBreak' }, t('two'), { type: 'hardBreak' }, t('three'))], 'one\ntwo\nthree');
  });
  it('images become their alt text linked to the address (ADF media needs attachment ids)', () => {
    roundTrip(
      '![diagram](https://i.test/d.png)',
      [p(t('diagram', { type: 'link', attrs: { href: 'https://i.test/d.png' } }))],
      'diagram (https://i.test/d.png)',
    );
  });
  it('task items keep their box as text; raw HTML stays literal', () => {
    roundTrip('- [ ] todo\n- [x] done', [{ type: 'bulletList', content: [li(p(t('[ ] todo'))), li(p(t('[x] done')))] }]);
    roundTrip('<b>not bold</b>', [p(t('<b>not bold</b>'))]);
  });
  it('blocks ADF does not allow in a list item degrade: heading, quote, rule, table', () => {
    const doc = markdownToAdf('- # H\n- > q\n- ***\n- | a |\n  | - |\n  | 1 |');
    expectValidAdf(doc);
    expect(adfToText(doc)).toBe('- **H**\n- q\n- ---\n- a\n  1');
  });
  it('an empty list item and an empty document are valid ADF', () => {
    roundTrip('-', [{ type: 'bulletList', content: [li(p())] }], '- ');
    roundTrip('', [], '');
  });
});

describe('spec §2: without --markdown, plain text stays literal', () => {
  it('textToAdf keeps ##, - and 1. as text, and adfToText prints the lines it came from', () => {
    const text = '## not a heading\n- not a list\n1. not ordered\n**not bold**';
    const doc = textToAdf(text);
    expect(doc.content).toEqual(text.split('\n').map((line) => p(t(line))));
    expectValidAdf(doc);
    expect(adfToText(doc)).toBe(text);
  });
});

describe('markdownToAdf bounds its work (MARKDOWN_LIMITS)', () => {
  it('refuses input over maxChars with a typed error that names the limit', () => {
    const over = 'x'.repeat(MARKDOWN_LIMITS.maxChars + 1);
    expect(() => markdownToAdf(over)).toThrow(MarkdownLimitError);
    expect(() => markdownToAdf(over)).toThrow(`the limit is ${MARKDOWN_LIMITS.maxChars} (MARKDOWN_LIMITS.maxChars)`);
    expect(markdownToAdf('x'.repeat(MARKDOWN_LIMITS.maxChars)).content).toHaveLength(1);
  });
  it('refuses nesting past the ADF depth limit, before parsing when a line shows it', () => {
    const quotes = `${'>'.repeat(5000)} deep`;
    const error = (() => {
      try {
        markdownToAdf(quotes);
      } catch (e) {
        return e;
      }
    })() as MarkdownLimitError;
    expect(error).toBeInstanceOf(MarkdownLimitError);
    expect(error.limit).toBe('maxDepth');
    expect(error.message).toContain(`deeper than ${MARKDOWN_LIMITS.maxDepth} levels`);
  });
  it('refuses list nesting whose ADF would pass the depth limit, and accepts it just inside', () => {
    const lists = (n: number) => Array.from({ length: n }, (_, i) => `${'  '.repeat(i)}- x`).join('\n');
    expect(() => markdownToAdf(lists(51))).toThrow(MarkdownLimitError);
    const ok = markdownToAdf(lists(49));
    expectValidAdf(ok);
  });
  it('refuses more emphasis delimiter runs than maxDelimiterRuns (micromark pairs them in superlinear time)', () => {
    const hostile = '*_*_*_x_*_*_ '.repeat(1000);
    const error = (() => {
      try {
        markdownToAdf(hostile);
      } catch (e) {
        return e;
      }
    })() as MarkdownLimitError;
    expect(error).toBeInstanceOf(MarkdownLimitError);
    expect(error.limit).toBe('maxDelimiterRuns');
    expect(error.message).toContain(`Markdown has 11000 runs of * or _; the limit is ${MARKDOWN_LIMITS.maxDelimiterRuns}`);
    expectValidAdf(markdownToAdf('*_*_*_x_*_*_\n\n'.repeat(600)));
  });
});
