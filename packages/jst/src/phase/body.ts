import { readFileArg } from '../commands/input.js';
import { usage } from './locate.js';

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
