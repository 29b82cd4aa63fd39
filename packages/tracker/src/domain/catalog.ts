import type { ProjectRow, StatusRow } from '../store/store.js';
import type { IssueAccess } from './access.js';
import { notFound } from './errors.js';
import { publicId } from './ids.js';
import { FIELD_META, type FieldName, type FieldSchema } from './fields.js';
import { ISSUE_TYPES, type IssueType } from './issue-input.js';
import { JQL_FIELDS } from './jql/fields.js';
import { can } from './permissions.js';
import { storeOf } from './store-access.js';
import type { Caller, Tracker } from './tracker.js';

/**
 * The lookups clients make on start-up and before a write (GET /project, /status, /field,
 * /issuetype, createmeta, editmeta), as rules over the caller's projects: what a caller cannot
 * browse issues of, it does not see described either.
 */

/** Every project the caller may browse, by key (GET /project has no paging). */
export async function visibleProjectList(tracker: Tracker, caller: Caller): Promise<ProjectRow[]> {
  const page = await storeOf(tracker).projects.forUser(caller.site.id, caller.user.id, { startAt: 0, maxResults: Number.MAX_SAFE_INTEGER });
  return page.rows;
}

/** The statuses of the workflows of the caller's projects, each once, in the site's order. */
export async function visibleStatuses(tracker: Tracker, caller: Caller): Promise<StatusRow[]> {
  const names = new Set((await visibleProjectList(tracker, caller)).flatMap((p) => tracker.workflowOf(p).statuses.map((s) => s.name)));
  return (await tracker.statuses(caller.site.id)).filter((s) => names.has(s.name));
}

/** One status of the caller's projects by id or name (names in any case, as Jira matches them); 404 otherwise. */
export async function visibleStatus(tracker: Tracker, caller: Caller, idOrName: string): Promise<StatusRow> {
  const statuses = await visibleStatuses(tracker, caller);
  const found = statuses.find((s) => publicId(s.id) === idOrName) ?? statuses.find((s) => s.name.toLowerCase() === idOrName.toLowerCase());
  if (!found) throw notFound(`The status with id or name '${idOrName.slice(0, 60)}' does not exist.`);
  return found;
}

/** Issue types are the same in every project: a caller who sees no project sees none. */
export async function visibleIssueTypes(tracker: Tracker, caller: Caller): Promise<readonly IssueType[]> {
  return (await visibleProjectList(tracker, caller)).length > 0 ? ISSUE_TYPES : [];
}

/** Jira's FieldDetails for a system field. */
export interface FieldDetails {
  id: string;
  key: string;
  name: string;
  custom: false;
  orderable: boolean;
  navigable: boolean;
  searchable: boolean;
  clauseNames: string[];
  schema?: FieldSchema;
}

/** The JQL names that search a field (its clause names), from the JQL field table. */
const clauseNamesOf = (id: string, also: readonly string[] = []) => [id, ...also].filter((n) => JQL_FIELDS[n.toLowerCase()] !== undefined);

/** Fields a client may set through an edit or a create (domain/issues.ts accepts exactly these). */
const ORDERABLE: readonly FieldName[] = ['summary', 'description', 'issuetype', 'project', 'parent', 'assignee', 'reporter'];
const CLAUSE_ALIASES: Partial<Record<FieldName, readonly string[]>> = { issuetype: ['type'], created: ['createdDate'], updated: ['updatedDate'] };

/** GET /field: the system fields this tracker keeps, plus the issue key, as Jira lists them. */
export const FIELD_DETAILS: readonly FieldDetails[] = [
  {
    id: 'issuekey',
    key: 'issuekey',
    name: 'Key',
    custom: false,
    orderable: false,
    navigable: true,
    searchable: false,
    clauseNames: ['id', 'issue', 'issuekey', 'key'],
  },
  ...(Object.entries(FIELD_META) as [FieldName, (typeof FIELD_META)[FieldName]][]).map(([id, meta]) => {
    const clauseNames = clauseNamesOf(id, CLAUSE_ALIASES[id]);
    return {
      id,
      key: id,
      name: meta.name,
      custom: false as const,
      orderable: ORDERABLE.includes(id),
      navigable: id !== 'comment',
      searchable: clauseNames.length > 0,
      clauseNames,
      schema: meta.schema,
    };
  }),
];

/** One field of createmeta / editmeta: Jira's FieldMetadata (FieldCreateMetadata adds fieldId). */
export interface FieldMeta {
  fieldId: FieldName;
  key: FieldName;
  name: string;
  required: boolean;
  operations: string[];
  schema: FieldSchema;
  hasDefaultValue: boolean;
}

const metaOf = (id: FieldName, required: boolean): FieldMeta => ({
  fieldId: id,
  key: id,
  name: FIELD_META[id].name,
  required,
  operations: ['set'],
  schema: FIELD_META[id].schema,
  hasDefaultValue: false,
});

/** What a create of this issue type takes (domain/issues.ts CREATE_FIELDS); the reporter only for whom may set it. */
export function createFields(type: IssueType, role: Parameters<typeof can>[0]): FieldMeta[] {
  return [
    metaOf('project', true),
    metaOf('issuetype', true),
    metaOf('summary', true),
    ...(type.subtask ? [metaOf('parent', true)] : []),
    metaOf('description', false),
    metaOf('assignee', false),
    ...(can(role, 'modifyReporter') ? [metaOf('reporter', false)] : []),
  ];
}

/** What an edit by this caller may change (domain/issues.ts EDIT_FIELDS): nothing for a viewer. */
export function editFields(access: IssueAccess): FieldMeta[] {
  if (!can(access.role, 'edit')) return [];
  return [
    metaOf('summary', true),
    metaOf('description', false),
    metaOf('assignee', false),
    ...(can(access.role, 'modifyReporter') ? [metaOf('reporter', false)] : []),
  ];
}

/** The issue type a createmeta path names (by id, as the vendor's path does), or undefined. */
export const issueTypeById = (id: string): IssueType | undefined => ISSUE_TYPES.find((t) => t.id === id);
