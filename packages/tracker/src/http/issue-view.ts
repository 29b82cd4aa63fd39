import type { FastifyReply } from 'fastify';
import { findIssue, findIssueNow, type IssueAccess } from '../domain/access.js';
import { ALL_FIELDS, FIELD_META, selectFields, type FieldName, type FieldSchema } from '../domain/fields.js';
import { jiraDate, publicId } from '../domain/ids.js';
import type { CommentRows, Issue, Status, User } from '../domain/model.js';
import { commentsOf, firstCommentsNow, parentOf, parentOfNow, subtasksOf, subtasksOfNow } from '../domain/related.js';
import { COMMENT_PAGE_MAX } from '../domain/limits.js';
import type { Caller, Tracker } from '../domain/tracker.js';
import { commaList } from './params.js';
import { commentJson, issueSelf, issueTypeJson, renderProject, statusJson, userDetailsJson } from './render.js';

/**
 * Sends a view rendered as JSON text as it is, with the content type Fastify gives JSON: the
 * route's response schema documents it (and the tests check replies against it), but its
 * serialiser would parse nothing and only cost time. Any route's reply is taken, whatever its
 * schemas make `send` accept: the text is that reply, already serialised.
 */
export function sendJsonText(reply: TextReply, text: string): TextReply {
  return reply.type('application/json; charset=utf-8').send(text);
}

/** A reply whatever the route's schemas declare (`send` takes any payload): what sendJsonText needs of one. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the reply's own types are the route's, and the text fits none of them
type TextReply = FastifyReply<any, any, any, any, any, any, any, any>;

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
export interface IssueJson {
  text: string;
  present: FieldName[];
}

/** What an issue's view shows beside the issue itself, read before it is rendered (`gather`, `gatherNow`). */
interface Related {
  subtasks: readonly Issue[];
  parent: Issue | undefined;
  comments: CommentRows | undefined;
  /** The people the view names (`peopleOf` and comment authors). */
  users: ReadonlyMap<number, User> | undefined;
  /** The statuses it shows, by id (`statusIdsOf`). */
  statuses: ReadonlyMap<number, Status>;
}

const NO_ISSUES: readonly Issue[] = [];

/** The people a view names that `known` does not hold. */
function peopleToRead(issue: Issue, fields: ReadonlySet<FieldName>, comments: CommentRows | undefined, known: ReadonlyMap<number, User> | undefined): number[] {
  const ids = peopleOf(issue, fields);
  for (const c of comments?.rows ?? []) ids.push(c.author_id);
  return known ? ids.filter((id) => !known.has(id)) : ids;
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

/**
 * The rows a view needs, read only when a selected field needs them; `known` holds people already
 * read (a search page reads everyone its issues name in one query).
 */
async function gather(
  tracker: Tracker,
  caller: Caller,
  access: IssueAccess,
  fields: ReadonlySet<FieldName>,
  known?: ReadonlyMap<number, User>,
): Promise<Related> {
  const { issue } = access;
  const subtasks = fields.has('subtasks') ? await subtasksOf(tracker, access) : NO_ISSUES;
  const parent = fields.has('parent') ? await parentOf(tracker, issue) : undefined;
  const comments = !fields.has('comment')
    ? undefined
    : (access.firstComments ?? (await commentsOf(tracker, issue, { startAt: 0, maxResults: COMMENT_PAGE_MAX, descending: false })));
  const unknown = peopleToRead(issue, fields, comments, known);
  const users = unknown.length > 0 ? withKnown(await tracker.users(unknown), known) : known;
  // Statuses are nearly always known already: no wait for them then.
  const statuses = new Map<number, Status>();
  for (const id of statusIdsOf(issue, fields, parent, subtasks)) {
    if (!statuses.has(id)) statuses.set(id, tracker.knownStatus(caller.site.id, id) ?? (await tracker.statusById(caller.site.id, id)));
  }
  return { subtasks, parent, comments, users, statuses };
}

/**
 * `gather` at once, without waiting, where the store can read so (Tracker.readsNow; ask it
 * first); undefined when something must be read that cannot be read at once (a status not read
 * yet, a long list of people): then `gather`.
 */
function gatherNow(tracker: Tracker, caller: Caller, access: IssueAccess, fields: ReadonlySet<FieldName>): Related | undefined {
  const { issue } = access;
  const subtasks = fields.has('subtasks') ? subtasksOfNow(tracker, access) : NO_ISSUES;
  const parent = fields.has('parent') ? parentOfNow(tracker, issue) : undefined;
  const statuses = new Map<number, Status>();
  for (const id of statusIdsOf(issue, fields, parent, subtasks)) {
    const status = tracker.knownStatus(caller.site.id, id);
    if (!status) return undefined;
    statuses.set(id, status);
  }
  const comments = fields.has('comment') ? firstCommentsNow(tracker, issue, COMMENT_PAGE_MAX) : undefined;
  const unknown = peopleToRead(issue, fields, comments, undefined);
  const users = unknown.length > 0 ? tracker.usersNow(unknown) : undefined;
  if (unknown.length > 0 && !users) return undefined;
  return { subtasks, parent, comments, users, statuses };
}

/**
 * An issue as GET /issue answers it, with only the selected fields, as JSON text: stored ADF is
 * spliced in as it is and the parts that depend only on the site address (statuses, issue types,
 * people) are serialised once (render.ts), since a read is mostly rendering. Related rows
 * (people, parent, sub-tasks, comments) are read only when a selected field needs them; `known`
 * holds people already read (a search page reads everyone its issues name in one query).
 */
export async function renderIssue(
  tracker: Tracker,
  caller: Caller,
  access: IssueAccess,
  fields: ReadonlySet<FieldName>,
  known?: ReadonlyMap<number, User>,
): Promise<IssueJson> {
  return issueText(caller, access, fields, await gather(tracker, caller, access, fields, known));
}

/** The view's JSON text from the rows read (`Related`): no reads, no waiting. */
function issueText(caller: Caller, access: IssueAccess, fields: ReadonlySet<FieldName>, related: Related): IssueJson {
  const { issue, project } = access;
  const { subtasks, parent, comments, users, statuses } = related;
  const person = (id: number | null) => {
    const u = id === null ? undefined : users?.get(id);
    return u ? userDetailsJson(caller, u) : 'null';
  };
  const status = (row: Issue) => statusJson(caller, statuses.get(row.status_id)!);
  const link = (row: Issue) =>
    `{"id":"${publicId(row.id)}","key":${JSON.stringify(row.key)},"self":${JSON.stringify(issueSelf(caller, row))},` +
    `"fields":{"summary":${JSON.stringify(row.summary)},"status":${status(row)},"issuetype":${issueTypeJson(caller, row.issue_type)}}}`;

  const parts: string[] = [];
  const present: FieldName[] = [];
  for (const f of fields) {
    let value: string;
    switch (f) {
      case 'summary':
        value = JSON.stringify(issue.summary);
        break;
      case 'description':
        value = issue.description ?? 'null';
        break;
      case 'issuetype':
        value = issueTypeJson(caller, issue.issue_type);
        break;
      case 'project':
        value = JSON.stringify(renderProject(caller, project));
        break;
      case 'status':
        value = status(issue);
        break;
      // spec §2: `parent` is present only when the issue has one.
      case 'parent':
        if (!parent) continue;
        value = link(parent);
        break;
      case 'subtasks':
        value = `[${subtasks.map(link).join(',')}]`;
        break;
      case 'assignee':
        value = person(issue.assignee_id);
        break;
      case 'reporter':
        value = person(issue.reporter_id);
        break;
      case 'creator':
        value = person(issue.creator_id);
        break;
      case 'created':
        value = JSON.stringify(jiraDate(issue.created_at));
        break;
      case 'updated':
        value = JSON.stringify(jiraDate(issue.updated_at));
        break;
      case 'labels':
        value = '[]';
        break;
      case 'comment':
        // The vendor's shape: the first page only (GET …/comment pages on); maxResults is what it holds.
        value =
          `{"comments":[${comments!.rows.map((c) => commentJson(caller, issue, c, users?.get(c.author_id))).join(',')}],` +
          `"self":${JSON.stringify(`${issueSelf(caller, issue)}/comment`)},"maxResults":${comments!.rows.length},"total":${comments!.total},"startAt":0}`;
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
export function fieldsMeta(
  present: Iterable<string>,
  expand: readonly string[] = [],
): { names?: Record<string, string>; schema?: Record<string, FieldSchema> } {
  const has = new Set(present);
  const fields = ALL_FIELDS.filter((f) => has.has(f));
  return {
    ...(expand.includes('names') ? { names: Object.fromEntries(fields.map((f) => [f, FIELD_META[f].name])) } : {}),
    ...(expand.includes('schema') ? { schema: Object.fromEntries(fields.map((f) => [f, FIELD_META[f].schema])) } : {}),
  };
}

/** GET /issue/{issueIdOrKey}'s reply as JSON text, for the route and the front (http/issue-read-front.ts) alike. */
export async function readIssueView(tracker: Tracker, caller: Caller, idOrKey: string, q: IssueViewParams): Promise<string> {
  const fields = fieldsOf(q.fields);
  // Its first comments come with the issue when the view shows them (one round trip on PostgreSQL).
  const access = await findIssue(tracker, caller, idOrKey, fields.has('comment'));
  return viewText(issueText(caller, access, fields, await gather(tracker, caller, access, fields)), q);
}

/**
 * `readIssueView` at once, without waiting, where the store can read so (Tracker.readsNow;
 * ask it first): the same reads and the same text. Undefined when something must be read that
 * cannot be read at once (see gatherNow): then `readIssueView`. Throws its errors (a 404) as it does.
 */
export function readIssueViewNow(tracker: Tracker, caller: Caller, idOrKey: string, q: IssueViewParams): string | undefined {
  const fields = fieldsOf(q.fields);
  const access = findIssueNow(tracker, caller, idOrKey);
  const related = gatherNow(tracker, caller, access, fields);
  return related && viewText(issueText(caller, access, fields, related), q);
}

/** The view's query parameters the renderer reads (http/schemas/issues.ts, IssueViewQuery). */
export interface IssueViewParams {
  fields?: readonly string[] | undefined;
  expand?: readonly string[] | undefined;
}

/** The issue's text with what `expand` adds (names, schema). */
function viewText({ text, present }: IssueJson, q: IssueViewParams): string {
  return q.expand === undefined ? text : withMembers(text, fieldsMeta(present, commaList(q.expand)));
}

/** `fields` lists seen lately, parsed: a client asks for the same few lists again and again. */
const FIELD_LISTS_KEPT = 64;
const fieldLists = new Map<string, ReadonlySet<FieldName>>();
function fieldsOf(raw: readonly string[] | undefined): ReadonlySet<FieldName> {
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
