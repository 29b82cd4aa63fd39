import { Type } from '@sinclair/typebox';
import { BODY_MAX } from '../../domain/limits.js';
import { SimpleUser } from './common.js';

/**
 * `POST …/pulls/{n}/reviews`: event, body and commit_id, each optional. This operation's 422
 * carries plain sentences (GitHub's validation_failed_simple), one per field.
 */
export const CreateReviewBody = Type.Object({
  event: Type.Optional(
    Type.Unsafe<'APPROVE' | 'REQUEST_CHANGES' | 'COMMENT' | null>({
      type: ['string', 'null'],
      enum: ['APPROVE', 'REQUEST_CHANGES', 'COMMENT', null],
      'x-gh-sentence': 'event must be one of APPROVE, REQUEST_CHANGES, COMMENT',
    }),
  ),
  body: Type.Optional(
    Type.Unsafe<string | null>({
      type: ['string', 'null'],
      maxLength: BODY_MAX,
      'x-gh-sentence': 'body must be a string',
      'x-gh-too-long': `Body is too long (maximum is ${BODY_MAX} characters)`,
    }),
  ),
  commit_id: Type.Optional(
    Type.Unsafe<string | null>({ type: ['string', 'null'], pattern: '^([0-9a-f]{40}|[0-9a-f]{64})?$', 'x-gh-sentence': 'commit_id must be a commit SHA' }),
  ),
});

/** pull-request-review. */
export const Review = Type.Object({
  id: Type.Integer(),
  node_id: Type.String(),
  user: SimpleUser,
  body: Type.String(),
  state: Type.String(),
  html_url: Type.String(),
  pull_request_url: Type.String(),
  commit_id: Type.String(),
});
