import { after, type Maybe } from '../maybe.js';
import type { IssueViewRows, ViewWants } from '../store/store.js';
import { issueRef, visibleTo, type IssueAccess } from './access.js';
import { issueNotFound } from './errors.js';
import type { FieldName } from './fields.js';
import { COMMENT_PAGE_MAX } from './limits.js';
import type { CommentRows, Issue, Project, Status, User } from './model.js';
import type { ProjectRole } from './permissions.js';
import { storeOf } from './store-access.js';
import type { Caller, Tracker } from './tracker.js';

/**
 * The issue view (GET /issue, PUT /issue?returnIssue, a search page's issues): everything its
 * renderer needs (http/issue-view.ts), read once for the selected fields. One piece of code for
 * both ways of answering: at once where the store reads at once (SQLite outside a transaction),
 * waiting where it cannot (PostgreSQL); a `Maybe` (../maybe.ts) says which it was.
 */
export interface IssueView {
  issue: Issue;
  project: Project;
  role: ProjectRole;
  subtasks: readonly Issue[];
  /** Only when `parent` is selected and the issue has one. */
  parent: Issue | undefined;
  /** The first COMMENT_PAGE_MAX comments, oldest first, with the total, when `comment` is selected. */
  comments: CommentRows | undefined;
  /** The people the view names (peopleOf and comment authors), by row id. */
  users: ReadonlyMap<number, User> | undefined;
  /** The statuses it shows (the issue's, its parent's, its sub-tasks'), by id. */
  statuses: ReadonlyMap<number, Status>;
}

/**
 * The view of an issue by key or id; a 404 for one that is missing or that the caller may not see
 * (spec §7), thrown at once or as a rejection, as the read went. Nothing beside the issue is read
 * for a refused one.
 */
export function viewIssue(tracker: Tracker, caller: Caller, idOrKey: string, fields: ReadonlySet<FieldName>): Maybe<IssueView> {
  const ref = issueRef(caller, idOrKey);
  if (!ref) throw issueNotFound();
  const rows = storeOf(tracker).issueView.read(ref, caller.user.id, wantsOf(fields), (found) => visibleTo(caller, found));
  return after(rows, (found) => {
    if (!found) throw issueNotFound();
    return complete(tracker, caller, found, fields, undefined);
  });
}

/** The views of a search page's issues (found and checked already), the people they name read in one go. */
export async function viewIssues(tracker: Tracker, caller: Caller, found: readonly IssueAccess[], fields: ReadonlySet<FieldName>): Promise<IssueView[]> {
  const known = await tracker.users(found.flatMap((a) => peopleOf(a.issue, fields)));
  const wants = wantsOf(fields);
  return Promise.all(found.map(async (a) => complete(tracker, caller, await storeOf(tracker).issueView.related(a, wants), fields, known)));
}

/** The people an issue's selected fields name (comment authors aside). */
function peopleOf(issue: Issue, fields: ReadonlySet<FieldName>): number[] {
  const ids: number[] = [];
  if (fields.has('assignee') && issue.assignee_id !== null) ids.push(issue.assignee_id);
  if (fields.has('reporter')) ids.push(issue.reporter_id);
  if (fields.has('creator')) ids.push(issue.creator_id);
  return ids;
}

/** What the selected fields show beside the issue (the store reads only that). */
const wantsOf = (fields: ReadonlySet<FieldName>): ViewWants => ({
  subtasks: fields.has('subtasks'),
  parent: fields.has('parent'),
  comments: fields.has('comment') ? COMMENT_PAGE_MAX : 0,
});

/** The rows read, with the people and statuses they name; `known` holds people already read. */
function complete(
  tracker: Tracker,
  caller: Caller,
  rows: IssueViewRows,
  fields: ReadonlySet<FieldName>,
  known: ReadonlyMap<number, User> | undefined,
): Maybe<IssueView> {
  const { issue, parent, subtasks, comments } = rows;
  const unknown = peopleOf(issue, fields);
  for (const c of comments?.rows ?? []) unknown.push(c.author_id);
  const toRead = known ? unknown.filter((id) => !known.has(id)) : unknown;
  const users = toRead.length === 0 ? known : after(tracker.users(toRead), (read) => withKnown(read, known));
  return after(users, (users) =>
    after(statusesOf(tracker, caller.site.id, statusIdsOf(issue, fields, parent, subtasks)), (statuses) => ({
      issue,
      project: rows.project,
      role: rows.role as ProjectRole,
      subtasks,
      parent,
      comments,
      users,
      statuses,
    })),
  );
}

/** `known` and the users read, in one map. */
function withKnown(read: Map<number, User>, known: ReadonlyMap<number, User> | undefined): Map<number, User> {
  if (known) for (const [id, u] of known) read.set(id, u);
  return read;
}

/** The statuses a view shows: the issue's, its parent's and its sub-tasks' (links always carry one). */
function statusIdsOf(issue: Issue, fields: ReadonlySet<FieldName>, parent: Issue | undefined, subtasks: readonly Issue[]): number[] {
  const ids = fields.has('status') ? [issue.status_id] : [];
  if (parent) ids.push(parent.status_id);
  for (const row of subtasks) ids.push(row.status_id);
  return ids;
}

/** The statuses of `ids`: at once when every one is known already (nearly always), else once the site's are read. */
function statusesOf(tracker: Tracker, siteId: number, ids: readonly number[]): Maybe<Map<number, Status>> {
  const statuses = new Map<number, Status>();
  for (const id of ids) {
    const known = tracker.knownStatus(siteId, id);
    if (!known) return readStatuses(tracker, siteId, ids);
    statuses.set(id, known);
  }
  return statuses;
}

async function readStatuses(tracker: Tracker, siteId: number, ids: readonly number[]): Promise<Map<number, Status>> {
  const statuses = new Map<number, Status>();
  for (const id of ids) if (!statuses.has(id)) statuses.set(id, tracker.knownStatus(siteId, id) ?? (await tracker.statusById(siteId, id)));
  return statuses;
}
