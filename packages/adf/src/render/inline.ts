import { ADF_LIMITS } from '../types.js';

export type Obj = Record<string, unknown>;

export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
export const attrsOf = (node: Obj): Obj => (isObj(node.attrs) ? node.attrs : {});
export const kidsOf = (node: Obj): unknown[] => (Array.isArray(node.content) ? node.content : []);

/** ANSI styles, or markdown-style markers when colour is off. */
export interface Style {
  readonly color: boolean;
}

const SGR = { bold: [1, 22], italic: [3, 23], strike: [9, 29], underline: [4, 24], cyan: [36, 39], dim: [2, 22] } as const;
export const sgr = (s: Style, name: keyof typeof SGR, text: string): string => (s.color ? `\x1b[${SGR[name][0]}m${text}\x1b[${SGR[name][1]}m` : text);

const markTypes = (node: Obj): Set<string> => new Set((Array.isArray(node.marks) ? node.marks : []).filter(isObj).map((m) => String(m.type)));
const hrefOf = (node: Obj): string | undefined => {
  const link: unknown = (Array.isArray(node.marks) ? (node.marks as unknown[]) : []).find((m) => isObj(m) && m.type === 'link');
  return isObj(link) && isObj(link.attrs) ? str(link.attrs.href) : undefined;
};

/** Text of a node and everything under it, for nodes we do not know. Iterative: depth is unbounded. */
export function plainText(root: unknown): string {
  let out = '';
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (!isObj(node)) continue;
    if (node.type === 'text') out += str(node.text) ?? '';
    else if (node.type === 'hardBreak') out += '\n';
    else if (!Array.isArray(node.content)) out += inlineAtom(node, { color: false });
    stack.push(...kidsOf(node).slice().reverse());
  }
  return out;
}

/** A non-text inline node (mention, emoji, status, date, card…) as readable text. */
function inlineAtom(node: Obj, s: Style): string {
  const a = attrsOf(node);
  switch (node.type) {
    case 'mention': {
      const name = str(a.text) ?? str(a.id) ?? '';
      return name.startsWith('@') ? name : `@${name}`;
    }
    case 'emoji':
      return str(a.text) ?? str(a.shortName) ?? '';
    case 'status':
      return sgr(s, 'bold', `[${(str(a.text) ?? '').toUpperCase()}]`);
    case 'date': {
      const ms = Number(str(a.timestamp) ?? a.timestamp);
      return Number.isFinite(ms) ? new Date(ms).toISOString().slice(0, 10) : '';
    }
    case 'inlineCard':
    case 'blockCard':
    case 'embedCard':
      return str(a.url) ?? '';
    case 'hardBreak':
      return '\n';
    case 'mediaInline':
    case 'media': {
      const alt = str(a.alt);
      return `[attachment${alt ? `: ${alt}` : ''}]`;
    }
    default:
      return str(a.text) ?? '';
  }
}

function styledText(node: Obj, s: Style): string {
  const value = str(node.text) ?? '';
  const marks = markTypes(node);
  if (marks.has('code')) return s.color ? sgr(s, 'cyan', value) : codeSpan(value);
  let out = value;
  if (marks.has('strike')) out = s.color ? sgr(s, 'strike', out) : `~~${out}~~`;
  if (marks.has('em')) out = s.color ? sgr(s, 'italic', out) : `*${out}*`;
  if (marks.has('strong')) out = s.color ? sgr(s, 'bold', out) : `**${out}**`;
  return out;
}

/** Inline code in backticks, with a longer fence when the code itself holds backticks (CommonMark). */
function codeSpan(value: string): string {
  let longest = 0;
  for (const run of value.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(longest + 1);
  const pad = longest > 0 ? ' ' : '';
  return `${fence}${pad}${value}${pad}${fence}`;
}

/**
 * Inline content as one string (hard breaks are "\n"). Neighbouring nodes under one link are
 * printed together, then ` (href)` once, unless the text already is the address.
 */
export function inlineText(nodes: readonly unknown[], s: Style, depth: number): string {
  let out = '';
  let i = 0;
  while (i < nodes.length) {
    const node = nodes[i];
    const href = isObj(node) ? hrefOf(node) : undefined;
    if (href === undefined) {
      out += inlineNode(node, s, depth);
      i++;
      continue;
    }
    let label = '';
    let plain = '';
    while (i < nodes.length && isObj(nodes[i]) && hrefOf(nodes[i] as Obj) === href) {
      label += inlineNode(nodes[i], s, depth);
      plain += str((nodes[i] as Obj).text) ?? '';
      i++;
    }
    const same = plain === href || `mailto:${plain}` === href;
    out += same ? sgr(s, 'underline', label) : `${label} ${sgr(s, 'dim', `(${href})`)}`;
  }
  return out;
}

function inlineNode(node: unknown, s: Style, depth: number): string {
  if (!isObj(node)) return '';
  if (node.type === 'text') return styledText(node, s);
  // Inline nodes with content are not in the schema; show their text without recursing forever.
  if (Array.isArray(node.content)) return depth < ADF_LIMITS.maxDepth ? inlineText(node.content, s, depth + 1) : plainText(node);
  return inlineAtom(node, s);
}
