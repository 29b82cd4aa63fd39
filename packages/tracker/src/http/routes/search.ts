import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../domain/errors.js';
import { publicId } from '../../domain/ids.js';
import { isObject } from '../../domain/issue-input.js';
import { searchIssues, type SearchRequest, type SearchResult } from '../../domain/jql/search.js';
import type { Caller, Tracker } from '../../domain/tracker.js';
import { callerOf } from '../context.js';
import { fieldsMeta, JSON_TYPE, peopleOf, renderIssue, withMembers, type IssueJson } from '../issue-view.js';
import { boolParam, commaList, intParam, listParam, param, type Query } from '../params.js';

const READ = { config: { scope: 'read:jira-work' as const } };

/** SearchAndReconcileRequestBean's properties; the vendor's schema allows no others. */
const BODY_FIELDS = ['jql', 'nextPageToken', 'maxResults', 'fields', 'expand', 'properties', 'fieldsByKeys', 'reconcileIssues'];
/** The vendor accepts at most 50 issue ids to reconcile. */
const MAX_RECONCILE = 50;

export const searchRoutes = (tracker: Tracker) => async (app: FastifyInstance) => {
  // spec §4 endpoint 15: the same search as query parameters
  app.get('/search/jql', READ, async (request, reply) => {
    const q = request.query as Query;
    // Accepted and checked, without effect here: properties, fieldsByKeys, failFast,
    // reconcileIssues (every write is visible to the next search already) and every expand but
    // names and schema.
    boolParam(q, 'fieldsByKeys');
    boolParam(q, 'failFast');
    const token = param(q, 'nextPageToken');
    return reply.type(JSON_TYPE).send(await respond(tracker, callerOf(request), {
      jql: param(q, 'jql') ?? '',
      maxResults: param(q, 'maxResults') === undefined ? undefined : intParam(q, 'maxResults', 50, 1, Number.MAX_SAFE_INTEGER),
      fields: listParam(q, 'fields'),
      nextPageToken: token === '' ? undefined : token,
    }, listParam(q, 'expand')));
  });

  // spec §4 endpoint 15: SearchAndReconcileRequestBean → SearchAndReconcileResults
  app.post('/search/jql', READ, async (request, reply) => {
    const { expand, ...req } = parseBody(request.body);
    return reply.type(JSON_TYPE).send(await respond(tracker, callerOf(request), req, expand));
  });
};

/** SearchAndReconcileResults as JSON text: the issues are rendered as text (issue-view.ts). */
async function respond(tracker: Tracker, caller: Caller, req: SearchRequest, expand: string[] | undefined): Promise<string> {
  const result = await searchIssues(tracker, caller, req);
  const issues = await render(tracker, caller, result);
  return withMembers(`{"issues":[${issues.map((i) => i.text).join(',')}]}`, {
    ...(result.nextPageToken !== undefined ? { nextPageToken: result.nextPageToken } : {}),
    isLast: result.nextPageToken === undefined,
    // `names` and `schema` cover the fields the page's issues carry.
    ...fieldsMeta(issues.flatMap((i) => i.present), expand),
  });
}

/** `{id}` by default (the operation's documented default); with fields, each issue as GET /issue renders it. */
async function render(tracker: Tracker, caller: Caller, result: SearchResult): Promise<IssueJson[]> {
  const { fields } = result;
  if (fields === null) return result.issues.map((a) => ({ text: JSON.stringify({ id: publicId(a.issue.id) }), present: [] }));
  // Everyone the page's issues name, in one read rather than one per issue.
  const known = await tracker.users(result.issues.flatMap((a) => peopleOf(a.issue, fields)));
  return Promise.all(result.issues.map((a) => renderIssue(tracker, caller, a, fields, known)));
}

function parseBody(body: unknown): SearchRequest & { expand: string[] | undefined } {
  const b = body === undefined ? {} : body;
  if (!isObject(b)) throw new ApiError(400, ['The request body must be a JSON object such as {"jql": "project = ABC", "maxResults": 50}.']);
  for (const key of Object.keys(b)) {
    if (!BODY_FIELDS.includes(key)) throw new ApiError(400, [`Unrecognized field "${key.slice(0, 60)}" in the request body. Known fields: ${BODY_FIELDS.join(', ')}.`]);
  }
  const absent = (v: unknown) => v === undefined || v === null;
  const check = (name: string, ok: boolean, what: string) => {
    if (!absent(b[name]) && !ok) throw new ApiError(400, [`'${name}' must be ${what}.`]);
  };
  const isStrings = (v: unknown) => Array.isArray(v) && v.every((x) => typeof x === 'string');
  check('jql', typeof b.jql === 'string', 'a string');
  check('nextPageToken', typeof b.nextPageToken === 'string', 'a string (the nextPageToken of the previous page)');
  check('maxResults', Number.isInteger(b.maxResults), 'an integer');
  check('fields', isStrings(b.fields), 'an array of field names');
  check('expand', typeof b.expand === 'string', 'a comma-separated string');
  check('properties', isStrings(b.properties), 'an array of property keys');
  check('fieldsByKeys', typeof b.fieldsByKeys === 'boolean', 'true or false');
  check('reconcileIssues', Array.isArray(b.reconcileIssues) && b.reconcileIssues.every((x) => Number.isInteger(x)), 'an array of issue ids (integers)');
  if (Array.isArray(b.reconcileIssues) && b.reconcileIssues.length > MAX_RECONCILE) {
    throw new ApiError(400, [`'reconcileIssues' accepts at most ${MAX_RECONCILE} issue ids.`]);
  }
  return {
    jql: absent(b.jql) ? '' : (b.jql as string),
    maxResults: absent(b.maxResults) ? undefined : (b.maxResults as number),
    fields: absent(b.fields) ? undefined : (b.fields as string[]),
    nextPageToken: absent(b.nextPageToken) || b.nextPageToken === '' ? undefined : (b.nextPageToken as string),
    expand: absent(b.expand) ? undefined : commaList(b.expand as string),
  };
}
