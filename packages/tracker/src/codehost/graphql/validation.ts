import {
  FieldsOnCorrectTypeRule,
  getNamedType,
  GraphQLError,
  Kind,
  specifiedRules,
  validate,
  type ASTNode,
  type DocumentNode,
  type FieldNode,
  type GraphQLSchema,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';

/**
 * The checks a query meets before anything runs: graphql-js's own (the specification's), with
 * GitHub's words for a field that does not exist (`undefinedField`: the subset answers a field it
 * does not serve as GitHub answers a field that is not in its schema, never with wrong data).
 */

/** The path GitHub names a validation error by: `query Name`, then each field's name. */
function pathOf(ancestors: readonly (ASTNode | readonly ASTNode[])[], node: FieldNode): string[] {
  const path: string[] = [];
  for (const a of ancestors) {
    if (Array.isArray(a)) continue;
    const n = a as ASTNode;
    if (n.kind === Kind.OPERATION_DEFINITION) path.push(n.name ? `${n.operation} ${n.name.value}` : n.operation);
    else if (n.kind === Kind.FRAGMENT_DEFINITION) path.push(`fragment ${n.name.value}`);
    else if (n.kind === Kind.FIELD) path.push(n.name.value);
    else if (n.kind === Kind.INLINE_FRAGMENT && n.typeCondition) path.push(`... on ${n.typeCondition.name.value}`);
  }
  path.push(node.name.value);
  return path;
}

/** GitHub's undefinedField: "Field 'x' doesn't exist on type 'Y'", with its extensions. */
export const UndefinedFieldRule: ValidationRule = (context: ValidationContext) => ({
  Field(node) {
    const type = context.getParentType();
    if (!type) return;
    const named = getNamedType(type);
    const name = node.name.value;
    if (name.startsWith('__')) return;
    if ('getFields' in named && named.getFields()[name] === undefined) {
      context.reportError(
        new GraphQLError(`Field '${name}' doesn't exist on type '${named.name}'`, {
          nodes: node,
          extensions: { code: 'undefinedField', typeName: named.name, fieldName: name },
        }),
      );
    }
  },
});

const RULES = [...specifiedRules.filter((r) => r !== FieldsOnCorrectTypeRule), UndefinedFieldRule];

/** The document's refusals (at most `max`), each with GitHub's path where it has one. */
export function validateQuery(schema: GraphQLSchema, doc: DocumentNode, max = 20): { error: GraphQLError; path?: string[] }[] {
  const found: { error: GraphQLError; path?: string[] }[] = [];
  const paths: string[][] = [];
  const pathRule: ValidationRule = (context) => ({
    Field(node, _key, _parent, _path, ancestors) {
      const type = context.getParentType();
      if (!type) return;
      const named = getNamedType(type);
      if (!node.name.value.startsWith('__') && 'getFields' in named && named.getFields()[node.name.value] === undefined) paths.push(pathOf(ancestors, node));
    },
  });
  const errors = validate(schema, doc, [...RULES, pathRule], { maxErrors: max });
  let p = 0;
  for (const error of errors) {
    const undefinedField = error.extensions?.['code'] === 'undefinedField';
    found.push(undefinedField && paths[p] ? { error, path: paths[p++]! } : { error });
  }
  return found;
}
