import { Type, type TSchema } from '@sinclair/typebox';

/**
 * The JSON shapes of the REST interface, after the vendor's OpenAPI (spec/jira-openapi): route
 * inputs (path, query, body), validated before a handler runs (http/validation.ts), and the
 * responses each route declares. The renderers (render.ts, render-catalog.ts, issue-view.ts)
 * build exactly these shapes; test/http/route-schemas.test.ts checks real responses against them.
 */

// ---- Inputs ------------------------------------------------------------------------------------

/** One of a list of strings (JSON Schema `enum`). */
const oneOf = <const T extends readonly string[]>(values: T) => Type.Unsafe<T[number]>({ type: 'string', enum: values });

/** A boolean query parameter, in any letter case (python `jira` sends `True`). */
export const BoolParam = Type.String({ pattern: '^(?:[Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])$', 'x-expects': 'true or false' });
/** Whether a BoolParam that passed validation says true; absent is `dflt`. */
export const isTrue = (value: string | undefined, dflt = false): boolean => (value === undefined ? dflt : value.length === 4);

/** An index or count in a query string; larger than the operation allows is clamped by the route. */
export const CountParam = Type.Integer({ minimum: 0, 'x-expects': 'an integer' });
/** A list parameter: repeated and/or comma-separated (`fields=a,b&fields=c`); split by the route. */
export const ListParam = Type.Array(Type.String({ maxLength: 4000 }), { maxItems: 200 });
/** A text query parameter. */
export const TextParam = Type.String({ maxLength: 4000 });

export const IssueParams = Type.Object({ issueIdOrKey: Type.String({ maxLength: 200 }) });
export const CommentParams = Type.Object({ issueIdOrKey: Type.String({ maxLength: 200 }), id: Type.String({ maxLength: 50 }) });
export const ProjectParams = Type.Object({ projectIdOrKey: Type.String({ maxLength: 200 }) });

const Paging = { startAt: Type.Optional(CountParam), maxResults: Type.Optional(CountParam) };
export const PageQuery = Type.Object(Paging);

/** GET /issue/{key} and PUT /issue/{key}?returnIssue=true: the view's parameters (vendor: getIssue). */
export const IssueViewQuery = Type.Object({
  fields: Type.Optional(ListParam),
  expand: Type.Optional(ListParam),
  properties: Type.Optional(ListParam),
  fieldsByKeys: Type.Optional(BoolParam),
  updateHistory: Type.Optional(BoolParam),
  failFast: Type.Optional(BoolParam),
});
export const EditIssueQuery = Type.Object({
  ...IssueViewQuery.properties,
  notifyUsers: Type.Optional(BoolParam),
  overrideScreenSecurity: Type.Optional(BoolParam),
  overrideEditableFlag: Type.Optional(BoolParam),
  returnIssue: Type.Optional(BoolParam),
});
export const CreateIssueQuery = Type.Object({ updateHistory: Type.Optional(BoolParam) });
export const DeleteIssueQuery = Type.Object({ deleteSubtasks: Type.Optional(BoolParam) });
export const CommentsQuery = Type.Object({ ...Paging, orderBy: Type.Optional(TextParam), expand: Type.Optional(ListParam) });
export const TransitionsQuery = Type.Object({
  expand: Type.Optional(ListParam),
  transitionId: Type.Optional(TextParam),
  skipRemoteOnlyCondition: Type.Optional(BoolParam),
  includeUnavailableTransitions: Type.Optional(BoolParam),
  sortByOpsBarAndStatus: Type.Optional(BoolParam),
});
export const EditMetaQuery = Type.Object({ overrideScreenSecurity: Type.Optional(BoolParam), overrideEditableFlag: Type.Optional(BoolParam) });
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
export const UserSearchQuery = Type.Object({
  ...Paging,
  query: Type.Optional(TextParam),
  username: Type.Optional(TextParam),
  accountId: Type.Optional(TextParam),
  property: Type.Optional(TextParam),
});
export const ProjectSearchQuery = Type.Object({
  ...Paging,
  // Orders this tracker has no data for (issue counts, categories…) fall back to the key.
  orderBy: Type.Optional(oneOf(['key', '+key', '-key', 'name', '+name', '-name', 'category', '+category', '-category', 'issueCount', '+issueCount', '-issueCount',
    'lastIssueUpdatedDate', '+lastIssueUpdatedDate', '-lastIssueUpdatedDate', 'owner', '+owner', '-owner', 'archivedDate', '+archivedDate', '-archivedDate', 'deletedDate', '+deletedDate', '-deletedDate'])),
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
export const AccountQuery = Type.Object({ accountId: TextParam, expand: Type.Optional(ListParam) }, { 'x-example': 'GET /user?accountId=<id> (the accountId from /myself or /user/search)' });

/** Rich text (description, comment body): an ADF document, checked node by node in the domain (@jst/adf). */
const Adf = Type.Unknown();

/** IssueUpdateDetails (create and edit): `fields` by field id; `update` operations are refused by the domain. */
export const IssueBody = Type.Object({
  fields: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { 'x-expects': 'a JSON object of field values' })),
  update: Type.Optional(Type.Unknown()),
  transition: Type.Optional(Type.Unknown()),
  historyMetadata: Type.Optional(Type.Unknown()),
  properties: Type.Optional(Type.Unknown()),
}, { 'x-example': '{"fields": {"project": {"key": "ABC"}, "issuetype": {"name": "Task"}, "summary": "…"}}' });
/** Comment: `body` (ADF) and an optional visibility. */
export const CommentBody = Type.Object({
  body: Type.Optional(Adf),
  visibility: Type.Optional(Type.Unknown()),
  properties: Type.Optional(Type.Unknown()),
}, { 'x-example': '{"body": <ADF document>}' });
/** User: `{"accountId": "…"}` assigns, `null` unassigns. */
export const AssigneeBody = Type.Object({
  accountId: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()], { 'x-expects': 'an account id or null' })),
}, { 'x-example': '{"accountId": "<account id>"} (or null to unassign)' });
/** IssueUpdateDetails as doTransition reads it. */
export const TransitionBody = Type.Object({
  transition: Type.Optional(Type.Object({ id: Type.Optional(Type.Unknown()) }, { 'x-expects': 'a JSON object such as {"id": "<id from GET …/transitions>"}' })),
  fields: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { 'x-expects': 'a JSON object of field values' })),
  update: Type.Optional(Type.Unknown()),
  historyMetadata: Type.Optional(Type.Unknown()),
  properties: Type.Optional(Type.Unknown()),
}, { 'x-example': '{"transition": {"id": "<id from GET …/transitions>"}}' });
/** SearchAndReconcileRequestBean: no other properties, as the vendor's schema says. */
export const SearchBody = Type.Object({
  jql: Type.Optional(Type.Union([Type.String({ maxLength: 100_000 }), Type.Null()], { 'x-expects': 'a string' })),
  nextPageToken: Type.Optional(Type.Union([Type.String({ maxLength: 4000 }), Type.Null()], { 'x-expects': 'a string (the nextPageToken of the previous page)' })),
  maxResults: Type.Optional(Type.Union([Type.Integer(), Type.Null()], { 'x-expects': 'an integer' })),
  fields: Type.Optional(Type.Union([Type.Array(Type.String({ maxLength: 4000 }), { maxItems: 200 }), Type.Null()], { 'x-expects': 'an array of field names' })),
  expand: Type.Optional(Type.Union([Type.String({ maxLength: 4000 }), Type.Null()], { 'x-expects': 'a comma-separated string' })),
  properties: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()], { 'x-expects': 'an array of property keys' })),
  fieldsByKeys: Type.Optional(Type.Union([Type.Boolean(), Type.Null()], { 'x-expects': 'true or false' })),
  reconcileIssues: Type.Optional(Type.Union([Type.Array(Type.Integer(), { maxItems: 50 }), Type.Null()], { 'x-expects': 'an array of at most 50 issue ids (integers)' })),
}, { additionalProperties: false, 'x-optional-body': true, 'x-example': '{"jql": "project = ABC", "maxResults": 50}' });

// ---- Responses ---------------------------------------------------------------------------------

/** ErrorCollection: every refusal. */
export const ErrorCollection = Type.Object({ errorMessages: Type.Array(Type.String()), errors: Type.Record(Type.String(), Type.String()) });

const AvatarUrls = Type.Object({ '48x48': Type.String(), '24x24': Type.String(), '16x16': Type.String(), '32x32': Type.String() });
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
const StatusCategory = Type.Object({ self: Type.String(), id: Type.Integer(), key: Type.String(), colorName: Type.String(), name: Type.String() });
export const Status = Type.Object({
  self: Type.String(), description: Type.String(), iconUrl: Type.String(), name: Type.String(), id: Type.String(), statusCategory: StatusCategory,
});
export const IssueType = Type.Object({
  self: Type.String(), id: Type.String(), description: Type.String(), iconUrl: Type.String(), name: Type.String(),
  subtask: Type.Boolean(), avatarId: Type.Integer(), hierarchyLevel: Type.Integer(),
});
const ProjectBase = {
  expand: Type.String(), self: Type.String(), id: Type.String(), key: Type.String(), name: Type.String(), avatarUrls: AvatarUrls,
  projectTypeKey: Type.String(), simplified: Type.Boolean(), style: Type.String(), isPrivate: Type.Boolean(), properties: Type.Object({}),
};
export const Project = Type.Object({
  ...ProjectBase,
  description: Type.Optional(Type.String()),
  lead: Type.Optional(User),
  issueTypes: Type.Optional(Type.Array(IssueType)),
});
export const ProjectFull = Type.Object({
  ...Project.properties,
  components: Type.Array(Type.Unknown()), versions: Type.Array(Type.Unknown()), assigneeType: Type.String(), roles: Type.Object({}),
});
export const Created = Type.Object({ id: Type.String(), key: Type.String(), self: Type.String() });
export const Comment = Type.Object({
  self: Type.String(), id: Type.String(), author: Type.Optional(User), body: Type.Unknown(), updateAuthor: Type.Optional(User),
  created: Type.String(), updated: Type.String(), jsdPublic: Type.Boolean(),
});
export const CommentPage = Type.Object({ startAt: Type.Integer(), maxResults: Type.Integer(), total: Type.Integer(), comments: Type.Array(Comment) });
export const Transition = Type.Object({
  id: Type.String(), name: Type.String(), to: Status, hasScreen: Type.Boolean(), isGlobal: Type.Boolean(),
  isInitial: Type.Boolean(), isAvailable: Type.Boolean(), isConditional: Type.Boolean(),
});
export const Transitions = Type.Object({ expand: Type.String(), transitions: Type.Array(Transition) });
const FieldSchema = Type.Object({ type: Type.String(), items: Type.Optional(Type.String()), system: Type.String() });
const IssueLink = Type.Object({
  id: Type.String(), key: Type.String(), self: Type.String(),
  fields: Type.Object({ summary: Type.String(), status: Status, issuetype: IssueType }),
});
/** The fields an issue may carry (only those asked for are sent). */
export const IssueFields = Type.Object({
  summary: Type.Optional(Type.String()),
  description: Type.Optional(Type.Unknown()),
  issuetype: Type.Optional(IssueType),
  project: Type.Optional(Project),
  status: Type.Optional(Status),
  parent: Type.Optional(IssueLink),
  subtasks: Type.Optional(Type.Array(IssueLink)),
  assignee: Type.Optional(Type.Union([User, Type.Null()])),
  reporter: Type.Optional(Type.Union([User, Type.Null()])),
  creator: Type.Optional(Type.Union([User, Type.Null()])),
  created: Type.Optional(Type.String()),
  updated: Type.Optional(Type.String()),
  labels: Type.Optional(Type.Array(Type.String())),
  comment: Type.Optional(Type.Object({
    comments: Type.Array(Comment), self: Type.String(), maxResults: Type.Integer(), total: Type.Integer(), startAt: Type.Integer(),
  })),
}, { additionalProperties: false });
const FieldsMeta = {
  names: Type.Optional(Type.Record(Type.String(), Type.String())),
  schema: Type.Optional(Type.Record(Type.String(), FieldSchema)),
};
/** IssueBean as GET /issue sends it. */
export const Issue = Type.Object({ expand: Type.String(), id: Type.String(), self: Type.String(), key: Type.String(), fields: IssueFields, ...FieldsMeta });
/** SearchAndReconcileResults: `{id}` alone unless fields were asked for. */
export const SearchResults = Type.Object({
  issues: Type.Array(Type.Object({
    expand: Type.Optional(Type.String()), id: Type.String(), self: Type.Optional(Type.String()), key: Type.Optional(Type.String()), fields: Type.Optional(IssueFields),
  })),
  nextPageToken: Type.Optional(Type.String()),
  isLast: Type.Boolean(),
  ...FieldsMeta,
});
export const ProjectPage = Type.Object({
  self: Type.String(), nextPage: Type.Optional(Type.String()), maxResults: Type.Integer(), startAt: Type.Integer(),
  total: Type.Integer(), isLast: Type.Boolean(), values: Type.Array(Project),
});
export const IssueTypeWithStatus = Type.Object({ self: Type.String(), id: Type.String(), name: Type.String(), subtask: Type.Boolean(), statuses: Type.Array(Status) });
export const Priority = Type.Object({
  self: Type.String(), statusColor: Type.String(), description: Type.String(), iconUrl: Type.String(), name: Type.String(), id: Type.String(), isDefault: Type.Boolean(),
});
export const StatusCategoryItem = StatusCategory;
export const FieldDetails = Type.Object({
  id: Type.String(), key: Type.String(), name: Type.String(), custom: Type.Boolean(), orderable: Type.Boolean(), navigable: Type.Boolean(),
  searchable: Type.Boolean(), clauseNames: Type.Array(Type.String()), schema: Type.Optional(FieldSchema),
});
const FieldMetadata = {
  key: Type.String(), name: Type.String(), required: Type.Boolean(), operations: Type.Array(Type.String()), schema: FieldSchema, hasDefaultValue: Type.Boolean(),
};
export const CreateMetaIssueTypes = Type.Object({ startAt: Type.Integer(), maxResults: Type.Integer(), total: Type.Integer(), issueTypes: Type.Array(IssueType) });
export const CreateMetaFields = Type.Object({
  startAt: Type.Integer(), maxResults: Type.Integer(), total: Type.Integer(), fields: Type.Array(Type.Object({ fieldId: Type.String(), ...FieldMetadata })),
});
export const EditMeta = Type.Object({ fields: Type.Record(Type.String(), Type.Object(FieldMetadata)) });
export const ServerInfo = Type.Object({
  baseUrl: Type.String(), version: Type.String(), versionNumbers: Type.Array(Type.Integer()), deploymentType: Type.String(), buildNumber: Type.Integer(),
  buildDate: Type.String(), serverTime: Type.String(), scmInfo: Type.String(), serverTitle: Type.String(),
});
export const TenantInfo = Type.Object({ cloudId: Type.String() });

/** A route's responses: its success shape(s), and the ErrorCollection of every refusal. */
export const replies = <T extends Record<number, TSchema>>(ok: T) => ({ ...ok, '4xx': ErrorCollection, '5xx': ErrorCollection });
/** A 204 with no body. */
export const NoContent = Type.Null({ description: 'No content' });
