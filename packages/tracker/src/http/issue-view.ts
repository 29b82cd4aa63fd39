import type { FastifyReply } from 'fastify';
import { ALL_FIELDS, FIELD_META, selectFields, type FieldName, type FieldSchema } from '../domain/fields.js';
import { jiraDate, publicId } from '../domain/ids.js';
import { viewIssue, type IssueView } from '../domain/issue-view.js';
import type { Issue } from '../domain/model.js';
import type { Caller, Tracker } from '../domain/tracker.js';
import { after, type Maybe } from '../maybe.js';
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

/** An issue rendered as JSON text, and the fields it carries (`parent` only when there is one). */
export interface IssueJson {
  text: string;
  present: FieldName[];
}

/**
 * An issue as GET /issue answers it, with only the selected fields, as JSON text, from its view
 * (domain/issue-view.ts): no reads, no waiting, the same for the route, the read front and a
 * search page. Stored ADF is spliced in as it is and the parts that depend only on the site
 * address (statuses, issue types, people) are serialised once (render.ts), since a read is mostly
 * rendering.
 */
export function issueJson(caller: Caller, view: IssueView, fields: ReadonlySet<FieldName>): IssueJson {
  const { issue, project, subtasks, parent, comments, users, statuses } = view;
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

/**
 * GET /issue/{issueIdOrKey}'s reply as JSON text, for the route and the front (http/issue-read-front.ts)
 * alike: at once where the store reads at once (SQLite outside a transaction), else a promise. A
 * refusal (the 404 of a missing or hidden issue) is thrown, or rejects, the same way.
 */
export function readIssueView(tracker: Tracker, caller: Caller, idOrKey: string, q: IssueViewParams): Maybe<string> {
  const fields = fieldsOf(q.fields);
  return after(viewIssue(tracker, caller, idOrKey, fields), (view) => viewText(issueJson(caller, view, fields), q));
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
