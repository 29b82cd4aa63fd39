import type { IssueAccess } from '../domain/access.js';
import { ALL_FIELDS, FIELD_META, selectFields, type FieldName, type FieldSchema } from '../domain/fields.js';
import { jiraDate, publicId } from '../domain/ids.js';
import type { Issue, User } from '../domain/model.js';
import { commentsOf, parentOf, subtasksOf } from '../domain/related.js';
import { COMMENT_PAGE_MAX } from '../domain/limits.js';
import type { Caller, Tracker } from '../domain/tracker.js';
import { commaList } from './params.js';
import { issueSelf, renderComment, renderIssueType, renderProject, renderStatus, renderUserDetails } from './render.js';

const EXPAND = 'renderedFields,names,schema,operations,editmeta,changelog,versionedRepresentations';

/** The people an issue's selected fields name (comment authors aside). */
export function peopleOf(issue: Issue, fields: Set<FieldName>): number[] {
  const ids: number[] = [];
  if (fields.has('assignee') && issue.assignee_id !== null) ids.push(issue.assignee_id);
  if (fields.has('reporter')) ids.push(issue.reporter_id);
  if (fields.has('creator')) ids.push(issue.creator_id);
  return ids;
}

/**
 * An issue as GET /issue answers it, with only the selected fields. Related rows (people,
 * parent, sub-tasks, comments) are read only when a selected field needs them; `known` holds
 * people already read (a search page reads everyone its issues name in one query).
 */
export async function renderIssue(tracker: Tracker, caller: Caller, access: IssueAccess, fields: Set<FieldName>, known?: ReadonlyMap<number, User>) {
  const { issue, project } = access;
  const wants = (f: FieldName) => fields.has(f);
  const subtasks = wants('subtasks') ? await subtasksOf(tracker, issue) : [];
  const parent = wants('parent') ? await parentOf(tracker, issue) : undefined;
  const comments = wants('comment') ? await commentsOf(tracker, issue, { startAt: 0, maxResults: COMMENT_PAGE_MAX, descending: false }) : undefined;

  const userIds = peopleOf(issue, fields);
  for (const c of comments?.rows ?? []) userIds.push(c.author_id);
  const users = new Map<number, User>(known);
  const unknown = userIds.filter((id) => !users.has(id));
  if (unknown.length > 0) for (const [id, u] of await tracker.users(unknown)) users.set(id, u);
  const person = (id: number | null) => {
    const u = id === null ? undefined : users.get(id);
    return u ? renderUserDetails(caller, u) : null;
  };
  const link = async (row: Issue) => ({
    id: publicId(row.id),
    key: row.key,
    self: issueSelf(caller, row),
    fields: {
      summary: row.summary,
      status: renderStatus(caller, await tracker.statusById(caller.site.id, row.status_id)),
      issuetype: renderIssueType(caller, row.issue_type),
    },
  });

  const out: Record<string, unknown> = {};
  for (const f of fields) {
    switch (f) {
      case 'summary': out.summary = issue.summary; break;
      case 'description': out.description = issue.description === null ? null : (JSON.parse(issue.description) as unknown); break;
      case 'issuetype': out.issuetype = renderIssueType(caller, issue.issue_type); break;
      case 'project': out.project = renderProject(caller, project); break;
      case 'status': out.status = renderStatus(caller, await tracker.statusById(caller.site.id, issue.status_id)); break;
      // spec §2: `parent` is present only when the issue has one.
      case 'parent': if (parent) out.parent = await link(parent); break;
      case 'subtasks': out.subtasks = await Promise.all(subtasks.map(link)); break;
      case 'assignee': out.assignee = person(issue.assignee_id); break;
      case 'reporter': out.reporter = person(issue.reporter_id); break;
      case 'creator': out.creator = person(issue.creator_id); break;
      case 'created': out.created = jiraDate(issue.created_at); break;
      case 'updated': out.updated = jiraDate(issue.updated_at); break;
      case 'labels': out.labels = []; break;
      case 'comment':
        out.comment = {
          comments: comments!.rows.map((c) => renderComment(caller, issue, c, users.get(c.author_id))),
          self: `${issueSelf(caller, issue)}/comment`,
          // The vendor's shape: the first page only (GET …/comment pages on); maxResults is what it holds.
          maxResults: comments!.rows.length,
          total: comments!.total,
          startAt: 0,
        };
        break;
    }
  }
  return { expand: EXPAND, id: publicId(issue.id), self: issueSelf(caller, issue), key: issue.key, fields: out };
}

/**
 * `names` and `schema` for the fields present in a response, each only when `expand` asks for it
 * (GET/PUT /issue and the search's top level). Other expand values are accepted and ignored.
 */
export function fieldsMeta(present: Iterable<string>, expand: readonly string[] = []): { names?: Record<string, string>; schema?: Record<string, FieldSchema> } {
  const has = new Set(present);
  const fields = ALL_FIELDS.filter((f) => has.has(f));
  return {
    ...(expand.includes('names') ? { names: Object.fromEntries(fields.map((f) => [f, FIELD_META[f].name])) } : {}),
    ...(expand.includes('schema') ? { schema: Object.fromEntries(fields.map((f) => [f, FIELD_META[f].schema])) } : {}),
  };
}

/** An issue as GET /issue (and PUT /issue?returnIssue=true) answers it: `fields` and `expand` from the query. */
export async function viewIssue(tracker: Tracker, caller: Caller, access: IssueAccess, q: { fields?: string[] | undefined; expand?: string[] | undefined }) {
  const issue = await renderIssue(tracker, caller, access, selectFields(q.fields));
  return { ...issue, ...fieldsMeta(Object.keys(issue.fields), commaList(q.expand)) };
}
