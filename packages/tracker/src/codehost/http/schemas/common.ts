import { Type, type TSchema } from '@sinclair/typebox';

/**
 * The code host's JSON shapes, after GitHub's own description (spec/github-openapi/, cut from
 * @octokit/openapi): each operation's path parameters, query, body and responses, one file per
 * resource (./repos.ts, ./pulls.ts, ./merges.ts, ./reviews.ts, ./comments.ts, ./rate-limit.ts).
 * Fastify checks the inputs before a handler runs (../validation.ts); a refusal is answered in
 * GitHub's shape (../errors.ts). The responses are declared, not used to serialise (replies are
 * JSON.stringify'd, as the tracker's): the renderers (../render.ts) build them, and the tests check
 * every answer against GitHub's description itself (test/support/github-openapi.ts).
 */

/** A string or null (OpenAPI's `nullable: true`), with the string's own rules. */
export const nullable = (schema: TSchema) => Type.Unsafe<string | null>({ ...schema, type: ['string', 'null'] });

/** One of a list of strings, as GitHub's `enum`. */
export const oneOf = <const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: values, ...options });

/** `{owner}/{repo}`: any segment (a repository that does not exist, or that the caller may not read, is 404). */
export const RepoParams = Type.Object({ owner: Type.String(), repo: Type.String() });

/**
 * `{pull_number}` / `{issue_number}`: GitHub's integer, written in decimal digits; one no pull
 * request can have (0, a sign, an exponent, past PostgreSQL's integer) is 404, not a 422.
 */
export const PullNumber = Type.String({ pattern: '^[1-9][0-9]{0,9}$' });
export const PullParams = Type.Object({ owner: Type.String(), repo: Type.String(), number: PullNumber });

/**
 * `per_page` and `page`: GitHub takes any value, a number out of range clamped (per_page to 100),
 * anything else the default, so these are text the route reads with `paging` (rest/common.ts).
 */
export const Paging = { per_page: Type.Optional(Type.String()), page: Type.Optional(Type.String()) };
export const PageQuery = Type.Object(Paging);

/** GitHub's basic-error and validation-error (every refusal: 4xx and 5xx). */
export const GhErrorBody = Type.Object({
  message: Type.String(),
  documentation_url: Type.String(),
  status: Type.Optional(Type.String()),
  errors: Type.Optional(
    Type.Array(
      Type.Union([
        Type.String(),
        Type.Object({
          resource: Type.Optional(Type.String()),
          field: Type.Optional(Type.String()),
          code: Type.String(),
          message: Type.Optional(Type.String()),
        }),
      ]),
    ),
  ),
});

/** A route's responses: its success shape(s), and GitHub's error of every refusal. */
export const replies = <T extends Record<number, TSchema>>(ok: T) => ({ ...ok, '4xx': GhErrorBody, '5xx': GhErrorBody });

/** A 204 with no body. */
export const NoContent = Type.Null({ description: 'No content' });

/** simple-user: the fields every user object carries. */
export const SimpleUser = Type.Object({
  login: Type.String(),
  id: Type.Integer(),
  node_id: Type.String(),
  avatar_url: Type.String(),
  url: Type.String(),
  html_url: Type.String(),
  type: Type.String(),
  site_admin: Type.Boolean(),
});

/** repository: what an answer about a repository carries (GitHub's required core). */
export const Repository = Type.Object({
  id: Type.Integer(),
  node_id: Type.String(),
  name: Type.String(),
  full_name: Type.String(),
  owner: SimpleUser,
  private: Type.Boolean(),
  html_url: Type.String(),
  url: Type.String(),
  default_branch: Type.String(),
});
