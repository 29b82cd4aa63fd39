/** The GraphQL endpoint's bounds (docs/limits.md "GraphQL"), as GitHub bounds its own. */

/** Largest request body: the REST interface's (domain/limits.ts REST_BODY_MAX). */
export { REST_BODY_MAX as GRAPHQL_BODY_MAX } from '../domain/limits.js';
/** Longest query text, in characters (gh's longest query is a few thousand). */
export const QUERY_CHARS_MAX = 64 * 1024;
/** Most tokens graphql-js reads from one query before it stops parsing. */
export const QUERY_TOKENS_MAX = 15_000;
/** Deepest field nesting (gh's deepest query, the checks' status rollup, is 12 fields deep). */
export const QUERY_DEPTH_MAX = 25;
/** `first`/`last` on a connection: 1..100, as GitHub. */
export const CONNECTION_PAGE_MAX = 100;
/** Most nodes one query may ask for (GitHub's number: 500,000), the product of the pages down each path, summed. */
export const QUERY_NODES_MAX = 500_000;
/** `nodes(ids:)`: at most 100 ids, as GitHub. */
export const NODE_IDS_MAX = 100;
