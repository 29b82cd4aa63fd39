import { GraphQLError, type ASTNode } from 'graphql';
import { CodehostError } from '../domain/errors.js';
import { GitSlotsFull } from '../git/slots.js';

/**
 * GitHub's GraphQL errors (docs/codehost.md "GraphQL"): each entry of `errors[]` is
 * `{type?, path?, extensions?, locations?, message}`. The domain's refusals (domain/errors.ts)
 * become GitHub's types: a repository or pull request the viewer may not read is NOT_FOUND (as
 * REST's masked 404), a write without permission FORBIDDEN, a refusal of the input
 * UNPROCESSABLE; the query's own faults (undefinedField, pagination, cost) are answered before
 * anything runs.
 */

export type GhGraphqlType =
  | 'RATE_LIMITED'
  | 'NOT_FOUND'
  | 'FORBIDDEN'
  | 'UNPROCESSABLE'
  | 'MISSING_PAGINATION_BOUNDARIES'
  | 'EXCESSIVE_PAGINATION'
  | 'MAX_NODE_LIMIT_EXCEEDED'
  | 'SERVICE_UNAVAILABLE';

/** An error GitHub answers with a `type`. */
export class GhGraphqlError extends GraphQLError {
  constructor(
    readonly type: GhGraphqlType,
    message: string,
    nodes?: readonly ASTNode[] | ASTNode,
  ) {
    super(message, nodes === undefined ? {} : { nodes });
  }
}

/** What a refusal quotes of the caller's own input: at most 100 characters of it. */
const quoted = (s: string) => (s.length > 100 ? `${s.slice(0, 100)}…` : s);
export const notFoundRepo = (owner: string, name: string) =>
  new GhGraphqlError('NOT_FOUND', `Could not resolve to a Repository with the name '${quoted(`${owner}/${name}`)}'.`);
export const notFoundPull = (number: number) => new GhGraphqlError('NOT_FOUND', `Could not resolve to a PullRequest with the number of ${number}.`);
export const notFoundNode = (id: string) => new GhGraphqlError('NOT_FOUND', `Could not resolve to a node with the global id of '${quoted(id)}'`);

/** GitHub's FORBIDDEN sentence for a mutation the viewer lacks the permission for. */
export const forbidden = (login: string, mutation: string) =>
  new GhGraphqlError('FORBIDDEN', `${login} does not have the correct permissions to execute \`${mutation}\``);

/** A domain refusal in GitHub's GraphQL words; `what` says which object was asked for (for NOT_FOUND). */
export function fromDomain(e: unknown, onNotFound: () => GhGraphqlError, login: string, mutation?: string): unknown {
  if (!(e instanceof CodehostError)) return e;
  switch (e.kind) {
    case 'not_found':
      return onNotFound();
    case 'no_push':
      return forbidden(login, mutation ?? 'this mutation');
    case 'invalid':
    case 'refused': {
      const details = [...e.notes, ...e.problems.map((p) => p.message ?? `${p.field ?? p.resource ?? 'field'} is ${p.code}`)];
      return new GhGraphqlError('UNPROCESSABLE', details.length > 0 ? details.join(' ') : e.message);
    }
    case 'not_mergeable':
    case 'changed':
      return new GhGraphqlError('UNPROCESSABLE', e.message);
    case 'off':
      return new GhGraphqlError('SERVICE_UNAVAILABLE', e.message);
  }
}

/** One entry of `errors[]` as GitHub lays it out. */
export interface GhErrorEntry {
  type?: string;
  path?: readonly (string | number)[];
  extensions?: Record<string, unknown>;
  locations?: readonly { line: number; column: number }[];
  message: string;
}

/** An error of graphql-js (parse, validation, execution) in GitHub's layout; an unexpected fault is a plain sentence, never its stack or text. */
export function entryOf(error: GraphQLError): GhErrorEntry {
  const original = error.originalError;
  const slots =
    original instanceof GitSlotsFull ? new GhGraphqlError(original.reason === 'busy' ? 'SERVICE_UNAVAILABLE' : 'RATE_LIMITED', original.message) : null;
  const typed = error instanceof GhGraphqlError ? error : original instanceof GhGraphqlError ? original : slots;
  const locations = error.locations && error.locations.length > 0 ? error.locations.map(({ line, column }) => ({ line, column })) : undefined;
  const isFault = original !== undefined && !(original instanceof GraphQLError) && slots === null;
  return {
    ...(typed ? { type: typed.type } : {}),
    ...(error.path ? { path: error.path } : {}),
    ...(error.extensions && Object.keys(error.extensions).length > 0 ? { extensions: { ...error.extensions } } : {}),
    ...(locations ? { locations } : {}),
    message: isFault ? 'Something went wrong while executing your query. The request was not applied; retry it.' : (slots?.message ?? error.message),
  };
}
