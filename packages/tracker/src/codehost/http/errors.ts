import { CodehostError, type CodehostErrorKind, type FieldProblem } from '../domain/errors.js';

/** A GitHub-shaped validation error entry (`errors[]` of a 422 Validation Failed). */
export type GhErrorEntry = FieldProblem & { value?: string | null };

/** GitHub's documentation root: the page of an answer that belongs to no one operation. */
export const REST_DOCS = 'https://docs.github.com/rest';

/**
 * GitHub's error, as GitHub renders it: `{message, documentation_url, errors?, status}` (the
 * `status` is a string, as GitHub sends it). Made here, at the HTTP edge, from the domain's
 * errors (CodehostError) and from what the route schemas refused.
 */
export class GhError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: (GhErrorEntry | string)[],
    /** The page to name instead of the route's own (401 names GitHub's root, as GitHub does). */
    readonly docs?: string,
  ) {
    super(message);
  }

  body(routeDocs = REST_DOCS): { message: string; documentation_url: string; errors?: (GhErrorEntry | string)[]; status: string } {
    return { message: this.message, documentation_url: this.docs ?? routeDocs, ...(this.errors ? { errors: this.errors } : {}), status: String(this.status) };
  }
}

export const badCredentials = () => new GhError(401, 'Bad credentials', undefined, REST_DOCS);
export const problemsParsingJson = (detail = '') => new GhError(400, `Problems parsing JSON${detail}`);

/** The status GitHub answers each domain refusal with. */
export const STATUS_OF: Readonly<Record<CodehostErrorKind, number>> = {
  not_found: 404,
  no_push: 403,
  invalid: 422,
  refused: 422,
  not_mergeable: 405,
  changed: 409,
  off: 503,
};

/** GitHub's error for a domain refusal. */
export function ghErrorOf(e: CodehostError): GhError {
  const errors = e.kind === 'invalid' ? e.problems : e.kind === 'refused' ? e.notes : undefined;
  return new GhError(STATUS_OF[e.kind], e.message, errors);
}

/**
 * What a body schema's properties may say of their refusals, in GitHub's words (keywords of our
 * own, which the code host's Ajv knows: http/validation.ts):
 * - `x-gh-resource` (on the body): the resource its `errors[]` entries name;
 * - `x-gh-missing`: null or blank is `missing_field` (as an absent field), not `invalid`;
 * - `x-gh-too-long`: the message of a value over its maxLength (default `<field> is too long (maximum is N characters)`);
 * - `x-gh-sentence` (on a property): the refusal is one plain sentence (GitHub's validation_failed_simple), this one.
 */
interface PropertySchema {
  maxLength?: number;
  'x-gh-missing'?: boolean;
  'x-gh-too-long'?: string;
  'x-gh-sentence'?: string;
}
interface BodySchema {
  properties?: Record<string, PropertySchema>;
  'x-gh-resource'?: string;
}

/** One failed keyword of a schema check (Ajv's error, verbose: with the value it refused). */
export interface SchemaFailure {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  data?: unknown;
}

/** A field's problem for one failed keyword. */
function problemOf(v: SchemaFailure, schema: BodySchema, resource: string): { field: string; entry: GhErrorEntry | string } | null {
  const field = v.keyword === 'required' ? (v.params as { missingProperty: string }).missingProperty : v.instancePath.split('/')[1];
  if (field === undefined) return null;
  const property = schema.properties?.[field] ?? {};
  if (v.keyword === 'maxLength') {
    const message = property['x-gh-too-long'] ?? `${field} is too long (maximum is ${property.maxLength} characters)`;
    return { field, entry: property['x-gh-sentence'] ? message : { resource, field, code: 'custom', message } };
  }
  if (property['x-gh-sentence']) return { field, entry: property['x-gh-sentence'] };
  const blank = v.keyword === 'required' || v.keyword === 'minLength' || v.keyword === 'pattern' || (v.keyword === 'type' && v.data === null);
  return { field, entry: { resource, field, code: blank && (v.keyword === 'required' || property['x-gh-missing']) ? 'missing_field' : 'invalid' } };
}

/**
 * GitHub's answer to what a route's schema refused: a path parameter no pull request can have is
 * 404; a body that is no JSON object is 400 Problems parsing JSON; a field or query value that
 * does not fit is 422 naming it (one entry per field, in the schema's order), as plain sentences
 * where the operation answers so (reviews).
 */
export function ghErrorOfSchema(context: string | undefined, failures: SchemaFailure[], schema: BodySchema | undefined): GhError {
  if (context === 'params') return new GhError(404, 'Not Found');
  if (context === 'body' && failures.some((v) => v.instancePath === '' && v.keyword === 'type')) return problemsParsingJson();
  const s = schema ?? {};
  const resource = s['x-gh-resource'] ?? 'PullRequest';
  const order = Object.keys(s.properties ?? {});
  const seen = new Map<string, GhErrorEntry | string>();
  for (const v of failures) {
    const p = problemOf(v, s, resource);
    if (p && !seen.has(p.field)) seen.set(p.field, p.entry);
  }
  const entries = [...seen].sort(([a], [b]) => order.indexOf(a) - order.indexOf(b)).map(([, entry]) => entry);
  if (entries.some((e) => typeof e === 'string')) return new GhError(422, 'Unprocessable Entity', entries);
  return new GhError(422, 'Validation Failed', entries);
}

export { CodehostError };
