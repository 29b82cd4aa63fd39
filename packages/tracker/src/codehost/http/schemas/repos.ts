import { Type } from '@sinclair/typebox';
import { Repository, SimpleUser } from './common.js';

/** `GET /user` (private-user) and `GET /repos/{owner}/{repo}` (full-repository). */
export const PrivateUser = Type.Intersect([SimpleUser, Type.Object({ name: Type.Union([Type.String(), Type.Null()]), created_at: Type.String() })]);
export const FullRepository = Type.Intersect([Repository, Type.Object({ permissions: Type.Optional(Type.Record(Type.String(), Type.Boolean())) })]);
