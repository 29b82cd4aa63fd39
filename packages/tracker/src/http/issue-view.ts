import type { FastifyReply } from 'fastify';
import { findIssue, type IssueAccess } from '../domain/access.js';
import { ALL_FIELDS, FIELD_META, selectFields, type FieldName, type FieldSchema } from '../domain/fields.js';
import { jiraDate, publicId } from '../domain/ids.js';
import type { Issue, User } from '../domain/model.js';
import { commentsOf, parentOf, subtasksOf } from '../domain/related.js';
import { COMMENT_PAGE_MAX } from '../domain/limits.js';
import type { Caller, Tracker } from '../domain/tracker.js';
import { commaList } from './params.js';
import { commentJson, issueSelf, issueTypeJson, renderProject, statusJson, userDetailsJson } from './render.js';

/**
 * Sends a view rendered as JSON text as it is, with the content type Fastify gives JSON: the
 * route's response schema documents it (and the tests check replies against it), but its
 * serialiser would parse nothing and only cost time. The reply is taken untyped for that.
 */
export function sendJsonText(reply: FastifyReply, text: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(text);
}

const EXPAND = 'renderedFields,names,schema,operations,editmeta,changelog,versionedRepresentations';

/** The people an issue's selected fields name (comment authors aside). */
export function peopleOf(issue: Issue, fields: ReadonlySet<FieldName>): number[] {
  const ids: number[] = [];
  if (fields.has('assignee') && issue.assignee_id !== null) ids.push(issue.assignee_id);
  if (fields.has('reporter')) ids.push(issue.reporter_id);
  if (fields.has('creator')) ids.push(issue.creator_id);
  return ids;
}

/** An issue rendered as JSON text, and the fields it carries (`parent` only when there is one). */
export interface IssueJson { text: string; present: FieldName[] }

/**
 * An issue as GET /issue answers it, with only the selected fields, as JSON text: stored ADF is
 * spliced in as it is and the parts that depend only on the site address (statuses, issue types,
 * people) are serialised once (render.ts), since a read is mostly rendering. Related rows
 * (people, parent, sub-tasks, comments) are read only when a selected field needs them; `known`
 * holds people already read (a search page reads everyone its issues name in one query).
 */
export async function renderIssue(tracker: Tracker, caller: Caller, access: IssueAccess, fields: ReadonlySet<FieldName>, known?: ReadonlyMap<number, User>): Promise<IssueJson> {
  const { issue, project } = access;
  const siteId = caller.site.id;
  const subtasks = fields.has('subtasks') ? await subtasksOf(tracker, access) : [];
  const parent = fields.has('parent') ? await parentOf(tracker, issue) : undefined;
  const comments = fields.has('comment') ? await commentsOf(tracker, issue, { startAt: 0, maxResults: COMMENT_PAGE_MAX, descending: false }) : undefined;

  const userIds = peopleOf(issue, fields);
  for (const c of comments?.rows ?? []) userIds.push(c.author_id);
  let users = known;
  const unknown = users ? userIds.filter((id) => !users!.has(id)) : userIds;
  if (unknown.length > 0) {
    const read = await tracker.users(unknown);
    if (users) for (const [id, u] of users) read.set(id, u);
    users = read;
  }
  const person = (id: number | null) => {
    const u = id === null ? undefined : users?.get(id);
    return u ? userDetailsJson(caller, u) : 'null';
  };
  // Statuses are nearly always known already: no wait for them then.
  const status = async (row: Issue) => statusJson(caller, tracker.knownStatus(siteId, row.status_id) ?? await tracker.statusById(siteId, row.status_id));
  const knownStatus = (row: Issue) => {
    const known = tracker.knownStatus(siteId, row.status_id);
    return known ? statusJson(caller, known) : undefined;
  };
  const link = (row: Issue, statusText: string) => `{"id":"${publicId(row.id)}","key":${JSON.stringify(row.key)},"self":${JSON.stringify(issueSelf(caller, row))},`
    + `"fields":{"summary":${JSON.stringify(row.summary)},"status":${statusText},"issuetype":${issueTypeJson(caller, row.issue_type)}}}`;

  const parts: string[] = [];
  const present: FieldName[] = [];
  for (const f of fields) {
    let value: string;
    switch (f) {
      case 'summary': value = JSON.stringify(issue.summary); break;
      case 'description': value = issue.description ?? 'null'; break;
      case 'issuetype': value = issueTypeJson(caller, issue.issue_type); break;
      case 'project': value = JSON.stringify(renderProject(caller, project)); break;
      case 'status': value = knownStatus(issue) ?? await status(issue); break;
      // spec §2: `parent` is present only when the issue has one.
      case 'parent': if (!parent) continue; value = link(parent, knownStatus(parent) ?? await status(parent)); break;
      case 'subtasks': {
        const links: string[] = [];
        for (const row of subtasks) links.push(link(row, knownStatus(row) ?? await status(row)));
        value = `[${links.join(',')}]`;
        break;
      }
      case 'assignee': value = person(issue.assignee_id); break;
      case 'reporter': value = person(issue.reporter_id); break;
      case 'creator': value = person(issue.creator_id); break;
      case 'created': value = JSON.stringify(jiraDate(issue.created_at)); break;
      case 'updated': value = JSON.stringify(jiraDate(issue.updated_at)); break;
      case 'labels': value = '[]'; break;
      case 'comment':
        // The vendor's shape: the first page only (GET …/comment pages on); maxResults is what it holds.
        value = `{"comments":[${comments!.rows.map((c) => commentJson(caller, issue, c, users?.get(c.author_id))).join(',')}],`
          + `"self":${JSON.stringify(`${issueSelf(caller, issue)}/comment`)},"maxResults":${comments!.rows.length},"total":${comments!.total},"startAt":0}`;
        break;
    }
    parts.push(`"${f}":${value}`);
    present.push(f);
  }
  const text = `{"expand":"${EXPAND}","id":"${publicId(issue.id)}","self":${JSON.stringify(issueSelf(caller, issue))},"key":${JSON.stringify(issue.key)},"fields":{${parts.join(',')}}}`;
  return { text, present };
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

/** GET /issue/{issueIdOrKey}'s reply as JSON text, for the route and the front (http/issue-read-front.ts) alike. */
export async function readIssueView(tracker: Tracker, caller: Caller, idOrKey: string, q: IssueViewParams): Promise<string> {
  return viewIssue(tracker, caller, await findIssue(tracker, caller, idOrKey), q);
}

/** The view's query parameters the renderer reads (http/schemas.ts, IssueViewQuery). */
export interface IssueViewParams { fields?: string[] | undefined; expand?: string[] | undefined }

/** An issue as GET /issue (and PUT /issue?returnIssue=true) answers it, as JSON text: `fields` and `expand` from the query. */
async function viewIssue(tracker: Tracker, caller: Caller, access: IssueAccess, q: IssueViewParams): Promise<string> {
  const { text, present } = await renderIssue(tracker, caller, access, fieldsOf(q.fields));
  return withMembers(text, fieldsMeta(present, commaList(q.expand)));
}

/** `fields` lists seen lately, parsed: a client asks for the same few lists again and again. */
const FIELD_LISTS_KEPT = 64;
const fieldLists = new Map<string, ReadonlySet<FieldName>>();
function fieldsOf(raw: string[] | undefined): ReadonlySet<FieldName> {
  if (raw === undefined) return selectFields(raw);
  // selectFields splits each part at commas: the parts joined by commas select the same.
  const key = raw.join(',');
  let fields = fieldLists.get(key);
  if (!fields) {
    fields = selectFields(raw);
    if (fieldLists.size >= FIELD_LISTS_KEPT) fieldLists.clear();
    fieldLists.set(key, fields);
  }
  return fields;
}

/** JSON text of an object with more members after its own (none: the text as it is). */
export function withMembers(objectText: string, more: Record<string, unknown>): string {
  const tail = JSON.stringify(more);
  return tail === '{}' ? objectText : `${objectText.slice(0, -1)},${tail.slice(1)}`;
}
