import type { Project, User } from '../domain/model.js';
import type { FieldMeta } from '../domain/catalog.js';
import { ISSUE_TYPES } from '../domain/issue-input.js';
import type { Caller, Tracker } from '../domain/tracker.js';
import { commaList } from './params.js';
import { CATEGORIES, renderIssueType, renderProject, renderUser } from './render.js';

/** JSON shapes of the lookup endpoints (vendor OpenAPI: Project, Priority, StatusCategory, FieldDetails, FieldMetadata). */

/** Parts of a project that GET /project/{key} always sends and GET /project sends on `expand`. */
export type ProjectPart = 'description' | 'lead' | 'issueTypes';
export const PROJECT_PARTS: readonly ProjectPart[] = ['description', 'lead', 'issueTypes'];

export function renderProjectWith(caller: Caller, project: Project, parts: ReadonlySet<ProjectPart>, lead: User | undefined) {
  return {
    ...renderProject(caller, project),
    ...(parts.has('description') ? { description: '' } : {}),
    ...(parts.has('lead') && lead ? { lead: renderUser(caller, lead) } : {}),
    ...(parts.has('issueTypes') ? { issueTypes: ISSUE_TYPES.map((t) => renderIssueType(caller, t.name)) } : {}),
  };
}

/** The parts a client asked for with `expand` (others, such as url or insight, are not kept here). */
export function projectParts(expand: string[] | undefined): Set<ProjectPart> {
  return new Set((commaList(expand) ?? []).filter((p): p is ProjectPart => (PROJECT_PARTS as string[]).includes(p)));
}

/** Projects as GET /project and /project/search list them, with their leads read once for the page. */
export async function renderProjects(tracker: Tracker, caller: Caller, projects: Project[], parts: ReadonlySet<ProjectPart>) {
  const leads = parts.has('lead') ? await tracker.users(projects.flatMap((p) => (p.lead_user_id === null ? [] : [p.lead_user_id]))) : new Map<number, User>();
  return projects.map((p) => renderProjectWith(caller, p, parts, p.lead_user_id === null ? undefined : leads.get(p.lead_user_id)));
}

/** GET /project/{key}: everything, with the lists this tracker keeps none of empty (as Jira sends them). */
export function renderProjectFull(caller: Caller, project: Project, lead: User | undefined) {
  return {
    ...renderProjectWith(caller, project, new Set(PROJECT_PARTS), lead),
    components: [],
    versions: [],
    assigneeType: 'UNASSIGNED',
    roles: {},
  };
}

/** Jira's status categories, "No Category" included (it has no statuses here). */
export function renderStatusCategories(caller: Caller) {
  const all = [{ id: 1, key: 'undefined', colorName: 'medium-gray', name: 'No Category' }, CATEGORIES.new, CATEGORIES.indeterminate, CATEGORIES.done];
  return all.map((c) => ({ self: `${caller.baseUrl}/rest/api/3/statuscategory/${c.id}`, ...c }));
}

/** Jira Cloud's default priority scheme; Medium is the default. */
const PRIORITIES = [
  { id: '1', name: 'Highest', statusColor: '#d04437', icon: 'highest', description: 'This problem will block progress.' },
  { id: '2', name: 'High', statusColor: '#f15c75', icon: 'high', description: 'Serious problem that could block progress.' },
  { id: '3', name: 'Medium', statusColor: '#f79232', icon: 'medium', description: 'Has the potential to affect progress.' },
  { id: '4', name: 'Low', statusColor: '#707070', icon: 'low', description: 'Minor problem or easily worked around.' },
  { id: '5', name: 'Lowest', statusColor: '#999999', icon: 'lowest', description: 'Trivial problem with little or no impact on progress.' },
] as const;

export function renderPriorities(caller: Caller) {
  return PRIORITIES.map((p) => ({
    self: `${caller.baseUrl}/rest/api/3/priority/${p.id}`,
    statusColor: p.statusColor,
    description: p.description,
    iconUrl: `${caller.baseUrl}/images/icons/priorities/${p.icon}.svg`,
    name: p.name,
    id: p.id,
    isDefault: p.name === 'Medium',
  }));
}

/** FieldCreateMetadata (createmeta) keeps `fieldId`; FieldMetadata (editmeta) has none. */
export const renderCreateField = (field: FieldMeta) => ({ ...field });
export function renderEditField(field: FieldMeta) {
  const { fieldId: _id, ...rest } = field;
  return rest;
}
