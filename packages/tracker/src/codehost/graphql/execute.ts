import { execute, getOperationAST, getVariableValues, GraphQLError, OperationTypeNode, parse, type DocumentNode } from 'graphql';
import { GitSlotsFull } from '../git/slots.js';
import type { GqlContext } from './context.js';
import { checkCost } from './cost.js';
import { entryOf, type GhErrorEntry } from './errors.js';
import { QUERY_CHARS_MAX, QUERY_TOKENS_MAX } from './limits.js';
import { mutationRoot } from './resolvers/mutations.js';
import { queryRoot } from './resolvers/query.js';
import { fieldResolver, servedSchema } from './schema.js';
import { validateQuery } from './validation.js';

/** GitHub's answer to a GraphQL request: `{data?, errors?}`. */
export interface GqlAnswer {
  data?: unknown;
  errors?: GhErrorEntry[];
}

const refuse = (message: string): GqlAnswer => ({ errors: [{ message }] });

/**
 * One GraphQL request, GitHub's order of refusals: the body's shape, the query's length and
 * syntax, the schema's validation (undefinedField, …), the operation, its cost (cost.ts); only
 * then is it executed. `onFault` hears of a resolver's unexpected error (it is answered as a
 * plain sentence, never its text).
 */
export async function runGraphql(body: unknown, ctx: GqlContext, onFault: (e: unknown) => void): Promise<GqlAnswer> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return refuse('The request body must be a JSON object with a `query` string.');
  const { query, variables, operationName } = body as Record<string, unknown>;
  if (typeof query !== 'string' || query.trim() === '') return refuse('A query attribute must be specified and must be a string.');
  if (variables !== undefined && variables !== null && (typeof variables !== 'object' || Array.isArray(variables)))
    return refuse('Variables are invalid: `variables` must be a JSON object.');
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') return refuse('`operationName` must be a string.');
  if (query.length > QUERY_CHARS_MAX) return refuse(`Query is too long: ${query.length} characters, the limit is ${QUERY_CHARS_MAX}.`);
  // U+0000 cannot be stored or looked up in PostgreSQL text: refused on every store alike, as REST refuses it.
  if (/\0|\\u0000/i.test(query) || (variables !== undefined && JSON.stringify(variables).includes('\\u0000')))
    return refuse('The query or its variables contain a NUL character (\\u0000), which no field accepts.');
  let doc: DocumentNode;
  try {
    doc = parse(query, { maxTokens: QUERY_TOKENS_MAX, noLocation: false });
  } catch (e) {
    if (e instanceof GraphQLError) return { errors: [entryOf(e)] };
    throw e;
  }
  const schema = servedSchema();
  const invalid = validateQuery(schema, doc);
  if (invalid.length > 0) return { errors: invalid.map(({ error, path }) => ({ ...entryOf(error), ...(path ? { path } : {}) })) };
  const op = getOperationAST(doc, typeof operationName === 'string' ? operationName : undefined);
  if (!op)
    return refuse(
      typeof operationName === 'string'
        ? `No operation named "${operationName}".`
        : 'An operation name is required when the document has more than one operation.',
    );
  if (op.operation === OperationTypeNode.SUBSCRIPTION) return refuse('Subscriptions are not supported.');
  const coerced = getVariableValues(schema, op.variableDefinitions ?? [], (variables ?? {}) as Record<string, unknown>, { maxErrors: 20 });
  if (coerced.errors) return { errors: coerced.errors.map(entryOf) };
  const vars = coerced.coerced;
  const costly = checkCost(schema, doc, op, vars);
  if (costly) return { errors: [entryOf(costly)] };
  const result = await execute({
    schema,
    document: doc,
    rootValue: op.operation === OperationTypeNode.MUTATION ? mutationRoot : queryRoot,
    contextValue: ctx,
    variableValues: (variables ?? {}) as Record<string, unknown>,
    ...(typeof operationName === 'string' ? { operationName } : {}),
    fieldResolver,
  });
  const errors = result.errors?.map((e) => {
    if (e.originalError && !(e.originalError instanceof GraphQLError) && !(e.originalError instanceof GitSlotsFull)) onFault(e.originalError);
    return entryOf(e);
  });
  return { ...(result.data !== undefined ? { data: result.data } : {}), ...(errors && errors.length > 0 ? { errors } : {}) };
}
