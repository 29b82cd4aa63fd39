/**
 * ARCHITECTURE §11: text taken from the code host or the tracker is shown with its control
 * characters removed, and an error carries at most a few hundred characters of another server's
 * words. These functions are the only ones that do it: the printers of output.ts (and the
 * error line of program.ts / cli.ts) apply `terminalText` to everything they write in text mode,
 * every error that quotes a server cuts the quote with `cutText`, and jst's own colours are marks
 * (`colourMark`) that only `terminalText` turns into escape sequences. Imports nothing, so the
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
/** A colour sequence (SGR attributes and colours only) as jst's renderers write it. */
const COLOUR = /\u001b\[((?:\d{1,2};)*\d{1,2})?m/g;
const COLOUR_CODES = new Set([0, 1, 2, 3, 4, 9, 22, 23, 24, 29, 31, 32, 33, 36, 39]);

/**
 * jst's own colours travel in its text as a mark no server can write: eight private-use characters
 * drawn at random on first use, the SGR parameters, `m`. `terminalText` turns each mark
 * into its escape sequence on a colour terminal (and drops it elsewhere) only after it has removed
 * every control character, so an ESC or a C1 CSI from the tracker or the code host never reaches
 * the terminal, not even as a colour (docs/limits.md).
 */
let mark: { text: string; all: RegExp } | null = null;
/**
 * Drawn on the first colour mark (webcrypto costs a few milliseconds to load, which `jst raw` and
 * every other run that paints nothing should not pay); until then no text can carry one.
 */
function theMark(): { text: string; all: RegExp } {
  if (mark === null) {
    const text = String.fromCharCode(...globalThis.crypto.getRandomValues(new Uint16Array(8)).map((n) => 0xe000 + (n % 0x1900)));
    mark = { text, all: new RegExp(`${text}([0-9;]{0,12})m`, 'g') };
  }
  return mark;
}

/** jst's colour sequence `ESC [ code m`, marked as jst's (see theMark): what output.ts paint and the healthcheck use. */
export function colourMark(code: string): string {
  return `${theMark().text}${code}m`;
}

/**
 * Text a jst renderer wrote with real colour sequences (the ADF renderer) from input that
 * `withoutControls` already cleaned: its colour sequences (SGR attributes and colours only) become
 * jst's marks, anything else is left for `terminalText` to remove.
 */
export function ownColours(text: string): string {
  return text.replace(COLOUR, (seq, codes: string | undefined) =>
    (codes ?? '0').split(';').every((n) => COLOUR_CODES.has(Number(n))) ? colourMark(codes ?? '') : seq,
  );
}

/** A value from a server (an ADF document) with the control characters removed from every string in it. */
export function withoutControls(value: unknown): unknown {
  // A JSON round trip: as deep as the JSON.parse that read it, no recursion of ours.
  const json = JSON.stringify(value) as string | undefined;
  return json === undefined ? value : (JSON.parse(json, (_k, v: unknown) => (typeof v === 'string' ? v.replace(UNSAFE_ALL, '') : v)) as unknown);
}

/**
 * `text` safe to write to a terminal: every control character removed but newline and tab (an
 * escape sequence loses its ESC and shows as plain text), whether or not the output is a colour
 * terminal. With `colour`, jst's own colour marks (`colourMark`) become their escape sequences;
 * without, they are dropped.
 */
export function terminalText(text: string, colour = false): string {
  if (!UNSAFE.test(text) && (mark === null || !text.includes(mark.text))) return text;
  const cleaned = text.replace(UNSAFE_ALL, '');
  return mark === null ? cleaned : cleaned.replace(mark.all, (_, code: string) => (colour ? `\u001b[${code}m` : ''));
}

// What JSON.stringify leaves raw but a terminal or a viewer would act on: DEL, C1, the bidirectional controls.
const JSON_RAW = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * `value` as JSON (two-space indent, as `--json` prints it) with every control character escaped:
 * JSON.stringify escapes C0 itself; DEL, C1 (U+009B is a CSI) and the bidirectional controls become
 * `\u009b`-style escapes too. They can only stand inside strings, so the result parses back to `value`.
 */
export function jsonText(value: unknown, indent: number | undefined = 2): string {
  return ((JSON.stringify(value, null, indent) as string | undefined) ?? 'null').replace(
    JSON_RAW,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
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
