import { Type } from '@sinclair/typebox';
import { ListParam, TextParam, Paging, AvatarUrls } from './common.js';

/**
 * Users: the User shape and the user lookups' parameters (./common.ts says how the schemas are
 * used).
 */

/** User (and UserDetails, which has no locale): the address only to its owner (spec §2). */
export const User = Type.Object({
  self: Type.String(),
  accountId: Type.String(),
  accountType: Type.String(),
  emailAddress: Type.Optional(Type.String()),
  avatarUrls: AvatarUrls,
  displayName: Type.String(),
  active: Type.Boolean(),
  timeZone: Type.String(),
  locale: Type.Optional(Type.String()),
});

export const UserSearchQuery = Type.Object({
  ...Paging,
  query: Type.Optional(TextParam),
  username: Type.Optional(TextParam),
  accountId: Type.Optional(TextParam),
  property: Type.Optional(TextParam),
});

export const AccountQuery = Type.Object(
  { accountId: TextParam, expand: Type.Optional(ListParam) },
  { 'x-example': 'GET /user?accountId=<id> (the accountId from /myself or /user/search)' },
);
