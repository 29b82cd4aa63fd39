import { Type, type TSchema } from '@sinclair/typebox';

/**
 * The JSON shapes of the REST interface, after the vendor's OpenAPI (spec/jira-openapi), one file
 * per resource (./issues.ts, ./comments.ts, ./users.ts, ./projects.ts, ./search.ts, ./catalog.ts):
 * route inputs (path, query, body), validated before a handler runs (http/validation.ts), and the
 * responses each route declares. The renderers (render.ts, render-catalog.ts, issue-view.ts) build
 * exactly these shapes; test/http/route-schemas.test.ts checks real responses against them. This
 * file holds what they share: parameter kinds, the ErrorCollection of every refusal and `replies`.
 */

/** One of a list of strings (JSON Schema `enum`). */
export const oneOf = <const T extends readonly string[]>(values: T) => Type.Unsafe<T[number]>({ type: 'string', enum: values });

/** A boolean query parameter, in any letter case (python `jira` sends `True`). */
export const BoolParam = Type.String({ pattern: '^(?:[Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])$', 'x-expects': 'true or false' });

/** Whether a BoolParam that passed validation says true; absent is `dflt`. */
export const isTrue = (value: string | undefined, dflt = false): boolean => (value === undefined ? dflt : value.length === 4);

/** An index or count in a query string; larger than the operation allows is clamped by the route. */
export const CountParam = Type.Integer({ minimum: 0, 'x-expects': 'an integer' });

/** A list parameter: repeated and/or comma-separated (`fields=a,b&fields=c`); split by the route. */
export const ListParam = Type.Array(Type.String({ maxLength: 4000 }), { maxItems: 200 });

/** A text query parameter. */
export const TextParam = Type.String({ maxLength: 4000 });

export const Paging = { startAt: Type.Optional(CountParam), maxResults: Type.Optional(CountParam) };

export const PageQuery = Type.Object(Paging);

/** ErrorCollection: every refusal. */
export const ErrorCollection = Type.Object({ errorMessages: Type.Array(Type.String()), errors: Type.Record(Type.String(), Type.String()) });

export const AvatarUrls = Type.Object({ '48x48': Type.String(), '24x24': Type.String(), '16x16': Type.String(), '32x32': Type.String() });

export const FieldSchema = Type.Object({ type: Type.String(), items: Type.Optional(Type.String()), system: Type.String() });

/** A route's responses: its success shape(s), and the ErrorCollection of every refusal. */
export const replies = <T extends Record<number, TSchema>>(ok: T) => ({ ...ok, '4xx': ErrorCollection, '5xx': ErrorCollection });

/** A 204 with no body. */
export const NoContent = Type.Null({ description: 'No content' });
