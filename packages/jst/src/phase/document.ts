import { adfToText, markdownToAdf, MarkdownLimitError, textToAdf, type AdfDoc } from '@jst/adf';
import { JstError } from '../config/index.js';
import type { Io } from '../core/context.js';

/**
 * Text a person wrote → the ADF the tracker stores: literal plain text (spec §2: `##`, `-`, `1.`
 * stay text, one paragraph per non-empty line), or Markdown when they asked for it with
 * `--markdown` (ARCHITECTURE §11). `what` names the input in an error (a file, "standard input").
 */
export function textDocument(text: string, markdown: boolean, what: string): AdfDoc {
  if (!markdown) return textToAdf(text);
  try {
    return markdownToAdf(text);
  } catch (e) {
    if (e instanceof MarkdownLimitError) throw new JstError({ code: 'USAGE', problem: `${what}: ${e.message}` });
    throw e;
  }
}

/** An ADF document (description, comment) as terminal text that keeps its shape; `--json` prints the ADF instead. */
export function documentText(io: Io, doc: unknown): string {
  const columns = (io.stdout as { columns?: number }).columns;
  return adfToText(doc, { width: columns && columns > 0 ? columns : 80, color: io.color });
}
