import { validateAdf, type AdfDoc } from '@jst/adf';
import { ApiError, fieldError } from './errors.js';
import { TEXT_FIELD_MAX, TEXT_TOO_LONG } from './limits.js';

export const ISSUE_TYPES = [
  { id: '10001', name: 'Task', subtask: false, hierarchyLevel: 0, description: 'A small, distinct piece of work.' },
  { id: '10002', name: 'Subtask', subtask: true, hierarchyLevel: -1, description: 'A small piece of work that is part of a larger task.' },
] as const;
export type IssueType = (typeof ISSUE_TYPES)[number];

const SUMMARY_MAX = 255;

type Obj = Record<string, unknown>;
export const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A reference to another entity in Jira's `{key}` / `{id}` / `{accountId}` / `{name}` forms. */
export function refOf(value: unknown, field: string, props: string[]): Record<string, string> {
  if (!isObject(value)) throw fieldError(field, `Field '${field}' must be an object with ${props.map((p) => `"${p}"`).join(' or ')}.`);
  const out: Record<string, string> = {};
  for (const p of props) {
    const v = value[p];
    if (typeof v === 'string' || typeof v === 'number') out[p] = String(v);
  }
  if (Object.keys(out).length === 0) throw fieldError(field, `Field '${field}' needs ${props.map((p) => `"${p}"`).join(' or ')}.`);
  return out;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function summaryOf(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw fieldError('summary', 'You must specify a summary of the issue.');
  if (/[\r\n]/.test(value)) throw fieldError('summary', 'The summary is invalid because it contains newline characters.');
  if (value.length > SUMMARY_MAX) throw fieldError('summary', `Summary must be less than ${SUMMARY_MAX} characters.`);
  // A lone UTF-16 surrogate (a client that cut an emoji in half) has no UTF-8 form: SQLite would
  // keep three U+FFFD for it and PostgreSQL one. Store one U+FFFD on both, as for invalid UTF-8 bytes.
  return value.replace(LONE_SURROGATE, '\uFFFD');
}

/** The hosted service's text for a rich-text field whose value is not an ADF document. */
export const ADF_INVALID = 'The field value is not valid Atlassian Document Format (ADF) content.';

/** spec §2 / §7: rich text must be ADF; a plain string (or any invalid document) is a 400 on that field. */
export function adfOf(value: unknown, field: string): AdfDoc {
  const result = validateAdf(value);
  if (!result.ok) {
    const why = typeof value === 'string' ? 'a plain string was sent' : `${result.message} at ${result.path}`;
    // Opens with the hosted service's sentence, word for word (clients show it), then says what
    // exactly was wrong and what to send instead.
    throw fieldError(
      field,
      `${ADF_INVALID} The value of '${field}' is not valid ADF: ${why}. Send a document like {"type":"doc","version":1,"content":[{"type":"paragraph","content":[{"type":"text","text":"…"}]}]}.`,
    );
  }
  return result.doc;
}

/**
 * A rich-text field (description, comment body) as it is stored: valid ADF (`adfOf`) whose JSON
 * is at most TEXT_FIELD_MAX characters, else 400 with the vendor's message on the field.
 */
export function richTextOf(value: unknown, field: string): string {
  const text = JSON.stringify(adfOf(value, field));
  if (text.length > TEXT_FIELD_MAX) throw fieldError(field, TEXT_TOO_LONG);
  return text;
}

export function issueTypeOf(value: unknown): IssueType {
  const ref = refOf(value, 'issuetype', ['id', 'name']);
  const found = ISSUE_TYPES.find((t) => (ref.id !== undefined ? t.id === ref.id : t.name.toLowerCase() === ref.name!.toLowerCase()));
  if (!found) {
    const named = ref.name !== undefined ? `'${ref.name}'` : `with id '${ref.id}'`;
    throw fieldError('issuetype', `The issue type ${named} does not exist in this project. Valid issue types: ${ISSUE_TYPES.map((t) => t.name).join(', ')}.`);
  }
  return found;
}

/** Fields the caller sent that this operation cannot set: 400 naming the first one. */
export function rejectUnknownFields(fields: Obj, allowed: readonly string[]): void {
  for (const name of Object.keys(fields)) {
    if (!allowed.includes(name)) {
      throw fieldError(name, `Field '${name}' cannot be set. It is not on the appropriate screen, or unknown.`);
    }
  }
}

/** The request body of create and edit: `{fields:{…}}`, an `update` we do not support, nothing else that matters. */
export function fieldsOf(body: unknown, required: boolean): Obj {
  if (!isObject(body)) throw new ApiError(400, ['The request body must be a JSON object such as {"fields":{…}}.']);
  if (body.update !== undefined && !(isObject(body.update) && Object.keys(body.update).length === 0)) {
    throw new ApiError(400, ['"update" operations are not supported by this tracker: send the new values in "fields".']);
  }
  if (body.fields === undefined) {
    if (required) throw new ApiError(400, ['The request body needs "fields" with at least project, issuetype and summary.']);
    return {};
  }
  if (!isObject(body.fields)) throw new ApiError(400, ['"fields" must be a JSON object.']);
  return body.fields;
}
