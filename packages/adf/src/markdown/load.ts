import { createRequire } from 'node:module';
import type { parseMarkdown } from './parser.js';

export type ParseMarkdown = typeof parseMarkdown;

let parser: ParseMarkdown | undefined;

/**
 * The Markdown parser, loaded on the first call: `markdownToAdf` stays synchronous while the server
 * and every command that never converts Markdown skip loading micromark. The package refers to its
 * own `./markdown-parser` export so the same call works from the built package and from the
 * TypeScript sources the tests run. jst's bundler swaps this module for its own sibling bundle
 * (packages/jst/build.mjs).
 */
export function loadMarkdownParser(): ParseMarkdown {
  if (parser) return parser;
  try {
    const mod = createRequire(import.meta.url)('@jst/adf/markdown-parser') as { parseMarkdown: ParseMarkdown };
    parser = mod.parseMarkdown;
  } catch (e) {
    if ((e as { code?: string }).code === 'ERR_REQUIRE_ESM') {
      throw new Error(`Converting Markdown needs Node.js 20.19 or newer (this is ${process.version}); upgrade Node.js, or pass plain text without --markdown`, {
        cause: e,
      });
    }
    throw e;
  }
  return parser;
}
