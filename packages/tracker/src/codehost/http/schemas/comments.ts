import { Type } from '@sinclair/typebox';
import { BODY_MAX } from '../../domain/limits.js';
import { Paging, SimpleUser } from './common.js';

/** `GET …/issues/{n}/comments`: `since` (a time; comments updated at or after it) and paging. */
export const ListCommentsQuery = Type.Object({ since: Type.Optional(Type.String({ format: 'timestamp' })), ...Paging }, { 'x-gh-resource': 'IssueComment' });

/** `POST …/issues/{n}/comments`: a non-empty body. */
export const CreateCommentBody = Type.Object(
  { body: Type.String({ minLength: 1, maxLength: BODY_MAX, 'x-gh-missing': true, 'x-gh-too-long': `Body is too long (maximum is ${BODY_MAX} characters)` }) },
  { 'x-gh-resource': 'IssueComment' },
);

/** issue-comment. */
export const IssueComment = Type.Object({
  id: Type.Integer(),
  node_id: Type.String(),
  url: Type.String(),
  html_url: Type.String(),
  body: Type.String(),
  user: SimpleUser,
  created_at: Type.String(),
  updated_at: Type.String(),
  issue_url: Type.String(),
});
