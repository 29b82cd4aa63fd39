import { ADF_LIMITS } from '../types.js';
import { attrsOf, inlineText, isObj, kidsOf, plainText, sgr, str, type Obj, type Style } from './inline.js';
import { table } from './table.js';

export interface TextOptions {
  /** Columns available; a table wider than this is printed unpadded. Default 80. */
  width?: number;
  /** ANSI styles instead of Markdown markers for bold, italic, strike and code. Default false. */
  color?: boolean;
}

interface Ctx extends Style {
  readonly width: number;
}

/**
 * ADF → terminal text that keeps the document's shape, written like the Markdown it could have come
 * from: `#` headings, `-` / `1.` lists indented by nesting, fenced code with its language, `> `
 * quotes, `---` rules, aligned tables, `**bold**` `*italic*` `~~strike~~` and `` `code` ``, links as
 * `text (href)`. Neighbouring paragraphs print on neighbouring lines, so plain text made by
 * `textToAdf` prints as the lines it came from; other blocks get a blank line around them.
 * Mentions, emoji, status, dates, cards and panels degrade to readable text; unknown nodes show
 * their text. Takes a doc, one node or an array of nodes. Never throws; nesting past the
 * validator's limit prints as plain text.
 */
export function adfToText(doc: unknown, options: TextOptions = {}): string {
  const ctx: Ctx = { width: options.width ?? 80, color: options.color ?? false };
  const top = Array.isArray(doc) ? doc : isObj(doc) && doc.type === 'doc' ? kidsOf(doc) : [doc];
  return blocks(top, ctx, 1, false).join('\n');
}

/** Lines of a sequence of blocks; `tight` (inside list items) puts no blank line between them. */
export function blocks(nodes: readonly unknown[], ctx: Ctx, depth: number, tight: boolean): string[] {
  const out: string[] = [];
  let previous: string | undefined;
  for (const node of nodes) {
    if (!isObj(node)) continue;
    const lines = depth > ADF_LIMITS.maxDepth ? plainText(node).split('\n') : block(node, ctx, depth);
    const type = String(node.type);
    if (previous !== undefined && !tight && !(previous === 'paragraph' && type === 'paragraph')) out.push('');
    out.push(...lines);
    previous = type;
  }
  return out;
}

const prefix = (lines: string[], first: string, rest: string): string[] => lines.map((l, i) => (i === 0 ? first + l : l === '' ? '' : rest + l));

const quote = (lines: string[]): string[] => lines.map((l) => (l === '' ? '>' : `> ${l}`));

const PANEL_LABEL: Record<string, string> = {
  info: 'Info',
  note: 'Note',
  tip: 'Tip',
  warning: 'Warning',
  error: 'Error',
  success: 'Success',
};

function block(node: Obj, ctx: Ctx, depth: number): string[] {
  const kids = kidsOf(node);
  const a = attrsOf(node);
  const inner = (tight = false) => blocks(kids, ctx, depth + 1, tight);
  switch (node.type) {
    case 'paragraph':
      return inlineText(kids, ctx, depth + 1).split('\n');
    case 'heading': {
      const level = Math.min(6, Math.max(1, Number(a.level) || 1));
      return [sgr(ctx, 'bold', `${'#'.repeat(level)} ${inlineText(kids, ctx, depth + 1).replace(/\n/g, ' ')}`)];
    }
    case 'bulletList':
      return kids.flatMap((item) => prefix(listItem(item, ctx, depth + 1), '- ', '  '));
    case 'orderedList': {
      const start = Number.isInteger(a.order) ? (a.order as number) : 1;
      return kids.flatMap((item, i) => {
        const marker = `${start + i}. `;
        return prefix(listItem(item, ctx, depth + 1), marker, ' '.repeat(marker.length));
      });
    }
    case 'taskList':
    case 'decisionList':
      return kids.flatMap((item) => prefix(listItem(item, ctx, depth + 1), '- ', '  '));
    case 'codeBlock': {
      const code = kids.map((k) => (isObj(k) ? (str(k.text) ?? '') : '')).join('');
      const longest = Math.max(0, ...(code.match(/`{3,}/g) ?? []).map((r) => r.length));
      const fence = '`'.repeat(Math.max(3, longest + 1));
      return [`${fence}${str(a.language) ?? ''}`, ...(code === '' ? [] : code.split('\n')), fence];
    }
    case 'blockquote':
      return quote(inner());
    case 'rule':
      return ['---'];
    case 'table':
      return table(kids, ctx, depth, (cell, d) => blocks(kidsOf(cell), ctx, d, true));
    case 'panel':
      return quote([sgr(ctx, 'bold', `${PANEL_LABEL[str(a.panelType) ?? ''] ?? 'Note'}:`), ...inner()]);
    case 'expand':
    case 'nestedExpand':
      return [sgr(ctx, 'bold', str(a.title) || 'Details'), ...prefix(inner(), '  ', '  ')];
    case 'mediaSingle':
    case 'mediaGroup':
      return kids.map((k) => inlineText([k], ctx, depth + 1));
    default:
      // Unknown blocks: inline children print as a paragraph, block children as blocks, leaves as their text.
      if (kids.length > 0) return isInlineRun(kids) ? inlineText(kids, ctx, depth + 1).split('\n') : inner();
      return inlineText([node], ctx, depth).split('\n');
  }
}

/** A list item's lines, before its marker is added; task and decision items carry their state. */
function listItem(item: unknown, ctx: Ctx, depth: number): string[] {
  if (!isObj(item)) return [''];
  const kids = kidsOf(item);
  const lines = isInlineRun(kids) ? inlineText(kids, ctx, depth + 1).split('\n') : blocks(kids, ctx, depth + 1, true);
  const state = str(attrsOf(item).state);
  if (item.type === 'taskItem' || item.type === 'blockTaskItem') return prefix(lines.length ? lines : [''], state === 'DONE' ? '[x] ' : '[ ] ', '    ');
  if (item.type === 'decisionItem') return prefix(lines.length ? lines : [''], 'Decision: ', '  ');
  return lines.length > 0 ? lines : [''];
}

const INLINE = new Set(['text', 'hardBreak', 'mention', 'emoji', 'inlineCard', 'date', 'status', 'mediaInline', 'placeholder', 'inlineExtension']);
const isInlineRun = (kids: readonly unknown[]): boolean => kids.length > 0 && kids.every((k) => isObj(k) && INLINE.has(String(k.type)));
