import { describe, it, expect } from 'vitest';
import { validateAdf } from '../src/index.js';

const t = (text: string, marks?: unknown[]) => (marks ? { type: 'text', text, marks } : { type: 'text', text });
const p = (...content: unknown[]) => ({ type: 'paragraph', content });
const li = (...content: unknown[]) => ({ type: 'listItem', content });
const docOf = (...content: unknown[]) => ({ type: 'doc', version: 1, content });

const accepted: Array<[string, unknown]> = [
  ['empty doc', docOf()],
  ['paragraph without content', docOf({ type: 'paragraph' })],
  ['paragraph with empty content', docOf(p())],
  ['unknown attrs are tolerated', docOf({ type: 'paragraph', attrs: { localId: 'x' }, content: [t('a')] })],
  ['heading levels 1-6', docOf(...[1, 2, 3, 4, 5, 6].map((level) => ({ type: 'heading', attrs: { level }, content: [t('h')] })))],
  ['heading without content', docOf({ type: 'heading', attrs: { level: 1 } })],
  ['bulletList', docOf({ type: 'bulletList', content: [li(p(t('a')))] })],
  ['orderedList with order', docOf({ type: 'orderedList', attrs: { order: 3 }, content: [li(p(t('a')))] })],
  ['orderedList without attrs', docOf({ type: 'orderedList', content: [li(p())] })],
  [
    'nested lists and codeBlock in listItem',
    docOf({
      type: 'bulletList',
      content: [li(p(t('a')), { type: 'orderedList', content: [li({ type: 'codeBlock', content: [t('x')] })] })],
    }),
  ],
  ['codeBlock with language', docOf({ type: 'codeBlock', attrs: { language: 'ts' }, content: [t('x'), t('y')] })],
  ['codeBlock empty', docOf({ type: 'codeBlock' })],
  ['codeBlock text with empty marks', docOf({ type: 'codeBlock', content: [t('x', [])] })],
  [
    'blockquote',
    docOf({
      type: 'blockquote',
      content: [p(t('q')), { type: 'bulletList', content: [li(p())] }, { type: 'codeBlock' }],
    }),
  ],
  ['rule', docOf({ type: 'rule' })],
  ...['info', 'note', 'warning', 'success', 'error'].map((panelType): [string, unknown] => [
    `panel ${panelType}`,
    docOf({ type: 'panel', attrs: { panelType }, content: [{ type: 'heading', attrs: { level: 2 } }, p(t('x')), { type: 'rule' }] }),
  ]),
  ['hardBreak', docOf(p(t('a'), { type: 'hardBreak' }, t('b')))],
  ['mention with and without text', docOf(p({ type: 'mention', attrs: { id: 'u1' } }, { type: 'mention', attrs: { id: 'u2', text: '@B' } }))],
  ['emoji', docOf(p({ type: 'emoji', attrs: { shortName: ':smile:' } }))],
  ['inlineCard', docOf(p({ type: 'inlineCard', attrs: { url: 'https://x' } }))],
  ['all simple marks', docOf(p(t('a', [{ type: 'strong' }, { type: 'em' }, { type: 'strike' }, { type: 'underline' }])))],
  ['link mark', docOf(p(t('a', [{ type: 'link', attrs: { href: 'https://x', title: 'X' } }])))],
  ['code + link marks', docOf(p(t('a', [{ type: 'link', attrs: { href: '/' } }, { type: 'code' }])))],
  ['textColor mark', docOf(p(t('a', [{ type: 'textColor', attrs: { color: '#A0b1C2' } }])))],
  ['subsup marks', docOf(p(t('a', [{ type: 'subsup', attrs: { type: 'sub' } }]), t('b', [{ type: 'subsup', attrs: { type: 'sup' } }])))],
  ['text with Unicode', docOf(p(t('日本語 👋🏽')))],
];

describe('validateAdf accepts', () => {
  it.each(accepted)('%s', (_name, value) => {
    const result = validateAdf(value);
    expect(result).toEqual({ ok: true, doc: value });
    // The input itself is returned, not a copy.
    if (result.ok) expect(result.doc).toBe(value);
  });
});
