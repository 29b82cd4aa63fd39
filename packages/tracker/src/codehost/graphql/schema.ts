import {
  buildSchema,
  getNamedType,
  getNullableType,
  isListType,
  isNonNullType,
  type GraphQLFieldResolver,
  type GraphQLOutputType,
  type GraphQLSchema,
} from 'graphql';
import { emptyConnection } from './connections.js';
import type { GqlContext } from './context.js';
import { SCHEMA_SDL } from './schema-text.js';

/**
 * The served schema: GitHub's own, cut to the subset gh uses (spec/github-graphql/, made by
 * scripts/github-graphql-subset.mjs), built once. Its objects are resolved by the classes of
 * ./resolvers/ (a field is a property or method of the same name); a field the code host keeps
 * nothing for answers what GitHub answers for an object without any: an empty connection or
 * list, null, false or 0 — never made-up data.
 */
let built: GraphQLSchema | undefined;
export function servedSchema(): GraphQLSchema {
  return (built ??= buildSchema(SCHEMA_SDL));
}

function emptyFor(type: GraphQLOutputType): unknown {
  const inner = getNullableType(type);
  if (isListType(inner)) return [];
  const named = getNamedType(type);
  if (named.name.endsWith('Connection')) return emptyConnection();
  if (isNonNullType(type) && named.name === 'Boolean') return false;
  if (isNonNullType(type) && named.name === 'Int') return 0;
  return null;
}

export const fieldResolver: GraphQLFieldResolver<unknown, GqlContext> = (source, args, ctx, info) => {
  const value = source === null || typeof source !== 'object' ? undefined : (source as Record<string, unknown>)[info.fieldName];
  if (typeof value === 'function') return (value as (a: unknown, c: GqlContext, i: unknown) => unknown).call(source, args, ctx, info);
  return value === undefined ? emptyFor(info.returnType) : value;
};
