import { describe, it, expect } from 'vitest';
import {
  adfToPlainText,
  blockquote,
  bulletList,
  codeBlock,
  doc,
  firstLineText,
  hardBreak,
  heading,
  mention,
  paragraph,
  rule,
  text,
  textToAdf,
  walkText,
} from '../src/index.js';

describe('walkText', () => {
  it('yields text nodes in document order at any depth', () => {
    const d = doc(
      paragraph('PR target branch: ', text('main')),
      bulletList('a', [paragraph('b'), bulletList('c')]),
      blockquote(codeBlock('d')),
      heading(1, 'e'),
    );
    expect([...walkText(d)]).toEqual(['PR target branch: ', 'main', 'a', 'b', 'c', 'd', 'e']);
  });

  it('does not throw on junk', () => {
    const junk: unknown[] = [
      null,
      undefined,
      42,
      'doc',
      [],
      {},
      { content: 'x' },
      { content: [null, 1, 'a', [], { type: 'text' }] },
      { type: 'doc', content: [{ type: 'text', text: 5 }, { type: 'text', text: 'ok' }, { content: { 0: 1 } }] },
    ];
    for (const j of junk) expect(() => [...walkText(j)]).not.toThrow();
    expect([...walkText(junk)]).toEqual(['ok']);
  });

  it('accepts an array of nodes as the root', () => {
    expect([...walkText([paragraph('a'), paragraph('b')])]).toEqual(['a', 'b']);
  });

  it('handles 100,000 levels of nesting without recursion', () => {
    let node: Record<string, unknown> = { type: 'text', text: 'deep' };
    for (let i = 0; i < 100_000; i++) node = { type: 'bulletList', content: [node] };
    expect([...walkText({ type: 'doc', content: [node] })]).toEqual(['deep']);
    expect(adfToPlainText({ type: 'doc', content: [node] })).toBe('deep');
  });
});

describe('adfToPlainText', () => {
  it('round-trips textToAdf to the non-blank lines', () => {
    const src = '## Heading\r\n\r\n- item\n   \n  spaced  \rlast';
    expect(adfToPlainText(textToAdf(src))).toBe('## Heading\n- item\n  spaced  \nlast');
  });

  it('separates blocks and renders hardBreak as a newline', () => {
    const d = doc(
      heading(1, 'Title'),
      paragraph('a', hardBreak(), 'b'),
      bulletList('one', [paragraph('two'), bulletList('three')]),
      codeBlock('x\ny'),
      rule(),
      paragraph(),
      blockquote('q'),
      paragraph('hi ', mention('id1', '@Ann'), '!'),
    );
    expect(adfToPlainText(d)).toBe('Title\na\nb\none\ntwo\nthree\nx\ny\nq\nhi @Ann!');
  });

  it('returns an empty string for junk or empty docs', () => {
    expect(adfToPlainText(null)).toBe('');
    expect(adfToPlainText('text')).toBe('');
    expect(adfToPlainText(textToAdf(''))).toBe('');
  });
});

describe('firstLineText', () => {
  it('returns the first line', () => {
    expect(firstLineText(textToAdf('Assignment report\nowner: x'))).toBe('Assignment report');
    expect(firstLineText(doc(paragraph('Assignment report', hardBreak(), 'rest')))).toBe('Assignment report');
  });

  it('skips leading empty blocks', () => {
    expect(firstLineText(doc(paragraph(), rule(), paragraph('Marker')))).toBe('Marker');
  });

  it('returns an empty string when there is no text', () => {
    expect(firstLineText(doc())).toBe('');
    expect(firstLineText(undefined)).toBe('');
  });
});
