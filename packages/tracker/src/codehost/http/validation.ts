import { Ajv, type SchemaObject, type ValidateFunction } from 'ajv';
import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import type { TypeBoxProvider } from '../../kit/typebox.js';
import type { SchemaFailure } from './errors.js';

/**
 * The code host's request validation from its route schemas (./schemas/), in its own Fastify
 * scope: every failure of a request is collected (GitHub names every field that does not fit,
 * not the first), and the error handler (rest/scope.ts) answers it in GitHub's shape
 * (errors.ts ghErrorOfSchema). Query strings arrive as text and are taken as text; bodies as sent.
 */

/** Our own schema keywords: how GitHub words a refusal (errors.ts). */
const OWN_KEYWORDS = ['x-gh-resource', 'x-gh-missing', 'x-gh-too-long', 'x-gh-sentence'];

let ajv: Ajv | undefined;
const ajvOf = (): Ajv => {
  if (ajv) return ajv;
  ajv = new Ajv({ coerceTypes: false, useDefaults: false, removeAdditional: false, allErrors: true, verbose: true, keywords: OWN_KEYWORDS });
  // GitHub's `since` is any time JavaScript's Date reads (ISO 8601, with or without the time).
  ajv.addFormat('timestamp', { type: 'string', validate: (s: string) => !Number.isNaN(Date.parse(s)) });
  return ajv;
};

const compiled = new WeakMap<object, ValidateFunction>();

/** Compiled on a route's first request, once per schema and process (as the tracker's, http/validation.ts). */
const compile: FastifySchemaCompiler<SchemaObject> = ({ schema }) => {
  const found = compiled.get(schema);
  if (found) return found;
  let real: ValidateFunction | undefined;
  const validate = ((data: unknown) => {
    real ??= ajvOf().compile(schema);
    const ok = real(data);
    validate.errors = real.errors;
    return ok;
  }) as ValidateFunction;
  compiled.set(schema, validate);
  return validate;
};

/** What a route's schema refused: every failure, and the part of the request (`params`, `querystring`, `body`). */
export class SchemaRefusal extends Error {
  constructor(
    readonly failures: SchemaFailure[],
    readonly part: string,
  ) {
    super(`the ${part} does not fit the operation's schema`);
  }
}

/** The code host's scope with its own validator, its refusals kept whole for GitHub's shape, and TypeBox types. */
export function codehostValidation(scope: FastifyInstance) {
  scope.setValidatorCompiler(compile);
  scope.setSchemaErrorFormatter((failures, part) => new SchemaRefusal(failures, part));
  return scope.withTypeProvider<TypeBoxProvider>();
}
export type CodehostApp = ReturnType<typeof codehostValidation>;
