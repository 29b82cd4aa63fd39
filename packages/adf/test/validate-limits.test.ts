import { describe, it, expect } from 'vitest';
import { ADF_LIMITS, validateAdf } from '../src/index.js';

type Node = { type: string; content?: Node[]; text?: string };

/**
 * bulletList > listItem > bulletList … > listItem > paragraph > text, built
 * iteratively so the text node sits at depth `levels` (top-level blocks are depth 1).
 * `levels` must be even for the paragraph to land inside a listItem.
 */
function nestedLists(levels: number): { type: 'doc'; version: 1; content: Node[] } {
  let node: Node = { type: 'paragraph', content: [{ type: 'text', text: 'deep' }] };
  for (let depth = levels - 2; depth >= 1; depth--) {
    node = { type: depth % 2 === 1 ? 'bulletList' : 'listItem', content: [node] };
  }
  return { type: 'doc', version: 1, content: [node] };
}

const pathAtDepth = (depth: number) => '$' + '.content[0]'.repeat(depth);

describe('validateAdf limits', () => {
  it('exports the depth limit', () => {
    expect(ADF_LIMITS.maxDepth).toBe(100);
  });

  it('accepts nesting exactly at the limit', () => {
    expect(validateAdf(nestedLists(100)).ok).toBe(true);
  });

  it('rejects nesting one level past the limit at the offending node', () => {
    expect(validateAdf(nestedLists(102))).toEqual({
      ok: false,
      path: pathAtDepth(101),
      message: 'nesting deeper than 100 levels',
    });
  });

  it('rejects 100,000 levels of schema-valid nesting quickly', () => {
    const d = nestedLists(100_000);
    const start = performance.now();
    const result = validateAdf(d);
    expect(performance.now() - start).toBeLessThan(1000);
    expect(result).toEqual({ ok: false, path: pathAtDepth(101), message: 'nesting deeper than 100 levels' });
  });

  it('rejects 100,000 levels of paragraph-in-paragraph at depth 2', () => {
    let node: Node = { type: 'text', text: 'x' };
    for (let i = 0; i < 100_000; i++) node = { type: 'paragraph', content: [node] };
    expect(validateAdf({ type: 'doc', version: 1, content: [node] })).toEqual({
      ok: false,
      path: '$.content[0].content[0]',
      message: '"paragraph" is not allowed inside "paragraph"',
    });
  });

  // How long it takes is measured by bench/adf-validate.mjs, never asserted here (a loaded machine is slower).
  it('accepts 1,000,000 sibling paragraphs', () => {
    const content = Array.from({ length: 1_000_000 }, (_, i) => ({
      type: 'paragraph',
      content: [{ type: 'text', text: `line ${i}` }],
    }));
    const d = { type: 'doc', version: 1, content };
    const result = validateAdf(d);
    expect(result.ok).toBe(true);
  });

  it('finds a bad node at the end of 1,000,000 siblings within a second', () => {
    const ok = { type: 'paragraph' };
    const content: unknown[] = new Array<unknown>(1_000_000).fill(ok);
    content[999_999] = { type: 'listItem', content: [ok] };
    const start = performance.now();
    const result = validateAdf({ type: 'doc', version: 1, content });
    expect(performance.now() - start).toBeLessThan(1000);
    expect(result).toEqual({ ok: false, path: '$.content[999999]', message: '"listItem" is not allowed inside "doc"' });
  });
});
