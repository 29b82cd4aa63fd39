import { describe, it, expect } from 'vitest';
import { textToAdf, validateAdf } from '../src/index.js';

const para = (t: string) => ({ type: 'paragraph', content: [{ type: 'text', text: t }] });

describe('textToAdf', () => {
  it('returns an empty doc for empty input', () => {
    expect(textToAdf('')).toEqual({ type: 'doc', version: 1, content: [] });
  });

  it('makes one paragraph per line', () => {
    expect(textToAdf('one\ntwo')).toEqual({ type: 'doc', version: 1, content: [para('one'), para('two')] });
  });

  it('keeps markdown literal', () => {
    const src = '## x\n- y\n1. z\n**bold** `code` [a](http://b)\n> quote';
    expect(textToAdf(src).content).toEqual(src.split('\n').map(para));
  });

  it('splits on CRLF, LF and lone CR without leaving \\r behind', () => {
    expect(textToAdf('a\r\nb\rc\nd').content).toEqual([para('a'), para('b'), para('c'), para('d')]);
  });

  it('skips empty and whitespace-only lines', () => {
    expect(textToAdf('\n\na\n   \n\t\r\n\u00a0\nb\n\n').content).toEqual([para('a'), para('b')]);
  });

  it('does not trim line content', () => {
    expect(textToAdf('  indented  \n\ttab').content).toEqual([para('  indented  '), para('\ttab')]);
  });

  it('preserves Unicode verbatim', () => {
    const lines = ['Grüße 👋🏽', '日本語のテキスト', 'עברית', 'e\u0301 combining'];
    expect(textToAdf(lines.join('\n')).content).toEqual(lines.map(para));
  });

  it('always produces a valid document', () => {
    for (const s of ['', 'x', '\n\n', 'a\r\n\r\nb', '- [ ] task']) {
      expect(validateAdf(textToAdf(s)).ok).toBe(true);
    }
  });
});
