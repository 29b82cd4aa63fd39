import { Type } from '@sinclair/typebox';
import { BoolParam, ListParam, TextParam, FieldSchema } from './common.js';
import { User } from './users.js';
import { Status, IssueType, Project } from './projects.js';
import { Comment } from './comments.js';

/**
 * Issues: the view's and the writes' parameters and bodies, and the IssueBean (./common.ts says
 * how the schemas are used).
 */

export const IssueParams = Type.Object({ issueIdOrKey: Type.String({ maxLength: 200 }) });

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

export const TransitionsQuery = Type.Object({
  expand: Type.Optional(ListParam),
  transitionId: Type.Optional(TextParam),
  skipRemoteOnlyCondition: Type.Optional(BoolParam),
  includeUnavailableTransitions: Type.Optional(BoolParam),
  sortByOpsBarAndStatus: Type.Optional(BoolParam),
});

/** IssueUpdateDetails (create and edit): `fields` by field id; `update` operations are refused by the domain. */
export const IssueBody = Type.Object(
  {
    fields: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { 'x-expects': 'a JSON object of field values' })),
    update: Type.Optional(Type.Unknown()),
    transition: Type.Optional(Type.Unknown()),
    historyMetadata: Type.Optional(Type.Unknown()),
    properties: Type.Optional(Type.Unknown()),
  },
  { 'x-example': '{"fields": {"project": {"key": "ABC"}, "issuetype": {"name": "Task"}, "summary": "…"}}' },
);

/** User: `{"accountId": "…"}` assigns, `null` unassigns. */
export const AssigneeBody = Type.Object(
  {
    accountId: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()], { 'x-expects': 'an account id or null' })),
  },
  { 'x-example': '{"accountId": "<account id>"} (or null to unassign)' },
);

/** IssueUpdateDetails as doTransition reads it. */
export const TransitionBody = Type.Object(
  {
    transition: Type.Optional(
      Type.Object({ id: Type.Optional(Type.Unknown()) }, { 'x-expects': 'a JSON object such as {"id": "<id from GET …/transitions>"}' }),
    ),
    fields: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { 'x-expects': 'a JSON object of field values' })),
    update: Type.Optional(Type.Unknown()),
    historyMetadata: Type.Optional(Type.Unknown()),
    properties: Type.Optional(Type.Unknown()),
  },
  { 'x-example': '{"transition": {"id": "<id from GET …/transitions>"}}' },
);

export const Created = Type.Object({ id: Type.String(), key: Type.String(), self: Type.String() });

export const Transition = Type.Object({
  id: Type.String(),
  name: Type.String(),
  to: Status,
  hasScreen: Type.Boolean(),
  isGlobal: Type.Boolean(),
  isInitial: Type.Boolean(),
  isAvailable: Type.Boolean(),
  isConditional: Type.Boolean(),
});

export const Transitions = Type.Object({ expand: Type.String(), transitions: Type.Array(Transition) });

const IssueLink = Type.Object({
  id: Type.String(),
  key: Type.String(),
  self: Type.String(),
  fields: Type.Object({ summary: Type.String(), status: Status, issuetype: IssueType }),
});

/** The fields an issue may carry (only those asked for are sent). */
export const IssueFields = Type.Object(
  {
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
    comment: Type.Optional(
      Type.Object({
        comments: Type.Array(Comment),
        self: Type.String(),
        maxResults: Type.Integer(),
        total: Type.Integer(),
        startAt: Type.Integer(),
      }),
    ),
  },
  { additionalProperties: false },
);

export const FieldsMeta = {
  names: Type.Optional(Type.Record(Type.String(), Type.String())),
  schema: Type.Optional(Type.Record(Type.String(), FieldSchema)),
};

/** IssueBean as GET /issue sends it. */
export const Issue = Type.Object({ expand: Type.String(), id: Type.String(), self: Type.String(), key: Type.String(), fields: IssueFields, ...FieldsMeta });
