/**
 * ARCHITECTURE §11: text taken from the code host or the tracker is shown with its control
 * characters removed, and an error carries at most a few hundred characters of another server's
 * words. These two functions are the only ones that do it: the printers of output.ts (and the
 * error line of program.ts / cli.ts) apply `terminalText` to everything they write in text mode,
 * and every error that quotes a server cuts the quote with `cutText`. Imports nothing, so the
 * code-host client can use it too.
 */

/** At most this many characters of a server's own words in an error message (docs/limits.md). */
export const QUOTE_MAX = 300;
/** At most this many characters in one printed error message, whatever it quotes (docs/limits.md). */
export const ERROR_MAX = 2000;

// C0 but tab and newline, DEL, C1 (U+009B is a one-byte CSI), and the bidirectional overrides and
// isolates that reorder what is shown (U+202A–U+202E, U+2066–U+2069).
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const UNSAFE_ALL = new RegExp(UNSAFE.source, 'g');
/** jst's own colours (output.ts paint, the ADF renderer, the healthcheck): SGR attributes and colours only. */
const COLOUR = /\u001b\[((?:\d{1,2};)*\d{1,2})?m/y;
const COLOUR_CODES = new Set([0, 1, 2, 3, 4, 9, 22, 23, 24, 29, 31, 32, 33, 36, 39]);

/**
 * `text` safe to write to a terminal: every control character removed but newline and tab (an
 * escape sequence loses its ESC and shows as plain text). With `colour` (the output is a colour
 * terminal), the colour sequences jst itself paints are kept; no other sequence is.
 */
export function terminalText(text: string, colour = false): string {
  if (!UNSAFE.test(text)) return text;
  if (!colour) return text.replace(UNSAFE_ALL, '');
  let out = '';
  for (let i = 0; i < text.length;) {
    const ch = text[i]!;
    if (ch === '\u001b') {
      COLOUR.lastIndex = i;
      const m = COLOUR.exec(text);
      if (m && (m[1] ?? '0').split(';').every((n) => COLOUR_CODES.has(Number(n)))) {
        out += m[0];
        i += m[0].length;
        continue;
      }
    }
    if (!UNSAFE.test(ch)) out += ch;
    i++;
  }
  return out;
}

/** `text` cut to `max` characters, saying how many were left out: `… (N more characters)`. */
export function cutText(text: string, max: number = QUOTE_MAX): string {
  if (text.length <= max) return text;
  // Never half a surrogate pair.
  const end = /[\ud800-\udbff]/.test(text[max - 1] ?? '') ? max - 1 : max;
  return `${text.slice(0, end)}… (${text.length - end} more characters)`;
}

/** A server's words quoted in an error: one line, no control characters, at most QUOTE_MAX characters. */
export function quoted(text: string): string {
  return cutText(terminalText(text.replace(/\s*[\r\n]+\s*/g, ' ')).trim());
}
