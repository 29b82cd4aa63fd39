import { parse as parseQueryString } from 'node:querystring';
import { Ajv, type ErrorObject, type SchemaObject, type ValidateFunction } from 'ajv';
import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import type { Static, TSchema } from '@sinclair/typebox';
import { ApiError } from '../domain/errors.js';
import type { TypeBoxProvider } from '../kit/typebox.js';

/**
 * Request validation from the route schemas (http/schemas/): compiled once per schema and
 * process, run by Fastify before a handler, and every violation answered as the vendor answers a
 * bad request: 400 with an ErrorCollection that names the parameter or field and what it must be.
 */

export type { TypeBoxProvider } from '../kit/typebox.js';

/** A route plugin's Fastify instance with TypeBox types, for route tables split over several functions. */
export const typed = (scope: FastifyInstance) => scope.withTypeProvider<TypeBoxProvider>();
export type TypedApp = ReturnType<typeof typed>;

/** Schema keywords of our own, for the messages: what a value must be, and an example body. */
const OWN_KEYWORDS = ['x-expects', 'x-example', 'x-optional-body'];

/**
 * Two compilers: query strings and path parameters arrive as text, so their numbers and lists are
 * coerced (`startAt=5` is 5, a single `fields=a` is `["a"]`); a JSON body is taken as sent
 * (`"maxResults": "5"` is not a number). Neither removes or adds anything to the request.
 */
let coercing: Ajv | undefined;
let strict: Ajv | undefined;
const ajvFor = (part: string | undefined): Ajv =>
  part === 'body'
    ? (strict ??= new Ajv({ coerceTypes: false, useDefaults: false, removeAdditional: false, allErrors: false, verbose: true, keywords: OWN_KEYWORDS }))
    : (coercing ??= new Ajv({ coerceTypes: 'array', useDefaults: false, removeAdditional: false, allErrors: false, verbose: true, keywords: OWN_KEYWORDS }));
/** Compiled validators by schema object: the same route under four prefixes is compiled once. */
const compiled = new WeakMap<object, ValidateFunction>();

/**
 * The validator a route's schema gets for a part of the request (`querystring`, `params`, `body`):
 * the one Fastify runs, shared with code that checks a request before Fastify routes it
 * (http/issue-read-front.ts). It coerces query and path values in place, as Fastify's does.
 */
export function validatorFor(schema: SchemaObject, httpPart: string | undefined): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = lazily(() => (httpPart === 'body' ? ajvFor('body').compile(schema) : digitsOnly(schema, ajvFor(httpPart).compile(schema))));
    compiled.set(schema, validate);
  }
  return validate;
}

/** validatorFor a TypeBox schema, as a type guard: what passes has the schema's type (after coercion). */
export function guardFor<S extends TSchema>(schema: S, httpPart: 'querystring' | 'params'): (data: unknown) => data is Static<S> {
  const validate = validatorFor(schema, httpPart);
  return (data: unknown): data is Static<S> => validate(data);
}

export const compileValidator: FastifySchemaCompiler<SchemaObject> = ({ schema, httpPart }) => {
  const validate = validatorFor(schema, httpPart);
  // A request without a body reaches the validator as null: routes whose body is optional say so.
  if (httpPart === 'body' && schema['x-optional-body'] === true) {
    const whole = validate;
    const optional = ((data: unknown) => {
      const ok = data === null || whole(data);
      optional.errors = ok ? null : whole.errors;
      return ok;
    }) as ValidateFunction;
    return optional;
  }
  return validate;
};

/**
 * Compiled on the route's first request rather than at start-up: Ajv takes ~3–12 ms per schema,
 * which over every route would add ~0.2 s to each server start (measured with `serve`).
 */
function lazily(compile: () => ValidateFunction): ValidateFunction {
  let real: ValidateFunction | undefined;
  const validate = ((data: unknown) => {
    real ??= compile();
    const ok = real(data);
    validate.errors = real.errors;
    return ok;
  }) as ValidateFunction;
  return validate;
}

const DIGITS = /^-?\d{1,20}$/;

/**
 * Ajv coerces any text JavaScript reads as a number (`1e3`, `0x10`, ` 5`); an integer in a query
 * string or path is written in decimal digits, as the hosted service's parser wants. This checks
 * the schema's integer properties for that before Ajv coerces them.
 */
function digitsOnly(schema: SchemaObject, validate: ValidateFunction): ValidateFunction {
  const properties = (schema.properties ?? {}) as Record<string, SchemaObject>;
  const integers = Object.keys(properties).filter((name) => properties[name]!.type === 'integer');
  if (integers.length === 0) return validate;
  const checked = ((data: Record<string, unknown> | null) => {
    for (const name of integers) {
      const value = data?.[name];
      if (typeof value === 'string' && !DIGITS.test(value)) {
        checked.errors = [
          {
            keyword: 'type',
            instancePath: `/${name}`,
            schemaPath: `#/properties/${name}/type`,
            params: { type: 'integer' },
            data: value,
            parentSchema: properties[name],
          },
        ];
        return false;
      }
    }
    const ok = validate(data);
    checked.errors = validate.errors;
    return ok;
  }) as ValidateFunction;
  return checked;
}

/** Query parameters that may repeat and carry comma lists (`fields=a,b&fields=c`). */
const LIST_PARAMS = new Set(['fields', 'expand', 'keys', 'id', 'properties']);
/** Parameters jira.js sends as `false` when the caller left them out (its own defaults). */
const FALSE_MEANS_ABSENT = new Set(['startAt', 'maxResults', 'orderBy', 'expand']);

/**
 * The query string as the routes' schemas read it: a parameter given twice keeps its last value
 * (as before; list parameters keep all), an empty one is absent, and jira.js's `false` for a
 * parameter it left out is absent too.
 */
export function parseQuery(text: string): Record<string, string | string[]> {
  const raw = parseQueryString(text);
  const out: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  for (const name of Object.keys(raw)) {
    const value = raw[name]!;
    if (LIST_PARAMS.has(name)) {
      const values = (Array.isArray(value) ? value : [value]).filter((v) => v !== '' && !(v === 'false' && FALSE_MEANS_ABSENT.has(name)));
      if (values.length > 0) out[name] = values;
      continue;
    }
    const last = Array.isArray(value) ? value[value.length - 1]! : value;
    if (last === '' || (last === 'false' && FALSE_MEANS_ABSENT.has(name))) continue;
    out[name] = last;
  }
  return out;
}

const shown = (v: unknown) => `'${String(v).slice(0, 40)}'`;

/** The message for the first violation of a query string or path. */
function parameterMessage(e: ErrorObject, part: 'querystring' | 'params'): string {
  const name = e.instancePath.split('/')[1] ?? '';
  const what = part === 'params' ? 'path parameter' : 'parameter';
  const expects = (e.parentSchema as SchemaObject | undefined)?.['x-expects'] as string | undefined;
  switch (e.keyword) {
    case 'required': {
      const example = (e.parentSchema as SchemaObject | undefined)?.['x-example'] as string | undefined;
      return `The '${(e.params as { missingProperty: string }).missingProperty}' query parameter is required${example ? `: ${example}` : ''}.`;
    }
    case 'type':
      return `The '${name}' ${what} must be ${expects ?? describeType({ type: (e.params as { type: string }).type })} (got ${shown(e.data)}).`;
    case 'minimum':
      return `The '${name}' ${what} must be at least ${(e.params as { limit: number }).limit}.`;
    case 'maximum':
      return `The '${name}' ${what} must be at most ${(e.params as { limit: number }).limit}.`;
    case 'maxLength':
      return `The '${name}' ${what} is longer than ${(e.params as { limit: number }).limit} characters.`;
    case 'maxItems':
      return `The '${name}' ${what} lists more than ${(e.params as { limit: number }).limit} values.`;
    case 'enum':
      return `The '${name}' ${what} must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')} (got ${shown(e.data)}).`;
    default:
      return `The '${name}' ${what} must be ${expects ?? 'valid'}${e.data === undefined ? '' : ` (got ${shown(e.data)})`}.`;
  }
}

/** The message for the first violation of a JSON body. */
function bodyMessage(e: ErrorObject): string {
  const parent = e.parentSchema as SchemaObject | undefined;
  const path = e.instancePath.split('/').slice(1).join('.');
  if (e.keyword === 'additionalProperties') {
    const known = Object.keys((parent?.properties ?? {}) as object).join(', ');
    const field = (e.params as { additionalProperty: string }).additionalProperty.slice(0, 60);
    return `Unrecognized field "${path === '' ? field : `${path}.${field}`}" in the request body. Known fields: ${known}.`;
  }
  if (path === '' && e.keyword === 'type') {
    const example = parent?.['x-example'] as string | undefined;
    return `The request body must be a JSON object${example ? ` such as ${example}` : ''}.`;
  }
  if (e.keyword === 'required') {
    const missing = (e.params as { missingProperty: string }).missingProperty;
    return `The request body needs "${path === '' ? missing : `${path}.${missing}`}"${parent?.['x-example'] ? `, as in ${parent['x-example'] as string}` : ''}.`;
  }
  const expects = parent?.['x-expects'] as string | undefined;
  switch (e.keyword) {
    case 'maxItems':
      return `'${path}' accepts at most ${(e.params as { limit: number }).limit} items.`;
    case 'maxLength':
      return `'${path}' is longer than ${(e.params as { limit: number }).limit} characters.`;
    case 'minimum':
      return `'${path}' must be at least ${(e.params as { limit: number }).limit}.`;
    default:
      return `'${path}' must be ${expects ?? describeType(parent)}.`;
  }
}

function describeType(schema: SchemaObject | undefined): string {
  const type = schema?.type as string | string[] | undefined;
  if (type === 'integer') return 'an integer';
  if (type === 'object') return 'a JSON object';
  if (type === 'array') return 'an array';
  if (typeof type === 'string') return `a ${type}`;
  return 'valid';
}

/**
 * Fastify's schemaErrorFormatter: the first violation as an ApiError (400, the vendor's
 * ErrorCollection), which the API's and the board's error handlers render in their own form.
 */
export function schemaViolation(errors: ErrorObject[], part: string): Error {
  // A value that may take several forms (a union): the union's own error says what it must be.
  // Unless the value had the right type and passed a bound (a JQL over 100,000 characters): then the bound says what is wrong.
  const union = errors.findLast((x) => x.keyword === 'anyOf');
  const bound = union && errors.find((x) => (x.keyword === 'maxLength' || x.keyword === 'maxItems') && x.instancePath === union.instancePath);
  const e = bound ?? union ?? errors[0];
  if (!e) return new ApiError(400, ['The request is not valid.']);
  const message = part === 'body' ? bodyMessage(e) : parameterMessage(e, part === 'params' ? 'params' : 'querystring');
  return new ApiError(400, [message]);
}
