import fc from 'fast-check';
import { jsonMutation, mutate } from './support.js';

/**
 * ADF documents for the hostile properties: random trees over the node and mark types the
 * validator knows (valid or not, the validator is the oracle), chains nested around the
 * 100-level limit and far beyond it, documents thousands of nodes wide, and mutated documents.
 */

const textValue = fc.oneof(
  { weight: 5, arbitrary: fc.string({ minLength: 1, maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 0, maxLength: 20 }) },
  { weight: 1, arbitrary: fc.constantFrom('\u0000', 'a\u0000', '\uD800', '\uDC00x', '👍', '\u202E', '', ' ') },
);

const mark = fc.oneof(
  fc.constantFrom('strong', 'em', 'code', 'strike', 'underline').map((type) => ({ type })),
  fc.record({
    type: fc.constant('link'),
    attrs: fc.oneof(fc.record({ href: fc.webUrl() }), fc.record({ href: fc.webUrl(), title: fc.string() }), fc.constant({})),
  }),
  fc.record({ type: fc.constant('textColor'), attrs: fc.record({ color: fc.oneof(fc.constantFrom('#ff0000', '#00FF00', 'red', '#fff'), fc.string()) }) }),
  fc.record({ type: fc.constant('subsup'), attrs: fc.record({ type: fc.constantFrom('sub', 'sup', 'mid') }) }),
  fc.constantFrom({ type: 'bold' }, {}, 'strong', null),
);

const text = fc.record({ type: fc.constant('text'), text: textValue, marks: fc.array(mark, { maxLength: 3 }) }, { requiredKeys: ['type', 'text'] });
const inline = fc.oneof(
  { weight: 6, arbitrary: text },
  { weight: 1, arbitrary: fc.constant({ type: 'hardBreak' }) },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant('mention'),
      attrs: fc.record({ id: fc.oneof(fc.string(), fc.integer()), text: fc.string() }, { requiredKeys: ['id'] }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('emoji'), attrs: fc.record({ shortName: fc.constantFrom(':smile:', ':+1:') }) }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('inlineCard'), attrs: fc.record({ url: fc.webUrl() }) }) },
  { weight: 1, arbitrary: fc.constantFrom({ type: 'paragraph' }, { type: 'unknownInline' }, { text: 'no type' }, 'text', 42) },
);

const paragraph = fc.record({ type: fc.constant('paragraph'), content: fc.array(inline, { maxLength: 4 }) }, { requiredKeys: ['type'] });
const heading = fc.record({
  type: fc.constant('heading'),
  attrs: fc.record({ level: fc.oneof(fc.integer({ min: 1, max: 6 }), fc.constantFrom(0, 7, '1', 2.5)) }),
  content: fc.array(inline, { maxLength: 3 }),
});
const codeBlock = fc.record(
  {
    type: fc.constant('codeBlock'),
    attrs: fc.record({ language: fc.oneof(fc.constantFrom('ts', 'sql'), fc.integer()) }),
    content: fc.array(text, { maxLength: 2 }),
  },
  { requiredKeys: ['type'] },
);
const rule = fc.constant({ type: 'rule' });

const { block } = fc.letrec<{ block: unknown; list: unknown; listItem: unknown; nestable: unknown; blockquote: unknown; panel: unknown }>((tie) => ({
  block: fc.oneof({ depthSize: 'small', withCrossShrink: true }, paragraph, heading, codeBlock, rule, tie('list'), tie('blockquote'), tie('panel')),
  list: fc.record({ type: fc.constantFrom('bulletList', 'orderedList'), content: fc.array(tie('listItem'), { minLength: 0, maxLength: 3 }) }),
  listItem: fc.record({ type: fc.constant('listItem'), content: fc.array(tie('nestable'), { minLength: 1, maxLength: 3 }) }),
  nestable: fc.oneof({ depthSize: 'small', withCrossShrink: true }, paragraph, codeBlock, tie('list')),
  blockquote: fc.record({ type: fc.constant('blockquote'), content: fc.array(tie('nestable'), { minLength: 1, maxLength: 2 }) }),
  panel: fc.record({
    type: fc.constant('panel'),
    attrs: fc.record({ panelType: fc.constantFrom('info', 'note', 'warning', 'success', 'error', 'danger') }),
    content: fc.array(fc.oneof(paragraph, heading, rule, tie('list')), { minLength: 1, maxLength: 2 }),
  }),
}));

export const randomDoc = fc.record({ type: fc.constant('doc'), version: fc.constant(1), content: fc.array(block, { maxLength: 5 }) });

/**
 * A valid document whose paragraph sits `depth` levels down (its text one more):
 * [blockquote |] bulletList > listItem > … > listItem > paragraph. Only the depth can fault it.
 */
export function chain(depth: number): unknown {
  let node: { type: string; content: unknown[] } = { type: 'paragraph', content: [{ type: 'text', text: `depth ${depth}` }] };
  for (let level = depth - 1; level >= 1; level--) {
    node = { type: (depth - 1 - level) % 2 === 0 ? 'listItem' : 'bulletList', content: [node] };
  }
  // A listItem cannot stand at the top; a blockquote holds the same list.
  if (node.type === 'listItem') node = { type: 'blockquote', content: node.content };
  return { type: 'doc', version: 1, content: [node] };
}

export const deepDoc = fc
  .oneof(fc.integer({ min: 95, max: 105 }), fc.constantFrom(1, 2, 50, 99, 100, 101, 102, 200, 255, 256, 257, 1000, 5000, 50_000))
  .map((depth) => chain(depth));

export const wideDoc = fc
  .tuple(fc.constantFrom(10, 1000, 10_000, 30_000, 60_000, 200_000), fc.constantFrom('texts', 'paragraphs', 'items', 'marks'))
  .map(([n, shape]) => {
    switch (shape) {
      case 'texts':
        return { type: 'doc', version: 1, content: [{ type: 'paragraph', content: Array.from({ length: n }, (_, i) => ({ type: 'text', text: `t${i}` })) }] };
      case 'paragraphs':
        return { type: 'doc', version: 1, content: Array.from({ length: n }, () => ({ type: 'paragraph' })) };
      case 'items':
        return {
          type: 'doc',
          version: 1,
          content: [{ type: 'orderedList', content: Array.from({ length: n }, () => ({ type: 'listItem', content: [{ type: 'paragraph' }] })) }],
        };
      default:
        return {
          type: 'doc',
          version: 1,
          content: [{ type: 'paragraph', content: [{ type: 'text', text: 'many marks', marks: Array.from({ length: n }, () => ({ type: 'strong' })) }] }],
        };
    }
  });

/** Every kind of document the properties send. */
export const anyDoc: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: randomDoc },
  { weight: 2, arbitrary: deepDoc },
  { weight: 1, arbitrary: wideDoc },
  { weight: 3, arbitrary: fc.tuple(randomDoc, fc.array(jsonMutation, { minLength: 1, maxLength: 3 })).map(([d, ms]) => mutate(d, ms)) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<unknown>(
      'plain text',
      null,
      [],
      {},
      { type: 'doc' },
      { type: 'doc', version: 2, content: [] },
      { type: 'doc', version: '1', content: [] },
      { type: 'doc', version: 1, content: {} },
    ),
  },
);
