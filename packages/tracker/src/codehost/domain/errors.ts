/**
 * The code host's domain errors: what went wrong, in the domain's words. The HTTP edge makes
 * GitHub's shape of them (http/errors.ts: status, `message`, `documentation_url`, `errors[]`);
 * the review pages make a page of them. Nothing here knows a status code or a URL.
 */

/** One field's problem, in GitHub's validation vocabulary (its `errors[]` entries). */
export interface FieldProblem {
  resource?: string;
  field?: string;
  /** GitHub's codes; `too_large` is a diff over its budget (406 of the diff media types). */
  code: 'invalid' | 'missing_field' | 'custom' | 'too_large';
  message?: string;
}

export type CodehostErrorKind =
  /** No such repository, pull request or issue, or one the caller may not read (masked, as GitHub). */
  | 'not_found'
  /** A write to a repository the caller may only read. */
  | 'no_push'
  /** Fields that do not fit (`problems`): GitHub's Validation Failed. */
  | 'invalid'
  /** A refusal GitHub states in plain sentences (`notes`), as it does for reviews. */
  | 'refused'
  /** The pull request cannot be merged now (closed, a draft, a conflict, a merge in progress). */
  | 'not_mergeable'
  /** Something changed since the caller looked (the head, the base): read again and retry. */
  | 'changed'
  /** The code host has no repositories to serve (no --repos, or no git fit for it). */
  | 'off';

export class CodehostError extends Error {
  constructor(
    readonly kind: CodehostErrorKind,
    message: string,
    readonly problems: FieldProblem[] = [],
    readonly notes: string[] = [],
  ) {
    super(message);
  }
}

export const notFound = () => new CodehostError('not_found', 'Not Found');
export const noPush = () => new CodehostError('no_push', 'Must have push access to repository');
export const invalidFields = (problems: FieldProblem[]) => new CodehostError('invalid', 'Validation Failed', problems);
export const refused = (notes: string[]) => new CodehostError('refused', 'Unprocessable Entity', [], notes);
/** A field that names nothing that exists (an unknown branch). */
export const invalid = (field: string, resource = 'PullRequest'): FieldProblem => ({ resource, field, code: 'invalid' });
/** A refusal of the whole pull request, in GitHub's words. */
export const custom = (message: string, resource = 'PullRequest', field?: string): FieldProblem => ({
  resource,
  ...(field === undefined ? {} : { field }),
  code: 'custom',
  message,
});
