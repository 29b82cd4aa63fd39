import { describe, expect, it } from 'vitest';
import { adfToText, textToAdf } from '../src/index.js';

const doc = (...content: unknown[]) => ({ type: 'doc', version: 1, content });
const t = (text: string, ...marks: unknown[]) => (marks.length ? { type: 'text', text, marks } : { type: 'text', text });
const p = (...content: unknown[]) => ({ type: 'paragraph', content });

describe('adfToText: ADF → terminal text that keeps the shape', () => {
  it('plain-text ADF prints as the lines it came from', () => {
    const text = 'PR target branch: feature/ABC-1-x Worktree: /w/worktree-ABC-1\nsecond line';
    expect(adfToText(textToAdf(text))).toBe(text);
  });
  it('mentions, emoji, status, dates and inline cards degrade to readable text', () => {
    const d = doc(
      p(
        { type: 'mention', attrs: { id: 'acc-1', text: '@Ada' } },
        t(' '),
        { type: 'mention', attrs: { id: 'acc-2' } },
        t(' '),
        { type: 'emoji', attrs: { shortName: ':smile:', text: '😄' } },
        t(' '),
        { type: 'emoji', attrs: { shortName: ':jst:' } },
        t(' '),
        { type: 'status', attrs: { text: 'In review', color: 'blue' } },
        t(' '),
        { type: 'date', attrs: { timestamp: '1700000000000' } },
        t(' '),
        { type: 'inlineCard', attrs: { url: 'https://x.test/ABC-1' } },
      ),
    );
    expect(adfToText(d)).toBe('@Ada @acc-2 😄 :jst: [IN REVIEW] 2023-11-14 https://x.test/ABC-1');
  });
  it('panels print as a labelled quote; expands as a titled, indented block', () => {
    const d = doc(
      { type: 'panel', attrs: { panelType: 'warning' }, content: [p(t('careful'))] },
      { type: 'expand', attrs: { title: 'More' }, content: [p(t('hidden'))] },
    );
    expect(adfToText(d)).toBe('> Warning:\n> careful\n\nMore\n  hidden');
  });
  it('task and decision lists keep their state', () => {
    const d = doc(
      {
        type: 'taskList',
        attrs: { localId: 'l' },
        content: [
          { type: 'taskItem', attrs: { localId: 'a', state: 'DONE' }, content: [t('shipped')] },
          { type: 'taskItem', attrs: { localId: 'b', state: 'TODO' }, content: [t('next')] },
        ],
      },
      {
        type: 'decisionList',
        attrs: { localId: 'd' },
        content: [{ type: 'decisionItem', attrs: { localId: 'e', state: 'DECIDED' }, content: [t('use SQLite')] }],
      },
    );
    expect(adfToText(d)).toBe('- [x] shipped\n- [ ] next\n\n- Decision: use SQLite');
  });
  it('unknown nodes show their text content; junk is skipped, never thrown on', () => {
    const d = doc(
      {
        type: 'layoutSection',
        content: [
          { type: 'layoutColumn', content: [p(t('left'))] },
          { type: 'layoutColumn', content: [p(t('right'))] },
        ],
      },
      { type: 'mystery', content: [t('inline '), t('kids')] },
      null,
      42,
      { type: 'paragraph', content: 'nope' },
    );
    expect(adfToText(d)).toBe('left\n\nright\n\ninline kids\n\n');
    expect(adfToText(null)).toBe('');
    expect(adfToText('text')).toBe('');
  });
  it('tables align their columns; a table wider than the width prints unpadded', () => {
    const row = (type: string, ...cells: string[]) => ({ type: 'tableRow', content: cells.map((c) => ({ type, content: [p(t(c))] })) });
    const d = doc({ type: 'table', content: [row('tableHeader', 'Key', 'Summary'), row('tableCell', 'ABC-1', 'pipe | inside')] });
    expect(adfToText(d)).toBe('| Key   | Summary        |\n| ----- | -------------- |\n| ABC-1 | pipe \\| inside |');
    expect(adfToText(d, { width: 20 })).toBe('| Key | Summary |\n| --- | --- |\n| ABC-1 | pipe \\| inside |');
  });
  it('inline code holding backticks gets a longer fence; marks combine', () => {
    expect(adfToText(doc(p(t('a`b', { type: 'code' }), t(' '), t('x', { type: 'strong' }, { type: 'em' }, { type: 'strike' }))))).toBe('`` a`b `` ***~~x~~***');
  });
  it('color: ANSI styles instead of the markers; off by default', () => {
    const d = doc({ type: 'heading', attrs: { level: 2 }, content: [t('Scope')] }, p(t('b', { type: 'strong' }), t(' '), t('c', { type: 'code' })));
    expect(adfToText(d, { color: true })).toBe('\x1b[1m## Scope\x1b[22m\n\n\x1b[1mb\x1b[22m \x1b[36mc\x1b[39m');
    expect(adfToText(d)).not.toContain('\x1b[');
  });
  it('nesting far past the validator limit prints as plain text without overflowing the stack', () => {
    let node: unknown = p(t('bottom'));
    for (let i = 0; i < 50_000; i++) node = { type: 'bulletList', content: [{ type: 'listItem', content: [node] }] };
    const out = adfToText(doc(node));
    expect(out.trim().endsWith('bottom')).toBe(true);
  });
});
