import { Type } from '@sinclair/typebox';
import { BoolParam, ListParam, TextParam } from './common.js';
import { IssueFields, FieldsMeta } from './issues.js';

/**
 * Search (`/search/jql`): its query, body and results (./common.ts says how the schemas are used).
 */

export const SearchQuery = Type.Object({
  jql: Type.Optional(Type.String({ maxLength: 100_000 })),
  nextPageToken: Type.Optional(TextParam),
  maxResults: Type.Optional(Type.Integer({ minimum: 1, 'x-expects': 'an integer' })),
  fields: Type.Optional(ListParam),
  expand: Type.Optional(ListParam),
  properties: Type.Optional(ListParam),
  fieldsByKeys: Type.Optional(BoolParam),
  failFast: Type.Optional(BoolParam),
  reconcileIssues: Type.Optional(ListParam),
});

/** SearchAndReconcileRequestBean: no other properties, as the vendor's schema says. */
export const SearchBody = Type.Object(
  {
    jql: Type.Optional(Type.Union([Type.String({ maxLength: 100_000 }), Type.Null()], { 'x-expects': 'a string' })),
    nextPageToken: Type.Optional(
      Type.Union([Type.String({ maxLength: 4000 }), Type.Null()], { 'x-expects': 'a string (the nextPageToken of the previous page)' }),
    ),
    maxResults: Type.Optional(Type.Union([Type.Integer(), Type.Null()], { 'x-expects': 'an integer' })),
    fields: Type.Optional(
      Type.Union([Type.Array(Type.String({ maxLength: 4000 }), { maxItems: 200 }), Type.Null()], { 'x-expects': 'an array of field names' }),
    ),
    expand: Type.Optional(Type.Union([Type.String({ maxLength: 4000 }), Type.Null()], { 'x-expects': 'a comma-separated string' })),
    properties: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()], { 'x-expects': 'an array of property keys' })),
    fieldsByKeys: Type.Optional(Type.Union([Type.Boolean(), Type.Null()], { 'x-expects': 'true or false' })),
    reconcileIssues: Type.Optional(
      Type.Union([Type.Array(Type.Integer(), { maxItems: 50 }), Type.Null()], { 'x-expects': 'an array of at most 50 issue ids (integers)' }),
    ),
  },
  { additionalProperties: false, 'x-optional-body': true, 'x-example': '{"jql": "project = ABC", "maxResults": 50}' },
);

/** SearchAndReconcileResults: `{id}` alone unless fields were asked for. */
export const SearchResults = Type.Object({
  issues: Type.Array(
    Type.Object({
      expand: Type.Optional(Type.String()),
      id: Type.String(),
      self: Type.Optional(Type.String()),
      key: Type.Optional(Type.String()),
      fields: Type.Optional(IssueFields),
    }),
  ),
  nextPageToken: Type.Optional(Type.String()),
  isLast: Type.Boolean(),
  ...FieldsMeta,
});
