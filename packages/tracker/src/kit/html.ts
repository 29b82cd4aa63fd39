/**
 * The board's one way to write HTML: the `html` template escapes every value it is given, unless
 * the value is itself `Html` built the same way. Every user-written string (summaries, names,
 * comment text, JQL, error messages) reaches a page through `escapeHtml`, here and nowhere else.
 */

/** A piece of HTML that is already safe to insert. */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML: safe between tags and inside a double- or single-quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/** A value put into a template: Html as it is, arrays joined, nothing for null/undefined/false, anything else escaped. */
function piece(value: unknown): string {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(piece).join('');
  if (value === null || value === undefined || value === false) return '';
  // Numbers and strings, as a template literal would print them; the view functions put nothing else here.
  // eslint-disable-next-line @typescript-eslint/no-base-to-string
  return escapeHtml(String(value));
}

/** Tagged template: `html\`<p title="${t}">${body}</p>\`` escapes `t` and `body` (unless they are Html). */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += piece(values[i]) + strings[i + 1]!;
  return new Html(out);
}
