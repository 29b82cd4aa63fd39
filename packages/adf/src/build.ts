import type {
  AdfBlock,
  AdfBlockquote,
  AdfBulletList,
  AdfCodeBlock,
  AdfDoc,
  AdfHardBreak,
  AdfHeading,
  AdfInline,
  AdfListItem,
  AdfListItemBlock,
  AdfMark,
  AdfMention,
  AdfOrderedList,
  AdfPanel,
  AdfPanelBlock,
  AdfPanelType,
  AdfParagraph,
  AdfRule,
  AdfText,
  HeadingLevel,
} from './types.js';

/** Inline arguments: strings become unmarked text nodes. */
export type InlineArg = string | AdfInline;
/** List item arguments: a string (one paragraph), an array of blocks, or a ready listItem. */
export type ListItemArg = string | AdfListItemBlock[] | AdfListItem;

// Empty strings are dropped because ADF forbids empty text nodes.
function inline(args: InlineArg[]): AdfInline[] {
  const out: AdfInline[] = [];
  for (const a of args) {
    if (typeof a !== 'string') out.push(a);
    else if (a !== '') out.push(text(a));
  }
  return out;
}

function blocks<B>(args: Array<string | B>): Array<AdfParagraph | B> {
  return args.map((a) => (typeof a === 'string' ? paragraph(a) : a));
}

function items(args: ListItemArg[]): AdfListItem[] {
  return args.map((a) => (typeof a === 'string' ? listItem(paragraph(a)) : Array.isArray(a) ? listItem(...a) : a));
}

export function doc(...nodes: AdfBlock[]): AdfDoc {
  return { type: 'doc', version: 1, content: nodes };
}

export function text(str: string, marks?: AdfMark[]): AdfText {
  return marks && marks.length > 0 ? { type: 'text', text: str, marks } : { type: 'text', text: str };
}

export function paragraph(...content: InlineArg[]): AdfParagraph {
  return { type: 'paragraph', content: inline(content) };
}

export function heading(level: HeadingLevel, ...content: InlineArg[]): AdfHeading {
  return { type: 'heading', attrs: { level }, content: inline(content) };
}

export function listItem(...content: Array<string | AdfListItemBlock>): AdfListItem {
  return { type: 'listItem', content: blocks(content) };
}

export function bulletList(...content: ListItemArg[]): AdfBulletList {
  return { type: 'bulletList', content: items(content) };
}

export function orderedList(...content: ListItemArg[]): AdfOrderedList {
  return { type: 'orderedList', content: items(content) };
}

export function codeBlock(code: string, language?: string): AdfCodeBlock {
  const node: AdfCodeBlock = { type: 'codeBlock' };
  if (language !== undefined) node.attrs = { language };
  if (code !== '') node.content = [text(code)];
  return node;
}

export function blockquote(...content: Array<string | AdfListItemBlock>): AdfBlockquote {
  return { type: 'blockquote', content: blocks(content) };
}

export function panel(panelType: AdfPanelType, ...content: Array<string | AdfPanelBlock>): AdfPanel {
  return { type: 'panel', attrs: { panelType }, content: blocks(content) };
}

export function rule(): AdfRule {
  return { type: 'rule' };
}

export function hardBreak(): AdfHardBreak {
  return { type: 'hardBreak' };
}

export function mention(accountId: string, text?: string): AdfMention {
  return { type: 'mention', attrs: text === undefined ? { id: accountId } : { id: accountId, text } };
}

// Marks are factories rather than shared constants so callers can never mutate
// a mark object that other documents also reference.
export const strong = (): AdfMark => ({ type: 'strong' });
export const em = (): AdfMark => ({ type: 'em' });
export const code = (): AdfMark => ({ type: 'code' });
export const strike = (): AdfMark => ({ type: 'strike' });
export const underline = (): AdfMark => ({ type: 'underline' });
export const link = (href: string): AdfMark => ({ type: 'link', attrs: { href } });
