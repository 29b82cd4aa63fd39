import { Type } from '@sinclair/typebox';
import { ListParam, TextParam, Paging } from './common.js';
import { User } from './users.js';

/**
 * Comments: their parameters, body and reply shapes (./common.ts says how the schemas are used).
 */

export const CommentParams = Type.Object({ issueIdOrKey: Type.String({ maxLength: 200 }), id: Type.String({ maxLength: 50 }) });

/** Get comment's query: `expand` (the vendor's `renderedBody`) is accepted and checked, without effect. */
export const CommentQuery = Type.Object({ expand: Type.Optional(ListParam) });

export const CommentsQuery = Type.Object({ ...Paging, orderBy: Type.Optional(TextParam), expand: Type.Optional(ListParam) });

/** Rich text (description, comment body): an ADF document, checked node by node in the domain (@jst/adf). */
const Adf = Type.Unknown();

/** Comment: `body` (ADF) and an optional visibility. */
export const CommentBody = Type.Object(
  {
    body: Type.Optional(Adf),
    visibility: Type.Optional(Type.Unknown()),
    properties: Type.Optional(Type.Unknown()),
  },
  { 'x-example': '{"body": <ADF document>}' },
);

export const Comment = Type.Object({
  self: Type.String(),
  id: Type.String(),
  author: Type.Optional(User),
  body: Type.Unknown(),
  updateAuthor: Type.Optional(User),
  created: Type.String(),
  updated: Type.String(),
  jsdPublic: Type.Boolean(),
});

export const CommentPage = Type.Object({ startAt: Type.Integer(), maxResults: Type.Integer(), total: Type.Integer(), comments: Type.Array(Comment) });
