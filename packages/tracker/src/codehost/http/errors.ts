/** A GitHub-shaped validation error entry (`errors[]` of a 422 Validation Failed). */
export interface GhErrorEntry {
  resource?: string;
  field?: string;
  code: string;
  message?: string;
  value?: string | null;
}

/**
 * The code host's one error type, rendered as GitHub renders errors:
 * `{message, documentation_url, errors?, status}` (the `status` is a string, as GitHub sends it).
 */
export class GhError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: (GhErrorEntry | string)[],
    /** The operation's documentation page; the HTTP layer fills in the route's when absent. */
    readonly docs?: string,
  ) {
    super(message);
  }

  body(routeDocs = 'https://docs.github.com/rest'): { message: string; documentation_url: string; errors?: (GhErrorEntry | string)[]; status: string } {
    return { message: this.message, documentation_url: this.docs ?? routeDocs, ...(this.errors ? { errors: this.errors } : {}), status: String(this.status) };
  }
}

export const badCredentials = () => new GhError(401, 'Bad credentials', undefined, 'https://docs.github.com/rest');
export const requiresAuthentication = () => new GhError(401, 'Requires authentication');
export const notFound = (docs?: string) => new GhError(404, 'Not Found', undefined, docs);
export const noPush = (docs?: string) => new GhError(403, 'Must have push access to repository', undefined, docs);
export const validationFailed = (errors: (GhErrorEntry | string)[], docs?: string) => new GhError(422, 'Validation Failed', errors, docs);
/** GitHub's 422 with plain-text entries (e.g. reviews: "Can not approve your own pull request"). */
export const unprocessable = (errors: string[], docs?: string) => new GhError(422, 'Unprocessable Entity', errors, docs);
