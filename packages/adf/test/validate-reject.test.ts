import { describe, it, expect } from 'vitest';
import { validateAdf } from '../src/index.js';

const t = (text: string, marks?: unknown[]) => (marks ? { type: 'text', text, marks } : { type: 'text', text });
const p = (...content: unknown[]) => ({ type: 'paragraph', content });
const li = (...content: unknown[]) => ({ type: 'listItem', content });
const docOf = (...content: unknown[]) => ({ type: 'doc', version: 1, content });
const marked = (...marks: unknown[]) => docOf(p(t('x', marks)));

// [name, document, expected path, expected message]
const rejected: Array<[string, unknown, string, string]> = [
  ['plain string', 'hello', '$', 'document must be an object, got a string'],
  ['null', null, '$', 'document must be an object, got null'],
  ['array', [], '$', 'document must be an object, got an array'],
  ['wrong root type', { type: 'paragraph', version: 1, content: [] }, '$', 'root node must have type "doc"'],
  ['version 2', { type: 'doc', version: 2, content: [] }, '$', 'doc "version" must be the number 1'],
  ['version "1"', { type: 'doc', version: '1', content: [] }, '$', 'doc "version" must be the number 1'],
  ['missing content', { type: 'doc', version: 1 }, '$', 'doc needs a "content" array'],
  ['content object', { type: 'doc', version: 1, content: {} }, '$', 'doc needs a "content" array'],
  ['node is a string', docOf(p(), 'text'), '$.content[1]', 'node must be an object, got a string'],
  ['node without type', docOf({ content: [] }), '$.content[0]', 'node needs a string "type"'],
  ['unknown node type', docOf(p(), p(), { type: 'foo' }), '$.content[2]', 'unknown node type "foo"'],
  ['listItem at top level', docOf(li(p())), '$.content[0]', '"listItem" is not allowed inside "doc"'],
  ['text at top level', docOf(t('x')), '$.content[0]', '"text" is not allowed inside "doc"'],
  ['nested doc', docOf(p(docOf())), '$.content[0].content[0]', '"doc" is not allowed inside "paragraph"'],
  ['paragraph in paragraph', docOf(p(t('a'), p())), '$.content[0].content[1]', '"paragraph" is not allowed inside "paragraph"'],
  ['paragraph directly in list', docOf({ type: 'bulletList', content: [p()] }), '$.content[0].content[0]', '"paragraph" is not allowed inside "bulletList"'],
  ['empty bulletList', docOf({ type: 'bulletList', content: [] }), '$.content[0]', 'bulletList needs at least one listItem'],
  ['orderedList without content', docOf({ type: 'orderedList' }), '$.content[0]', 'orderedList needs at least one listItem'],
  [
    'orderedList order 0',
    docOf({ type: 'orderedList', attrs: { order: 0 }, content: [li(p())] }),
    '$.content[0]',
    'orderedList attrs.order must be an integer >= 1',
  ],
  ['empty listItem', docOf({ type: 'bulletList', content: [li()] }), '$.content[0].content[0]', 'listItem needs a non-empty "content" array'],
  [
    'heading in listItem',
    docOf({ type: 'bulletList', content: [li(p(), { type: 'heading', attrs: { level: 1 } })] }),
    '$.content[0].content[0].content[1]',
    '"heading" is not allowed inside "listItem"',
  ],
  ['heading without level', docOf({ type: 'heading', content: [] }), '$.content[0]', 'heading needs attrs.level between 1 and 6'],
  ['heading level 7', docOf({ type: 'heading', attrs: { level: 7 } }), '$.content[0]', 'heading needs attrs.level between 1 and 6'],
  ['heading level 1.5', docOf({ type: 'heading', attrs: { level: 1.5 } }), '$.content[0]', 'heading needs attrs.level between 1 and 6'],
  ['attrs not an object', docOf({ type: 'heading', attrs: [1] }), '$.content[0]', '"attrs" must be an object'],
  ['content not an array', docOf({ type: 'paragraph', content: 'hi' }), '$.content[0]', '"content" must be an array'],
  ['text without text', docOf(p({ type: 'text' })), '$.content[0].content[0]', 'text node needs a non-empty "text" string'],
  ['text empty', docOf(p(t('a'), t(''))), '$.content[0].content[1]', 'text node needs a non-empty "text" string'],
  ['text is a number', docOf(p({ type: 'text', text: 5 })), '$.content[0].content[0]', 'text node needs a non-empty "text" string'],
  ['text with content', docOf(p({ type: 'text', text: 'a', content: [] })), '$.content[0].content[0]', 'text cannot have content'],
  ['rule with content', docOf({ type: 'rule', content: [] }), '$.content[0]', 'rule cannot have content'],
  ['codeBlock language number', docOf({ type: 'codeBlock', attrs: { language: 1 } }), '$.content[0]', 'codeBlock attrs.language must be a string'],
  [
    'codeBlock with hardBreak',
    docOf({ type: 'codeBlock', content: [t('a'), { type: 'hardBreak' }] }),
    '$.content[0].content[1]',
    '"hardBreak" is not allowed inside "codeBlock"',
  ],
  [
    'codeBlock text with marks',
    docOf({ type: 'codeBlock', content: [t('a', [{ type: 'strong' }])] }),
    '$.content[0].content[0].marks[0]',
    'text inside codeBlock cannot have marks',
  ],
  ['blockquote empty', docOf({ type: 'blockquote', content: [] }), '$.content[0]', 'blockquote needs a non-empty "content" array'],
  [
    'blockquote in blockquote',
    docOf({ type: 'blockquote', content: [{ type: 'blockquote', content: [p()] }] }),
    '$.content[0].content[0]',
    '"blockquote" is not allowed inside "blockquote"',
  ],
  [
    'panel bad type',
    docOf({ type: 'panel', attrs: { panelType: 'tip' }, content: [p()] }),
    '$.content[0]',
    'panel needs attrs.panelType of info, note, warning, success or error',
  ],
  [
    'panel in panel',
    docOf({ type: 'panel', attrs: { panelType: 'info' }, content: [{ type: 'panel', attrs: { panelType: 'info' }, content: [p()] }] }),
    '$.content[0].content[0]',
    '"panel" is not allowed inside "panel"',
  ],
  ['mention without id', docOf(p({ type: 'mention', attrs: { text: '@x' } })), '$.content[0].content[0]', 'mention needs a string attrs.id'],
  ['mention text number', docOf(p({ type: 'mention', attrs: { id: 'a', text: 1 } })), '$.content[0].content[0]', 'mention attrs.text must be a string'],
  ['emoji without shortName', docOf(p({ type: 'emoji', attrs: {} })), '$.content[0].content[0]', 'emoji needs a string attrs.shortName'],
  ['inlineCard without url', docOf(p({ type: 'inlineCard' })), '$.content[0].content[0]', 'inlineCard needs a string attrs.url'],
  ['marks on paragraph', docOf({ type: 'paragraph', marks: [], content: [] }), '$.content[0]', 'marks are only allowed on text nodes'],
  ['marks not an array', docOf(p({ type: 'text', text: 'a', marks: { type: 'em' } })), '$.content[0].content[0]', '"marks" must be an array'],
  ['mark not an object', marked('strong'), '$.content[0].content[0].marks[0]', 'mark must be an object, got a string'],
  ['mark without type', marked({ type: 'em' }, {}), '$.content[0].content[0].marks[1]', 'mark needs a string "type"'],
  ['unknown mark', marked({ type: 'em' }, { type: 'bold' }), '$.content[0].content[0].marks[1]', 'unknown mark type "bold"'],
  ['duplicate mark', marked({ type: 'strong' }, { type: 'em' }, { type: 'strong' }), '$.content[0].content[0].marks[2]', 'duplicate mark "strong"'],
  ['link without href', marked({ type: 'link', attrs: {} }), '$.content[0].content[0].marks[0]', 'link mark needs a string attrs.href'],
  ['link without attrs', marked({ type: 'link' }), '$.content[0].content[0].marks[0]', 'link mark needs a string attrs.href'],
  ['mark attrs not object', marked({ type: 'link', attrs: 'x' }), '$.content[0].content[0].marks[0]', '"attrs" must be an object'],
  [
    'textColor bad color',
    marked({ type: 'textColor', attrs: { color: 'red' } }),
    '$.content[0].content[0].marks[0]',
    'textColor mark needs attrs.color like "#rrggbb"',
  ],
  ['subsup bad type', marked({ type: 'subsup', attrs: { type: 'super' } }), '$.content[0].content[0].marks[0]', 'subsup mark needs attrs.type "sub" or "sup"'],
  ['code after strong', marked({ type: 'strong' }, { type: 'code' }), '$.content[0].content[0].marks[1]', '"code" mark can only be combined with "link"'],
  [
    'em after code',
    marked({ type: 'link', attrs: { href: '/' } }, { type: 'code' }, { type: 'em' }),
    '$.content[0].content[0].marks[2]',
    '"code" mark can only be combined with "link"',
  ],
  [
    'first fault wins, in document order',
    docOf(p(t('ok')), { type: 'bulletList', content: [li(p(t('a', [{ type: 'nope' }])))] }, { type: 'foo' }),
    '$.content[1].content[0].content[0].content[0].marks[0]',
    'unknown mark type "nope"',
  ],
];

describe('validateAdf rejects', () => {
  it.each(rejected)('%s', (_name, value, path, message) => {
    expect(validateAdf(value)).toEqual({ ok: false, path, message });
  });
});
