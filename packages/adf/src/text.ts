import type { AdfDoc, AdfNode } from './types.js';

/**
 * Plain text → ADF, one paragraph per non-blank line. Markdown is left literal
 * on purpose: callers pass user text that must round-trip exactly.
 */
export function textToAdf(text: string): AdfDoc {
  const content: AdfNode[] = [];
  for (const line of text.split(/\r\n|\n|\r/)) {
    // Whitespace-only lines would become text nodes Jira renders as nothing.
    if (/^\s*$/.test(line)) continue;
    content.push({ type: 'paragraph', content: [{ type: 'text', text: line }] });
  }
  return { type: 'doc', version: 1, content };
}
