import { readFileArg } from './input.js';
import { usage } from '../core/errors.js';
import type { WrittenBody } from './markers.js';

/** How a PR or review body is given: a file, or the text itself (`jst mcp`), read as Markdown on request. */
export interface BodyOptions {
  bodyFile?: string | undefined;
  /** The body itself (`jst mcp`'s tools), instead of --body-file. */
  body?: string | undefined;
  markdown?: boolean | undefined;
  json?: boolean | undefined;
}

/** The text of a note, PR body or review body: the words given, or `--body-file F` (not both). */
export function bodyText(o: { words?: string[] | undefined; bodyFile?: string | undefined }, what: string): string | null {
  const words = (o.words ?? []).join(' ').trim();
  if (words && o.bodyFile) throw usage('USAGE', `give the ${what} one way only: as words or with --body-file, not both`);
  if (o.bodyFile) {
    const text = readFileArg(o.bodyFile, what).replace(/\s+$/, '');
    if (!text.trim()) throw usage('USAGE', `${o.bodyFile} is empty, so there is no ${what} to post`, 'Write the text into the file, then rerun');
    return text;
  }
  return words || null;
}

/** The text as a comment body part: `--markdown` reads it as CommonMark; `what` names it in an error. */
export function writtenBody(text: string | null, markdown: boolean | undefined, what: string): WrittenBody | null {
  return text === null ? null : { text, markdown: Boolean(markdown), what };
}
