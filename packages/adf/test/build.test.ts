import { describe, it, expect } from 'vitest';
import {
  blockquote,
  bulletList,
  code,
  codeBlock,
  doc,
  em,
  hardBreak,
  heading,
  link,
  listItem,
  mention,
  orderedList,
  panel,
  paragraph,
  rule,
  strike,
  strong,
  text,
  underline,
  validateAdf,
} from '../src/index.js';

describe('builder', () => {
  it('builds paragraphs from strings and inline nodes', () => {
    expect(paragraph('a ', text('b', [strong()]), hardBreak(), '')).toEqual({
      type: 'paragraph',
      content: [{ type: 'text', text: 'a ' }, { type: 'text', text: 'b', marks: [{ type: 'strong' }] }, { type: 'hardBreak' }],
    });
  });

  it('omits empty marks', () => {
    expect(text('x', [])).toEqual({ type: 'text', text: 'x' });
  });

  it('wraps list item strings and arrays in listItems', () => {
    expect(bulletList('a', [paragraph('b'), orderedList('c')])).toEqual({
      type: 'bulletList',
      content: [
        { type: 'listItem', content: [paragraph('a')] },
        {
          type: 'listItem',
          content: [paragraph('b'), { type: 'orderedList', content: [listItem(paragraph('c'))] }],
        },
      ],
    });
  });

  it('builds code blocks with and without language', () => {
    expect(codeBlock('x = 1', 'ts')).toEqual({
      type: 'codeBlock',
      attrs: { language: 'ts' },
      content: [{ type: 'text', text: 'x = 1' }],
    });
    expect(codeBlock('')).toEqual({ type: 'codeBlock' });
  });

  it('builds mentions and links', () => {
    expect(mention('abc')).toEqual({ type: 'mention', attrs: { id: 'abc' } });
    expect(mention('abc', '@Ann')).toEqual({ type: 'mention', attrs: { id: 'abc', text: '@Ann' } });
    expect(link('https://x')).toEqual({ type: 'link', attrs: { href: 'https://x' } });
  });

  it('returns fresh mark objects', () => {
    expect(strong()).not.toBe(strong());
  });

  it('produces documents that validate', () => {
    const d = doc(
      heading(2, 'Title ', text('x', [em()])),
      paragraph(text('b', [strong(), em(), strike(), underline()]), text('c', [code(), link('https://example.com')]), ' see ', mention('557058:abc', '@Ann')),
      bulletList('one', [paragraph('two'), bulletList('nested')]),
      orderedList(listItem('first'), 'second'),
      codeBlock('const a = 1;\nconst b = 2;', 'typescript'),
      codeBlock(''),
      blockquote('quoted', bulletList('q')),
      rule(),
      panel('warning', heading(3, 'Careful'), 'body', rule()),
      paragraph(),
    );
    expect(validateAdf(d)).toEqual({ ok: true, doc: d });
  });
});
