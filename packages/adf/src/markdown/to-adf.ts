import type * as Md from 'mdast';
import { NODES } from '../schema.js';
import type { AdfDoc, AdfMark, AdfNode } from '../types.js';
import { loadMarkdownParser } from './load.js';
import { MARKDOWN_LIMITS, MarkdownLimitError } from './limits.js';
import { prescanMarkdown } from './prescan.js';

type Block = Md.RootContent;
type Inline = Md.PhrasingContent;

const allowedIn = (container: string): ReadonlySet<string> => NODES.get(container)!.children!;
const text = (value: string, marks: readonly AdfMark[]): AdfNode =>
  marks.length > 0 ? { type: 'text', text: value, marks: marks.map((m) => ({ ...m })) } : { type: 'text', text: value };
const paragraph = (content: AdfNode[]): AdfNode => ({ type: 'paragraph', content });

/**
 * CommonMark (+ GFM tables, strikethrough, autolinks, task items, footnotes) → ADF.
 *
 * Where Markdown allows a block that ADF does not allow in that place, the block degrades to the
 * nearest thing ADF allows, so every result passes `validateAdf` and the vendor's schema:
 * a heading inside a list item or quote becomes a bold paragraph, a quote inside a list item or
 * quote gives its blocks to the container, a rule there becomes a `---` paragraph, and a table
 * there becomes one `a | b` paragraph per row. Images become their alt text (or address) linked to
 * the image's address: ADF media nodes need attachment ids a Markdown file does not have. Raw HTML
 * stays literal text. Task items keep `[ ]` / `[x]` as text. Soft line breaks stay newlines inside
 * the text, as the author wrote them. `0.` lists start at 1 (our validator's lower bound).
 *
 * Throws `MarkdownLimitError` past `MARKDOWN_LIMITS` (input length, nesting, delimiter runs and
 * brackets, lines), checked by a linear pre-scan before the parser runs (prescan.ts); the converter
 * bounds its own recursion too, so no input ends in a stack overflow.
 */
export function markdownToAdf(markdown: string): AdfDoc {
  prescanMarkdown(markdown);
  const root = loadMarkdownParser()(markdown);
  return { type: 'doc', version: 1, content: new Converter(root).blocks(root.children, 'doc', 1) };
}

/**
 * How deep the converter's own calls may go: each ADF level costs it at most a few calls, so this is
 * reached only by a tree `within` would refuse anyway; it turns any deeper tree into a
 * `MarkdownLimitError`, never a stack overflow.
 */
const MAX_CALL_DEPTH = 4 * MARKDOWN_LIMITS.maxDepth;

class Converter {
  private readonly definitions = new Map<string, string>();
  private calls = 0;
  /** Table cells produced so far, short rows filled up to their header's width. */
  private cells = 0;

  constructor(root: Md.Root) {
    // Reference links resolve against definitions anywhere in the document, as CommonMark says.
    const stack: Md.Nodes[] = [root];
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (node.type === 'definition' && !this.definitions.has(node.identifier)) this.definitions.set(node.identifier, node.url);
      if ('children' in node) stack.push(...(node.children as Md.Nodes[]));
    }
  }

  /** Converts `nodes` for a `container`; `depth` is the ADF depth the produced blocks sit at. */
  blocks(nodes: readonly Block[], container: string, depth: number): AdfNode[] {
    within(depth);
    const allowed = allowedIn(container);
    const out: AdfNode[] = [];
    this.enter();
    try {
      for (const node of nodes) out.push(...this.block(node, container, allowed, depth));
    } finally {
      this.calls--;
    }
    return out;
  }

  private enter(): void {
    if (++this.calls > MAX_CALL_DEPTH) throw new MarkdownLimitError('maxDepth', this.calls);
  }

  private block(node: Block, container: string, allowed: ReadonlySet<string>, depth: number): AdfNode[] {
    switch (node.type) {
      case 'paragraph':
        return [paragraph(this.inline(node.children, [], depth + 1))];
      case 'heading': {
        const content = this.inline(node.children, [], depth + 1);
        if (allowed.has('heading')) return [{ type: 'heading', attrs: { level: node.depth }, content }];
        return [paragraph(this.inline(node.children, [{ type: 'strong' }], depth + 1))];
      }
      case 'thematicBreak':
        return [allowed.has('rule') ? { type: 'rule' } : paragraph([text('---', [])])];
      case 'code': {
        within(depth + 1);
        const codeBlock: AdfNode = { type: 'codeBlock' };
        if (node.lang) codeBlock.attrs = { language: node.lang };
        if (node.value !== '') codeBlock.content = [text(node.value, [])];
        return [codeBlock];
      }
      case 'blockquote':
        if (allowed.has('blockquote')) return [{ type: 'blockquote', content: this.nonEmpty(this.blocks(node.children, 'blockquote', depth + 1)) }];
        return this.blocks(node.children, container, depth);
      case 'list':
        return [this.list(node, depth)];
      case 'table':
        return allowed.has('table') ? [this.table(node, depth)] : this.tableAsParagraphs(node, depth);
      case 'html':
        return [paragraph(node.value === '' ? [] : [text(node.value, [])])];
      case 'definition':
        return [];
      case 'footnoteDefinition': {
        const blocks = this.blocks(node.children, container, depth);
        const label = text(`[^${node.label ?? node.identifier}]: `, []);
        if (blocks[0]?.type === 'paragraph') blocks[0].content = mergeText([label, ...blocks[0].content!]);
        else blocks.unshift(paragraph([label]));
        return blocks;
      }
      default:
        // Constructs the extensions above do not produce (yaml, mdx…): keep their text.
        if ('children' in node) return this.blocks(node.children, container, depth);
        return 'value' in node && node.value !== '' ? [paragraph([text(node.value, [])])] : [];
    }
  }

  private list(node: Md.List, depth: number): AdfNode {
    within(depth + 1);
    const items = node.children.map((item): AdfNode => {
      const content = this.nonEmpty(this.blocks(item.children, 'listItem', depth + 2));
      // GFM task items: ADF's taskList needs ids and a different shape, so the box stays text.
      if (typeof item.checked === 'boolean') {
        const box = text(item.checked ? '[x] ' : '[ ] ', []);
        if (content[0]!.type === 'paragraph') content[0]!.content = mergeText([box, ...content[0]!.content!]);
        else content.unshift(paragraph([box]));
      }
      return { type: 'listItem', content };
    });
    if (!node.ordered) return { type: 'bulletList', content: items };
    return { type: 'orderedList', attrs: { order: Math.max(1, node.start ?? 1) }, content: items };
  }

  private table(node: Md.Table, depth: number): AdfNode {
    within(depth + 3);
    const width = node.children[0]?.children.length ?? 0;
    for (const row of node.children) this.cells += Math.max(width, row.children.length);
    if (this.cells > MARKDOWN_LIMITS.maxTableCells) throw new MarkdownLimitError('maxTableCells', this.cells);
    const rows = node.children.map((row, r): AdfNode => {
      const cells = row.children.map((cell) => [paragraph(this.inline(cell.children, [], depth + 4))]);
      while (cells.length < width) cells.push([paragraph([])]);
      return { type: 'tableRow', content: cells.map((content) => ({ type: r === 0 ? 'tableHeader' : 'tableCell', content })) };
    });
    return { type: 'table', content: rows };
  }

  private tableAsParagraphs(node: Md.Table, depth: number): AdfNode[] {
    return node.children.map((row) => {
      const content: AdfNode[] = [];
      row.children.forEach((cell, i) => {
        if (i > 0) content.push(text(' | ', []));
        content.push(...this.inline(cell.children, [], depth + 1));
      });
      return paragraph(mergeText(content));
    });
  }

  /** ADF's listItem and blockquote need at least one block: an empty one gets an empty paragraph. */
  private nonEmpty(blocks: AdfNode[]): AdfNode[] {
    return blocks.length > 0 ? blocks : [paragraph([])];
  }

  inline(nodes: readonly Inline[], marks: readonly AdfMark[], depth: number): AdfNode[] {
    within(depth);
    const out: AdfNode[] = [];
    for (const node of nodes) this.inlineNode(node, marks, depth, out);
    return mergeText(out);
  }

  private inlineNode(node: Inline, marks: readonly AdfMark[], depth: number, out: AdfNode[]): void {
    this.enter();
    try {
      this.inlineOne(node, marks, depth, out);
    } finally {
      this.calls--;
    }
  }

  private inlineOne(node: Inline, marks: readonly AdfMark[], depth: number, out: AdfNode[]): void {
    const nested = (children: readonly Inline[], mark: AdfMark) => {
      // Marks nest in Markdown but are a flat set in ADF: the recursion is bounded like block nesting.
      within(depth + 1);
      const next = marks.some((m) => m.type === mark.type) ? marks : [...marks, mark];
      for (const child of children) this.inlineNode(child, next, depth + 1, out);
    };
    switch (node.type) {
      case 'text':
        if (node.value !== '') out.push(text(node.value, marks));
        return;
      case 'strong':
        return nested(node.children, { type: 'strong' });
      case 'emphasis':
        return nested(node.children, { type: 'em' });
      case 'delete':
        return nested(node.children, { type: 'strike' });
      case 'link':
        return nested(node.children, linkMark(node.url, node.title));
      case 'linkReference': {
        const url = this.definitions.get(node.identifier);
        if (url !== undefined) return nested(node.children, linkMark(url, undefined));
        for (const child of node.children) this.inlineNode(child, marks, depth, out);
        return;
      }
      case 'inlineCode':
        // ADF lets code combine only with a link.
        if (node.value !== '') out.push(text(node.value, [{ type: 'code' }, ...marks.filter((m) => m.type === 'link')]));
        return;
      case 'image':
        return this.image(node.alt, node.url, marks, out);
      case 'imageReference':
        return this.image(node.alt, this.definitions.get(node.identifier) ?? '', marks, out);
      case 'break':
        out.push({ type: 'hardBreak' });
        return;
      case 'html':
        if (node.value !== '') out.push(text(node.value, marks));
        return;
      case 'footnoteReference':
        out.push(text(`[^${node.label ?? node.identifier}]`, marks));
        return;
      default: {
        // Phrasing the extensions above do not produce (mdx…): keep its text.
        const other = node as Md.Nodes;
        if ('children' in other) for (const child of other.children as Inline[]) this.inlineNode(child, marks, depth, out);
        else if ('value' in other && other.value !== '') out.push(text(other.value, marks));
      }
    }
  }

  private image(alt: string | null | undefined, url: string, marks: readonly AdfMark[], out: AdfNode[]): void {
    const label = alt || url;
    if (label === '') return;
    const kept = marks.filter((m) => m.type !== 'link');
    out.push(text(label, url === '' ? kept : [...kept, linkMark(url, undefined)]));
  }
}

function linkMark(href: string, title: string | null | undefined): AdfMark {
  return { type: 'link', attrs: title ? { href, title } : { href } };
}

function within(depth: number): void {
  if (depth > MARKDOWN_LIMITS.maxDepth) throw new MarkdownLimitError('maxDepth', depth);
}

/** Joins neighbouring text nodes that carry the same marks (Markdown escapes and entities split them). */
function mergeText(nodes: AdfNode[]): AdfNode[] {
  const out: AdfNode[] = [];
  for (const node of nodes) {
    const last = out[out.length - 1];
    if (last?.type === 'text' && node.type === 'text' && JSON.stringify(last.marks) === JSON.stringify(node.marks)) {
      last.text = (last.text ?? '') + (node.text ?? '');
    } else out.push(node);
  }
  return out;
}
