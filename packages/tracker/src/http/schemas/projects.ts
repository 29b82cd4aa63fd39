import { Type } from '@sinclair/typebox';
import { oneOf, CountParam, ListParam, TextParam, Paging, AvatarUrls } from './common.js';
import { User } from './users.js';

/**
 * Projects and their catalogue: statuses, issue types, the project shapes and lookups (./common.ts
 * says how the schemas are used).
 */

export const ProjectParams = Type.Object({ projectIdOrKey: Type.String({ maxLength: 200 }) });

export const ProjectSearchQuery = Type.Object({
  ...Paging,
  // Orders this tracker has no data for (issue counts, categories…) fall back to the key.
  orderBy: Type.Optional(
    oneOf([
      'key',
      '+key',
      '-key',
      'name',
      '+name',
      '-name',
      'category',
      '+category',
      '-category',
      'issueCount',
      '+issueCount',
      '-issueCount',
      'lastIssueUpdatedDate',
      '+lastIssueUpdatedDate',
      '-lastIssueUpdatedDate',
      'owner',
      '+owner',
      '-owner',
      'archivedDate',
      '+archivedDate',
      '-archivedDate',
      'deletedDate',
      '+deletedDate',
      '-deletedDate',
    ]),
  ),
  query: Type.Optional(TextParam),
  keys: Type.Optional(ListParam),
  id: Type.Optional(ListParam),
  expand: Type.Optional(ListParam),
  typeKey: Type.Optional(TextParam),
  categoryId: Type.Optional(TextParam),
  action: Type.Optional(TextParam),
  status: Type.Optional(ListParam),
  properties: Type.Optional(ListParam),
  propertyQuery: Type.Optional(TextParam),
});

export const ProjectListQuery = Type.Object({ expand: Type.Optional(ListParam), recent: Type.Optional(CountParam), properties: Type.Optional(ListParam) });

export const StatusCategory = Type.Object({ self: Type.String(), id: Type.Integer(), key: Type.String(), colorName: Type.String(), name: Type.String() });

export const Status = Type.Object({
  self: Type.String(),
  description: Type.String(),
  iconUrl: Type.String(),
  name: Type.String(),
  id: Type.String(),
  statusCategory: StatusCategory,
});

export const IssueType = Type.Object({
  self: Type.String(),
  id: Type.String(),
  description: Type.String(),
  iconUrl: Type.String(),
  name: Type.String(),
  subtask: Type.Boolean(),
  avatarId: Type.Integer(),
  hierarchyLevel: Type.Integer(),
});

const ProjectBase = {
  expand: Type.String(),
  self: Type.String(),
  id: Type.String(),
  key: Type.String(),
  name: Type.String(),
  avatarUrls: AvatarUrls,
  projectTypeKey: Type.String(),
  simplified: Type.Boolean(),
  style: Type.String(),
  isPrivate: Type.Boolean(),
  properties: Type.Object({}),
};

export const Project = Type.Object({
  ...ProjectBase,
  description: Type.Optional(Type.String()),
  lead: Type.Optional(User),
  issueTypes: Type.Optional(Type.Array(IssueType)),
});

export const ProjectFull = Type.Object({
  ...Project.properties,
  components: Type.Array(Type.Unknown()),
  versions: Type.Array(Type.Unknown()),
  assigneeType: Type.String(),
  roles: Type.Object({}),
});

export const ProjectPage = Type.Object({
  self: Type.String(),
  nextPage: Type.Optional(Type.String()),
  maxResults: Type.Integer(),
  startAt: Type.Integer(),
  total: Type.Integer(),
  isLast: Type.Boolean(),
  values: Type.Array(Project),
});

export const IssueTypeWithStatus = Type.Object({
  self: Type.String(),
  id: Type.String(),
  name: Type.String(),
  subtask: Type.Boolean(),
  statuses: Type.Array(Status),
});
