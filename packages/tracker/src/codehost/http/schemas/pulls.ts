import { Type } from '@sinclair/typebox';
import { BODY_MAX, TITLE_MAX } from '../../domain/limits.js';
import { nullable, oneOf, Paging, Repository, SimpleUser } from './common.js';

/** Pull requests: GitHub's pulls operations' inputs and answers (spec/github-openapi/, operations pulls/*). */

/** `GET …/pulls`: state, head (`owner:branch`), base, sort, direction, paging. */
export const ListPullsQuery = Type.Object(
  {
    state: Type.Optional(oneOf(['open', 'closed', 'all'])),
    head: Type.Optional(Type.String()),
    base: Type.Optional(Type.String()),
    sort: Type.Optional(oneOf(['created', 'updated', 'popularity', 'long-running'])),
    direction: Type.Optional(oneOf(['asc', 'desc'])),
    ...Paging,
  },
  { 'x-gh-resource': 'PullRequest' },
);

/** `POST …/pulls`: a title, a head and a base; body and draft optional (`maintainer_can_modify`, `issue` are accepted and unused). */
export const CreatePullBody = Type.Object(
  {
    title: Type.String({ pattern: '\\S', maxLength: TITLE_MAX, 'x-gh-missing': true }),
    head: Type.String({ minLength: 1, 'x-gh-missing': true }),
    base: Type.String({ minLength: 1, 'x-gh-missing': true }),
    body: Type.Optional(nullable(Type.String({ maxLength: BODY_MAX }))),
    draft: Type.Optional(Type.Unsafe<boolean | null>({ type: ['boolean', 'null'] })),
  },
  { 'x-gh-resource': 'PullRequest' },
);

/** `PATCH …/pulls/{n}`: each of title, body, state and base optional. */
export const UpdatePullBody = Type.Object(
  {
    title: Type.Optional(Type.String({ pattern: '\\S', maxLength: TITLE_MAX })),
    body: Type.Optional(nullable(Type.String({ maxLength: BODY_MAX }))),
    state: Type.Optional(oneOf(['open', 'closed'])),
    base: Type.Optional(Type.String({ minLength: 1 })),
  },
  { 'x-gh-resource': 'PullRequest' },
);

const Branch = Type.Object({ label: Type.String(), ref: Type.String(), sha: Type.String(), user: SimpleUser, repo: Repository });

/** pull-request-simple: one pull request of a listing. */
export const PullSimple = Type.Object({
  url: Type.String(),
  id: Type.Integer(),
  node_id: Type.String(),
  html_url: Type.String(),
  number: Type.Integer(),
  state: Type.String(),
  locked: Type.Boolean(),
  title: Type.String(),
  user: SimpleUser,
  body: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String(),
  updated_at: Type.String(),
  closed_at: Type.Union([Type.String(), Type.Null()]),
  merged_at: Type.Union([Type.String(), Type.Null()]),
  head: Branch,
  base: Branch,
  draft: Type.Boolean(),
});

/** pull-request: one pull request with its diff's figures and mergeability. */
export const PullFull = Type.Intersect([
  PullSimple,
  Type.Object({
    merged: Type.Boolean(),
    mergeable: Type.Union([Type.Boolean(), Type.Null()]),
    mergeable_state: Type.String(),
    comments: Type.Integer(),
    commits: Type.Integer(),
    additions: Type.Integer(),
    deletions: Type.Integer(),
    changed_files: Type.Integer(),
  }),
]);

/** commit: one commit of a pull request. */
export const Commit = Type.Object({
  sha: Type.String(),
  node_id: Type.String(),
  url: Type.String(),
  html_url: Type.String(),
  commit: Type.Object({ message: Type.String() }),
});

/** diff-entry: one file of a pull request's diff (`patch` absent when binary or too large). */
export const DiffEntry = Type.Object({
  sha: Type.Union([Type.String(), Type.Null()]),
  filename: Type.String(),
  status: Type.String(),
  additions: Type.Integer(),
  deletions: Type.Integer(),
  changes: Type.Integer(),
  patch: Type.Optional(Type.String()),
});
