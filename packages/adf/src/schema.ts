// Subset of Jira Cloud's ADF JSON schema that this project accepts. Tables
// rather than code so the rules can be read (and extended) at a glance.

type Attrs = Record<string, unknown> | undefined;
/** Returns a message when the attrs are invalid. */
export type AttrCheck = (attrs: Attrs) => string | undefined;

export interface NodeSpec {
  /** Child types allowed in `content`; absent for leaf nodes, which may not have content. */
  readonly children?: ReadonlySet<string>;
  /** Message used when `content` is missing or empty but the schema needs at least one child. */
  readonly needsContent?: string;
  readonly attrs?: AttrCheck;
}

export interface MarkSpec {
  /** Bit used to detect repeats and combinations without allocating a Set per node. */
  readonly bit: number;
  readonly attrs?: AttrCheck;
}

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
const optString = (v: unknown) => v === undefined || typeof v === 'string';

const INLINE = new Set(['text', 'hardBreak', 'mention', 'emoji', 'inlineCard']);
const NESTABLE = new Set(['paragraph', 'bulletList', 'orderedList', 'codeBlock']);
const LIST_ITEMS = new Set(['listItem']);
const PANEL_CHILDREN = new Set([...NESTABLE, 'heading', 'rule']);

export const DOC_CHILDREN: ReadonlySet<string> = new Set([...PANEL_CHILDREN, 'blockquote', 'panel', 'table']);
// The vendor's table_cell_content, less the media, card, task and extension nodes we do not support.
const CELL_CHILDREN = new Set([...PANEL_CHILDREN, 'blockquote', 'panel']);
const ROW_CHILDREN = new Set(['tableCell', 'tableHeader']);
const CELL: NodeSpec = { children: CELL_CHILDREN, needsContent: 'table cells need a non-empty "content" array' };

const PANEL_TYPES = new Set(['info', 'note', 'warning', 'success', 'error']);

export const NODES: ReadonlyMap<string, NodeSpec> = new Map<string, NodeSpec>([
  // `doc` is only valid as the root; listing it makes a nested doc report as misplaced, not unknown.
  ['doc', { children: DOC_CHILDREN }],
  ['paragraph', { children: INLINE }],
  [
    'heading',
    {
      children: INLINE,
      attrs: (a) => {
        const l = a?.level;
        return isInt(l) && l >= 1 && l <= 6 ? undefined : 'heading needs attrs.level between 1 and 6';
      },
    },
  ],
  ['bulletList', { children: LIST_ITEMS, needsContent: 'bulletList needs at least one listItem' }],
  [
    'orderedList',
    {
      children: LIST_ITEMS,
      needsContent: 'orderedList needs at least one listItem',
      attrs: (a) => {
        const o = a?.order;
        return o === undefined || (isInt(o) && o >= 1) ? undefined : 'orderedList attrs.order must be an integer >= 1';
      },
    },
  ],
  ['listItem', { children: NESTABLE, needsContent: 'listItem needs a non-empty "content" array' }],
  [
    'codeBlock',
    {
      children: new Set(['text']),
      attrs: (a) => (optString(a?.language) ? undefined : 'codeBlock attrs.language must be a string'),
    },
  ],
  ['blockquote', { children: NESTABLE, needsContent: 'blockquote needs a non-empty "content" array' }],
  [
    'panel',
    {
      children: PANEL_CHILDREN,
      needsContent: 'panel needs a non-empty "content" array',
      attrs: (a) => (PANEL_TYPES.has(a?.panelType as string) ? undefined : 'panel needs attrs.panelType of info, note, warning, success or error'),
    },
  ],
  ['table', { children: new Set(['tableRow']), needsContent: 'table needs at least one tableRow' }],
  ['tableRow', { children: ROW_CHILDREN }],
  ['tableHeader', CELL],
  ['tableCell', CELL],
  ['rule', {}],
  ['text', {}],
  ['hardBreak', {}],
  [
    'mention',
    {
      attrs: (a) => (typeof a?.id !== 'string' ? 'mention needs a string attrs.id' : optString(a.text) ? undefined : 'mention attrs.text must be a string'),
    },
  ],
  ['emoji', { attrs: (a) => (typeof a?.shortName === 'string' ? undefined : 'emoji needs a string attrs.shortName') }],
  ['inlineCard', { attrs: (a) => (typeof a?.url === 'string' ? undefined : 'inlineCard needs a string attrs.url') }],
]);

const COLOR = /^#[0-9a-fA-F]{6}$/;

export const MARKS: ReadonlyMap<string, MarkSpec> = new Map<string, MarkSpec>([
  ['strong', { bit: 1 }],
  ['em', { bit: 2 }],
  ['code', { bit: 4 }],
  ['strike', { bit: 8 }],
  ['underline', { bit: 16 }],
  [
    'link',
    {
      bit: 32,
      attrs: (a) =>
        typeof a?.href !== 'string' ? 'link mark needs a string attrs.href' : optString(a.title) ? undefined : 'link mark attrs.title must be a string',
    },
  ],
  [
    'textColor',
    {
      bit: 64,
      attrs: (a) => (typeof a?.color === 'string' && COLOR.test(a.color) ? undefined : 'textColor mark needs attrs.color like "#rrggbb"'),
    },
  ],
  [
    'subsup',
    {
      bit: 128,
      attrs: (a) => (a?.type === 'sub' || a?.type === 'sup' ? undefined : 'subsup mark needs attrs.type "sub" or "sup"'),
    },
  ],
]);

export const CODE_BIT = 4;
export const LINK_BIT = 32;
