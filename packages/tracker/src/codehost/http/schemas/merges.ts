import { Type } from '@sinclair/typebox';
import { BODY_MAX } from '../../domain/limits.js';
import { nullable } from './common.js';

/** `PUT …/pulls/{n}/merge`: the merge method (default merge); title, message and the expected head optional. */
export const MergeBody = Type.Object(
  {
    commit_title: Type.Optional(nullable(Type.String({ maxLength: BODY_MAX }))),
    commit_message: Type.Optional(nullable(Type.String({ maxLength: BODY_MAX }))),
    sha: Type.Optional(nullable(Type.String())),
    merge_method: Type.Optional(Type.Unsafe<'merge' | 'squash' | 'rebase' | null>({ type: ['string', 'null'], enum: ['merge', 'squash', 'rebase', null] })),
  },
  { 'x-gh-resource': 'PullRequest' },
);

/** pull-request-merge-result. */
export const MergeResult = Type.Object({ sha: Type.String(), merged: Type.Boolean(), message: Type.String() });
