import {
  getNamedType,
  isAbstractType,
  isObjectType,
  isInterfaceType,
  Kind,
  OperationTypeNode,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';
import { GhGraphqlError } from './errors.js';
import { CONNECTION_PAGE_MAX, QUERY_DEPTH_MAX, QUERY_NODES_MAX } from './limits.js';

/**
 * A query's cost, bounded as GitHub bounds it, before anything runs: a connection whose nodes or
 * edges are asked for needs `first` or `last` between 1 and 100; the nodes a query may reach (each
 * connection's page times the pages above it, summed) are at most QUERY_NODES_MAX; fields nest at
 * most QUERY_DEPTH_MAX deep. Introspection's own fields (`__schema`, `__type`) are not counted.
 */

const isConnection = (name: string) => name.endsWith('Connection');

function intOf(value: ValueNode | undefined, variables: Record<string, unknown>): number | undefined | 'bad' {
  if (!value) return undefined;
  if (value.kind === Kind.NULL) return undefined;
  if (value.kind === Kind.INT) return Number(value.value);
  if (value.kind === Kind.VARIABLE) {
    const v = variables[value.name.value];
    if (v === undefined || v === null) return undefined;
    return typeof v === 'number' && Number.isInteger(v) ? v : 'bad';
  }
  return 'bad';
}

function asksForItems(set: SelectionSetNode | undefined, fragments: Map<string, FragmentDefinitionNode>, seen = new Set<string>()): boolean {
  for (const s of set?.selections ?? []) {
    if (s.kind === Kind.FIELD && (s.name.value === 'nodes' || s.name.value === 'edges')) return true;
    if (s.kind === Kind.INLINE_FRAGMENT && asksForItems(s.selectionSet, fragments, seen)) return true;
    if (s.kind === Kind.FRAGMENT_SPREAD && !seen.has(s.name.value)) {
      seen.add(s.name.value);
      if (asksForItems(fragments.get(s.name.value)?.selectionSet, fragments, seen)) return true;
    }
  }
  return false;
}

/** The operation's cost, or GitHub's refusal of it. */
export function checkCost(schema: GraphQLSchema, doc: DocumentNode, op: OperationDefinitionNode, variables: Record<string, unknown>): GhGraphqlError | null {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of doc.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  let nodes = 0;
  let refusal: GhGraphqlError | null = null;

  const field = (node: FieldNode, parent: GraphQLCompositeType, multiplier: number, depth: number) => {
    const name = node.name.value;
    if (name.startsWith('__') || refusal) return;
    if (depth > QUERY_DEPTH_MAX) {
      refusal = new GhGraphqlError('MAX_NODE_LIMIT_EXCEEDED', `Query has depth of ${depth}, which exceeds max depth of ${QUERY_DEPTH_MAX}`, node);
      return;
    }
    if (!(isObjectType(parent) || isInterfaceType(parent))) return;
    const def = parent.getFields()[name];
    if (!def) return;
    const type = getNamedType(def.type);
    // nodes(ids:) answers one object per id: what is asked below it is asked that many times.
    const ids = node.arguments?.find((a) => a.name.value === 'ids')?.value;
    const count =
      ids?.kind === Kind.LIST
        ? ids.values.length
        : ids?.kind === Kind.VARIABLE && Array.isArray(variables[ids.name.value])
          ? (variables[ids.name.value] as unknown[]).length
          : 1;
    let m = multiplier * Math.max(count, 1);
    if (isConnection(type.name) && asksForItems(node.selectionSet, fragments)) {
      const arg = (n: string) => node.arguments?.find((a) => a.name.value === n)?.value;
      const first = intOf(arg('first'), variables);
      const last = intOf(arg('last'), variables);
      const page = first ?? last;
      if (page === undefined) {
        refusal = new GhGraphqlError(
          'MISSING_PAGINATION_BOUNDARIES',
          `You must provide a \`first\` or \`last\` value to properly paginate the \`${name}\` connection.`,
          node,
        );
        return;
      }
      for (const [which, v] of [
        ['first', first],
        ['last', last],
      ] as const) {
        if (v === 'bad' || (typeof v === 'number' && (v < 1 || v > CONNECTION_PAGE_MAX))) {
          refusal = new GhGraphqlError(
            'EXCESSIVE_PAGINATION',
            `Requesting ${String(v === 'bad' ? 'that many' : v)} records on the \`${name}\` connection is outside the \`${which}\` limit of 1 to ${CONNECTION_PAGE_MAX} records.`,
            node,
          );
          return;
        }
      }
      m = m * (page as number);
      nodes += m;
      if (nodes > QUERY_NODES_MAX) {
        refusal = new GhGraphqlError(
          'MAX_NODE_LIMIT_EXCEEDED',
          `By the time this query traverses to the ${name} connection, it is requesting up to ${nodes.toLocaleString('en-US')} possible nodes which exceeds the maximum limit of ${QUERY_NODES_MAX.toLocaleString('en-US')}.`,
          node,
        );
        return;
      }
    }
    if (node.selectionSet && (isObjectType(type) || isInterfaceType(type) || isAbstractType(type)))
      set(node.selectionSet, type as GraphQLCompositeType, m, depth);
  };

  const set = (selection: SelectionSetNode, parent: GraphQLCompositeType, multiplier: number, depth: number, seen = new Set<string>()) => {
    for (const s of selection.selections) {
      if (refusal) return;
      if (s.kind === Kind.FIELD) field(s, parent, multiplier, depth + 1);
      else if (s.kind === Kind.INLINE_FRAGMENT) {
        const on = s.typeCondition ? (schema.getType(s.typeCondition.name.value) as GraphQLCompositeType | undefined) : parent;
        if (on) set(s.selectionSet, on, multiplier, depth, seen);
      } else {
        const frag = fragments.get(s.name.value);
        if (!frag || seen.has(frag.name.value)) continue;
        const on = schema.getType(frag.typeCondition.name.value) as GraphQLCompositeType | undefined;
        if (on) set(frag.selectionSet, on, multiplier, depth, new Set([...seen, frag.name.value]));
      }
    }
  };

  const root = op.operation === OperationTypeNode.MUTATION ? schema.getMutationType() : schema.getQueryType();
  if (root) set(op.selectionSet, root, 1, 0);
  return refusal;
}
