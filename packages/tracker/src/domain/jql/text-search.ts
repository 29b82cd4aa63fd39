import type { Filter, TextColumn } from '../../store/search.js';

/**
 * `~` on text fields: every word of the value must occur in the field, case-insensitively, as a
 * substring (so "pars" finds "parser"); Jira's wildcards `*` and `?` are accepted and dropped.
 * Words are runs of letters and digits.
 */
export function wordsOf(value: string): string[] {
  return value.split(/[^\p{L}\p{N}]+/u).filter((w) => w !== '');
}

const NODE_TYPES = [
  'doc',
  'paragraph',
  'heading',
  'bulletList',
  'orderedList',
  'listItem',
  'codeBlock',
  'blockquote',
  'panel',
  'rule',
  'text',
  'hardBreak',
  'mention',
  'emoji',
  'inlineCard',
  // marks, and subsup's own attrs.type
  'strong',
  'em',
  'code',
  'strike',
  'underline',
  'link',
  'textColor',
  'subsup',
  'sub',
  'sup',
];
const KEYS = ['content', 'text', 'attrs', 'marks', 'level', 'order', 'language', 'panelType', 'id', 'shortName', 'url', 'href', 'title', 'color', 'localId'];

/**
 * Descriptions are stored as ADF JSON. Before matching, the store cuts the document's structure
 * out of that text (`"type":"paragraph"`, `"content":` …) so a search for "text" or "content"
 * matches what people wrote, not the format around it. Quotes inside written text are escaped
 * in JSON (`\"`), so these fragments never cut into it. Type pairs go first: a text node whose
 * text is "text" keeps its value when `"text":` is cut.
 */
export const ADF_STRUCTURE: readonly string[] = [...NODE_TYPES.map((t) => `"type":"${t}"`), '"version":1', ...KEYS.map((k) => `"${k}":`)];

/** One word in one column; the description is matched on its text only. */
export function containsWord(column: TextColumn, word: string): Filter {
  return { kind: 'contains', column, word, ignore: column === 'description' ? ADF_STRUCTURE : [] };
}
