// The one place that parses Markdown: CommonMark plus GitHub's tables, strikethrough, autolinks,
// task list items and footnotes, through micromark (a maintained, spec-tested tokenizer), never
// through regular expressions. Loaded only on demand (see load.ts): nothing that merely imports
// @jst/adf pays for it.
import type { Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';

export function parseMarkdown(markdown: string): Root {
  return fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
}
