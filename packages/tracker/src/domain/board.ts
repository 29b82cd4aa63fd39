import { createHash } from 'node:crypto';
import { projectChangeMarks, subtaskStatuses } from '../store/board.js';
import { projectRoles } from '../store/roles.js';
import { visibleProjects, type VisibleProject } from '../store/search.js';
import type { CommentRow, IssueRow, ProjectRow, StatusRow, Store, UserRow } from '../store/store.js';
import { findIssue } from './access.js';
import { standingFrom } from './conditions.js';
import { notFound } from './errors.js';
import { searchIssues } from './jql/search.js';
import { can, type ProjectRole } from './permissions.js';
import { storeOf } from './store-access.js';
import type { Caller, Tracker } from './tracker.js';
import { availableTransitions, type WorkflowTransition } from './workflow.js';

/**
 * What jst-tracker's board shows (ARCHITECTURE §12), read with the viewer's own rights: only
 * projects the viewer is a member of, issues through the same JQL search as the REST interface,
 * an issue through the same masked lookup (missing and not permitted are both 404).
 */

/** Cards on one board at most; a larger project is narrowed with the filter box. */
export const BOARD_MAX_ISSUES = 1000;
/** Issues a filtered board reads in search pages before it stops looking for more of the project's. */
const BOARD_SCAN_LIMIT = 20 * BOARD_MAX_ISSUES;

export interface Card {
  issue: IssueRow;
  status: StatusRow;
  assignee: UserRow | undefined;
  /** Sub-tasks of this issue that are done, and all of them; null when it has none. */
  progress: { done: number; total: number } | null;
}

export interface Lane {
  /** The parent whose sub-tasks this lane holds; null for the lane of issues without sub-tasks. */
  parent: Card | null;
  /** Cards by status name, in column order. */
  cells: Map<string, Card[]>;
}

export interface Board {
  projects: VisibleProject[];
  project: VisibleProject | null;
  /** Column names: the workflow's statuses in workflow order (plus any status an issue holds outside it). */
  columns: string[];
  lanes: Lane[];
  /** The filter as typed (empty: the whole project). */
  jql: string;
  /** More issues match than the board shows. */
  truncated: boolean;
  /** The board's version when it was read (see boardVersion). */
  version: string;
}

/**
 * A board without its issues: the projects the caller can see and the one asked for (the first by
 * key when none is), with no columns or cards. What a page shows around a filter it cannot run.
 */
export async function boardFrame(tracker: Tracker, caller: Caller, want: { projectKey?: string | undefined; jql?: string | undefined }): Promise<Board> {
  const projects = (await visibleProjects(storeOf(tracker), caller.user.id)).filter((p) => p.site_id === caller.site.id);
  const jql = (want.jql ?? '').trim();
  const project = want.projectKey ? projects.find((p) => p.key === want.projectKey!.toUpperCase()) : projects[0];
  if (want.projectKey && !project) throw notFound(`Project '${want.projectKey.slice(0, 60)}' does not exist or you do not have permission to see it.`);
  return { projects, project: project ?? null, columns: [], lanes: [], jql, truncated: false, version: '' };
}

/** The board of one project the caller can see (the first one by key when none is asked for). */
export async function loadBoard(tracker: Tracker, caller: Caller, want: { projectKey?: string | undefined; jql?: string | undefined }): Promise<Board> {
  const { projects, project, jql } = await boardFrame(tracker, caller, want);
  if (!project) return { projects, project: null, columns: [], lanes: [], jql, truncated: false, version: '' };
  // Read before the issues, so a change made while they are read shows as a newer version.
  const version = await boardVersion(storeOf(tracker), project);
  const { issues, truncated } = await projectIssues(tracker, caller, project, jql);
  const statuses = new Map((await tracker.statuses(caller.site.id)).map((s) => [s.id, s]));
  const people = await tracker.users(issues.flatMap((i) => (i.assignee_id === null ? [] : [i.assignee_id])));
  const progress = new Map<number, { done: number; total: number }>();
  for (const s of await subtaskStatuses(storeOf(tracker), project.id)) {
    const p = progress.get(s.parent_id) ?? { done: 0, total: 0 };
    p.total++;
    if (statuses.get(s.status_id)?.category === 'done') p.done++;
    progress.set(s.parent_id, p);
  }
  const cards = issues
    .map((issue): Card => ({
      issue,
      status: statuses.get(issue.status_id) ?? { id: issue.status_id, site_id: caller.site.id, name: '?', category: 'new' },
      assignee: issue.assignee_id === null ? undefined : people.get(issue.assignee_id),
      progress: progress.get(issue.id) ?? null,
    }))
    .sort((a, b) => a.issue.number - b.issue.number);

  const columns = tracker.workflowOf(project).statuses.map((s) => s.name);
  for (const c of cards) if (!columns.includes(c.status.name)) columns.push(c.status.name);
  const emptyCells = () => new Map(columns.map((name) => [name, [] as Card[]]));
  const shown = new Set(cards.map((c) => c.issue.id));
  // A parent shown on the board gets a lane of its own (its card first, then its sub-tasks);
  // a sub-task whose parent the filter left out stands among the other issues.
  const laneOf = new Map<number, Lane>();
  const others: Lane = { parent: null, cells: emptyCells() };
  for (const card of cards) {
    if (card.progress && !laneOf.has(card.issue.id)) laneOf.set(card.issue.id, { parent: card, cells: emptyCells() });
  }
  for (const card of cards) {
    const lane =
      laneOf.get(card.issue.id) ?? (card.issue.parent_id !== null && shown.has(card.issue.parent_id) ? laneOf.get(card.issue.parent_id) : undefined) ?? others;
    lane.cells.get(card.status.name)!.push(card);
  }
  return { projects, project, columns, lanes: [...laneOf.values(), others], jql, truncated, version };
}

/**
 * The project's issues for the board: all of them, or those the viewer's JQL matches (the JQL
 * of the search endpoint, with its error messages), in search pages.
 */
async function projectIssues(tracker: Tracker, caller: Caller, project: ProjectRow, jql: string): Promise<{ issues: IssueRow[]; truncated: boolean }> {
  const issues: IssueRow[] = [];
  let token: string | undefined;
  let scanned = 0;
  do {
    const page = await searchIssues(tracker, caller, {
      jql: jql === '' ? `project = ${project.key}` : jql,
      maxResults: BOARD_MAX_ISSUES,
      fields: ['key'],
      nextPageToken: token,
    });
    scanned += page.issues.length;
    for (const a of page.issues) if (a.project.id === project.id) issues.push(a.issue);
    token = page.nextPageToken;
  } while (token !== undefined && issues.length <= BOARD_MAX_ISSUES && scanned < BOARD_SCAN_LIMIT);
  return { issues: issues.slice(0, BOARD_MAX_ISSUES), truncated: issues.length > BOARD_MAX_ISSUES || token !== undefined };
}

/** Remembered versions per store: on SQLite a version is reused until anyone commits (data_version). */
const remembered = new WeakMap<Store, Map<number, { dataVersion: number; version: string }>>();

/**
 * A short text that changes whenever the project's issues or comments change (and when its
 * workflow does): the board's ETag. On SQLite it costs nothing while no one has committed.
 */
export async function boardVersion(store: Store, project: ProjectRow): Promise<string> {
  const dataVersion = store.dataVersion?.();
  let known = remembered.get(store);
  if (!known) remembered.set(store, (known = new Map<number, { dataVersion: number; version: string }>()));
  const hit = known.get(project.id);
  if (dataVersion !== undefined && hit && hit.dataVersion === dataVersion) return hit.version;
  const marks = await projectChangeMarks(store, project.id);
  const version = createHash('sha256')
    .update(`${marks.join('.')}\0${project.workflow}`)
    .digest('base64url')
    .slice(0, 16);
  if (dataVersion !== undefined) {
    if (known.size >= 10_000) known.clear();
    known.set(project.id, { dataVersion, version });
  }
  return version;
}

/** The version of a project the caller can see, by key (404 when it cannot). */
export async function visibleBoardVersion(tracker: Tracker, caller: Caller, projectKey: string): Promise<string> {
  const found = await storeOf(tracker).projects.withRole({ siteId: caller.site.id, key: projectKey }, caller.user.id);
  if (!found || !found.role || found.project.site_id !== caller.site.id)
    throw notFound(`Project '${projectKey.slice(0, 60)}' does not exist or you do not have permission to see it.`);
  return boardVersion(storeOf(tracker), found.project);
}

export interface IssuePage {
  issue: IssueRow;
  project: ProjectRow;
  role: ProjectRole;
  status: StatusRow;
  parent: IssueRow | undefined;
  subtasks: { issue: IssueRow; status: StatusRow }[];
  comments: CommentRow[];
  people: Map<number, UserRow>;
  /** ARCHITECTURE §5 "roles": the user holding each toolkit role in the project (empty when the seed named none). */
  roles: Map<string, number>;
  /** What the viewer may do from here: none without the transition permission. */
  transitions: WorkflowTransition[];
  version: string;
}

/** Comments an issue page shows at most (the newest are kept). */
const PAGE_COMMENTS = 1000;

/** One issue as its page shows it; 404 for an issue the caller cannot see (spec §7 masking). */
export async function loadIssuePage(tracker: Tracker, caller: Caller, key: string): Promise<IssuePage> {
  const { issue, project, role } = await findIssue(tracker, caller, key);
  const store = storeOf(tracker);
  const version = await boardVersion(store, project);
  const [parent, subtasks, comments, roles] = await Promise.all([
    issue.parent_id === null ? undefined : store.issues.byId(issue.parent_id),
    store.issues.subtasksOf(issue.id),
    store.comments.ofIssue(issue.id, { startAt: 0, maxResults: PAGE_COMMENTS, descending: true }),
    projectRoles(store, project.id),
  ]);
  const status = await tracker.statusById(caller.site.id, issue.status_id);
  const people = await tracker.users([issue.reporter_id, ...(issue.assignee_id === null ? [] : [issue.assignee_id]), ...comments.rows.map((c) => c.author_id)]);
  return {
    issue,
    project,
    role,
    status,
    parent,
    version,
    people,
    roles,
    subtasks: await Promise.all(subtasks.map(async (s) => ({ issue: s, status: await tracker.statusById(caller.site.id, s.status_id) }))),
    comments: comments.rows.reverse(),
    // spec §3 rule 5: only the moves the viewer may make (a forged one is refused by the REST interface).
    transitions: can(role, 'transition') ? availableTransitions(tracker.workflowOf(project), status.name, standingFrom(caller, role, roles)) : [],
  };
}
