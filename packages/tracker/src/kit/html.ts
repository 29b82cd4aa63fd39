/**
 * The board's one way to write HTML: the `html` template escapes every value it is given, unless
 * the value is itself `Html` built the same way. Every user-written string (summaries, names,
 * comment text, JQL, error messages) reaches a page through `escapeHtml`, here and nowhere else.
 * So do its control characters: C0 (but tab, newline and carriage return), DEL, C1 and the
 * bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069) would reorder or hide what a
 * page shows (a file name that reads `txt.exe` as `exe.txt`); each is shown as a visible `\u202e`
 * marker instead, inside `<span class="ctl" title="control character U+202E">` where the value
 * stands between tags (docs/limits.md).
 */

/** A piece of HTML that is already safe to insert. */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** C0 but tab, newline and carriage return; DEL; C1; the bidirectional overrides and isolates. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const SPECIAL = new RegExp(`[&<>"']|${CONTROL.source}`, 'g');

/** `\u202e`: how a control character is shown, as JSON would write it. */
const marker = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
const codePoint = (c: string): string => `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * Text as HTML: safe between tags and inside a double- or single-quoted attribute value; a control
 * character becomes its visible marker (`\u202e`), wrapped in a titled span when `between` says
 * the text stands between tags (not in an attribute, `<title>` or `<textarea>`).
 */
export function escapeHtml(text: string, between = false): string {
  return text.replace(SPECIAL, (c) => ENTITIES[c] ?? (between ? `<span class="ctl" title="control character ${codePoint(c)}">${marker(c)}</span>` : marker(c)));
}

/** Whether a value put after `before` (a template's HTML so far) stands between tags, where a span may go. */
function betweenTags(before: string): boolean {
  if (before.lastIndexOf('<') > before.lastIndexOf('>')) return false;
  const lower = before.toLowerCase();
  return lower.lastIndexOf('<title') <= lower.lastIndexOf('</title') && lower.lastIndexOf('<textarea') <= lower.lastIndexOf('</textarea');
}

/** A value put into a template: Html as it is, arrays joined, nothing for null/undefined/false, anything else escaped. */
function piece(value: unknown, before: string): string {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map((v) => piece(v, before)).join('');
  if (value === null || value === undefined || value === false) return '';
  // Numbers and strings, as a template literal would print them; the view functions put nothing else here.
  // eslint-disable-next-line @typescript-eslint/no-base-to-string
  const text = String(value);
  return escapeHtml(text, CONTROL.test(text) && betweenTags(before));
}

/** Tagged template: `html\`<p title="${t}">${body}</p>\`` escapes `t` and `body` (unless they are Html). */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += piece(values[i], out) + strings[i + 1]!;
  return new Html(out);
}
