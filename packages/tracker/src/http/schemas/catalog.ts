import { Type } from '@sinclair/typebox';
import { BoolParam, FieldSchema } from './common.js';
import { StatusCategory, IssueType } from './projects.js';

/**
 * The lookups clients make on start-up (routes/catalog.ts): priorities, fields, create and edit
 * metadata, server and tenant info (./common.ts says how the schemas are used).
 */

export const EditMetaQuery = Type.Object({ overrideScreenSecurity: Type.Optional(BoolParam), overrideEditableFlag: Type.Optional(BoolParam) });

export const Priority = Type.Object({
  self: Type.String(),
  statusColor: Type.String(),
  description: Type.String(),
  iconUrl: Type.String(),
  name: Type.String(),
  id: Type.String(),
  isDefault: Type.Boolean(),
});

export const StatusCategoryItem = StatusCategory;

export const FieldDetails = Type.Object({
  id: Type.String(),
  key: Type.String(),
  name: Type.String(),
  custom: Type.Boolean(),
  orderable: Type.Boolean(),
  navigable: Type.Boolean(),
  searchable: Type.Boolean(),
  clauseNames: Type.Array(Type.String()),
  schema: Type.Optional(FieldSchema),
});

const FieldMetadata = {
  key: Type.String(),
  name: Type.String(),
  required: Type.Boolean(),
  operations: Type.Array(Type.String()),
  schema: FieldSchema,
  hasDefaultValue: Type.Boolean(),
};

export const CreateMetaIssueTypes = Type.Object({
  startAt: Type.Integer(),
  maxResults: Type.Integer(),
  total: Type.Integer(),
  issueTypes: Type.Array(IssueType),
});

export const CreateMetaFields = Type.Object({
  startAt: Type.Integer(),
  maxResults: Type.Integer(),
  total: Type.Integer(),
  fields: Type.Array(Type.Object({ fieldId: Type.String(), ...FieldMetadata })),
});

export const EditMeta = Type.Object({ fields: Type.Record(Type.String(), Type.Object(FieldMetadata)) });

export const ServerInfo = Type.Object({
  baseUrl: Type.String(),
  version: Type.String(),
  versionNumbers: Type.Array(Type.Integer()),
  deploymentType: Type.String(),
  buildNumber: Type.Integer(),
  buildDate: Type.String(),
  serverTime: Type.String(),
  scmInfo: Type.String(),
  serverTitle: Type.String(),
});

export const TenantInfo = Type.Object({ cloudId: Type.String() });
