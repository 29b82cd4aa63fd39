import fc from 'fast-check';
import { expect } from 'vitest';
import type { Who } from '../../../../test/support/seed.js';
import { adf, type TestTracker } from '../../../../test/support/tracker.js';
import { RICH_DOC, type Fixture, type Targets } from './fixture.js';
import { anyJson, jsonHeaders, wellFormed, jsonMutation, jsonText, mutate, observableState, sendChecked, type RawReply } from './support.js';

/**
 * The write routes of spec §4 as data: how to address them and which bodies are valid, so one
 * property ("refused writes change nothing, nothing is a 5xx") runs over each of them.
 */
export interface WriteRoute {
  name: string;
  method: 'POST' | 'PUT' | 'DELETE';
  /** `{k}` is replaced by the target issue's key or id. */
  path: string;
  valid(fx: Fixture): unknown[];
  /** Extra query strings a case may add (the route's own parameters). */
  queries?: string[];
  /** Checks on an accepted write (that it took effect as acknowledged). */
  accepted?(t: TestTracker, fx: Fixture, r: RawReply, body: unknown, who: Who): Promise<void>;
}

export const WHO: Who[] = ['assigner', 'assigner', 'assigner', 'executor', 'reviewer', 'viewer', 'outsider', 'scopedRead', 'scopedAll'];

export const ROUTES: Record<string, WriteRoute> = {
  create: {
    name: 'POST /issue',
    method: 'POST',
    path: '/issue',
    queries: ['updateHistory=true', 'updateHistory=maybe'],
    valid: (fx) => [
      { fields: { project: { key: 'ABC' }, issuetype: { name: 'Task' }, summary: 'created by a property' } },
      {
        fields: {
          project: { key: 'ABC' },
          issuetype: { name: 'Task' },
          summary: 'with everything',
          description: RICH_DOC,
          assignee: { accountId: fx.accounts.executor },
        },
      },
      { fields: { project: { key: 'ABC' }, issuetype: { name: 'Subtask' }, parent: { key: fx.targets.parent }, summary: 'a sub-task' } },
      { fields: { project: { id: '10002' }, issuetype: { id: '10001' }, summary: 'by ids', reporter: { accountId: fx.accounts.reviewer } } },
      { fields: { project: { key: 'RST' }, issuetype: { name: 'Task' }, summary: 'restricted' }, update: {} },
    ],
    async accepted(t, _fx, r, body) {
      expect(r.status).toBe(201);
      const key = (r.body as { key: string }).key;
      const read = await sendChecked({ method: 'GET', url: `${t.api}/issue/${key}?fields=summary`, headers: jsonHeaders('assigner') });
      const sent = (body as { fields: { summary: string } }).fields.summary;
      // An issue acknowledged with 201 exists, whole, with the summary it was sent (a lone
      // surrogate, which has no UTF-8 form, is kept as U+FFFD).
      if (read.status === 200) expect((read.body as { fields: { summary: string } }).fields.summary).toBe(wellFormed(sent));
      else expect(read.status).toBe(404); // created in a project the assigner cannot see (SEC)
    },
  },
  edit: {
    name: 'PUT /issue/{key}',
    method: 'PUT',
    path: '/issue/{k}',
    queries: ['returnIssue=true', 'returnIssue=false', 'notifyUsers=false', 'returnIssue=1', 'overrideScreenSecurity=true'],
    valid: (fx) => [
      { fields: { summary: 'edited by a property' } },
      { fields: { description: RICH_DOC, assignee: { accountId: fx.accounts.reviewer } } },
      { fields: { description: null, assignee: null } },
      { fields: { reporter: { accountId: fx.accounts.executor } } },
      { fields: { summary: 'with an empty update' }, update: {} },
    ],
  },
  delete: {
    name: 'DELETE /issue/{key}',
    method: 'DELETE',
    path: '/issue/{k}',
    queries: ['deleteSubtasks=true', 'deleteSubtasks=false', 'deleteSubtasks=TRUE', 'deleteSubtasks=1', 'deleteSubtasks=true&deleteSubtasks=false'],
    valid: () => [undefined, {}, ''],
  },
  comment: {
    name: 'POST /issue/{key}/comment',
    method: 'POST',
    path: '/issue/{k}/comment',
    queries: ['expand=renderedBody', 'expand=__proto__'],
    valid: () => [{ body: adf('a comment from a property') }, { body: RICH_DOC }, { body: adf('with visibility null'), visibility: null }],
    async accepted(t, _fx, r) {
      expect(r.status).toBe(201);
      const id = (r.body as { id: string }).id;
      const self = (r.body as { self: string }).self;
      const key = /\/issue\/([^/]+)\/comment/.exec(self)![1]!;
      // A comment acknowledged with 201 is on the issue: the newest one (cases run one at a time).
      const list = await sendChecked({ method: 'GET', url: `${t.api}/issue/${key}/comment?orderBy=-created&maxResults=1`, headers: jsonHeaders('outsider') });
      const mine =
        list.status === 200
          ? list
          : await sendChecked({ method: 'GET', url: `${t.api}/issue/${key}/comment?orderBy=-created&maxResults=1`, headers: jsonHeaders('assigner') });
      expect((mine.body as { comments: { id: string }[] }).comments.map((c) => c.id)).toEqual([id]);
    },
  },
  assign: {
    name: 'PUT /issue/{key}/assignee',
    method: 'PUT',
    path: '/issue/{k}/assignee',
    valid: (fx) => [{ accountId: fx.accounts.executor }, { accountId: null }, { accountId: '-1' }, { accountId: fx.accounts.assigner, name: 'legacy' }],
  },
  transition: {
    name: 'POST /issue/{key}/transitions',
    method: 'POST',
    path: '/issue/{k}/transitions',
    valid: (fx) =>
      [...fx.abcTransitions, ...fx.rstTransitions]
        .map((id) => ({ transition: { id } }))
        .concat([{ transition: { id: fx.abcTransitions[0]!, name: 'x' }, fields: {} } as never]),
  },
  searchPost: {
    name: 'POST /search/jql',
    method: 'POST',
    path: '/search/jql',
    valid: (fx) => [
      { jql: 'project = ABC', maxResults: 5, fields: ['summary', 'status'] },
      { jql: `key = ${fx.targets.task} OR assignee = currentUser() ORDER BY created DESC`, fields: ['*all'], expand: 'names' },
      { jql: 'summary ~ "task" AND status != Done', nextPageToken: null, fieldsByKeys: false, properties: [], reconcileIssues: [1, 2] },
    ],
  },
};

const targetNames: (keyof Targets)[] = ['task', 'task', 'parent', 'subtask', 'rst', 'sec'];

/** How a case names the target: key, numeric id, lower-case key, or something that is no issue. */
export const targetRef = fc.record({
  target: fc.constantFrom(...targetNames),
  form: fc.constantFrom('key', 'key', 'id', 'lower', 'missing', 'padded'),
});

export function resolveRef(fx: Fixture, ref: { target: keyof Targets; form: string }): string {
  const key = fx.targets[ref.target];
  switch (ref.form) {
    case 'id':
      return fx.ids[ref.target];
    case 'lower':
      return key.toLowerCase();
    case 'missing':
      return `${key.split('-')[0]}-999999`;
    case 'padded':
      return key.replace('-', '-0');
    default:
      return key;
  }
}

/** Arbitrary JSON, and valid bodies with a few mutations (drop, replace, retype, huge, deep, added fields). */
export function bodyArbitrary(valid: unknown[]): fc.Arbitrary<unknown> {
  const seeds = fc.constantFrom(...valid);
  return fc.oneof(
    { weight: 2, arbitrary: anyJson },
    { weight: 6, arbitrary: fc.tuple(seeds, fc.array(jsonMutation, { minLength: 1, maxLength: 4 })).map(([v, ms]) => mutate(v === undefined ? {} : v, ms)) },
    { weight: 1, arbitrary: seeds },
  );
}

/**
 * The property for one write route: whatever the body, caller, address form, target and query,
 * the answer is no 5xx, arrives in time, a 4xx is an ErrorCollection, and a refused write leaves
 * the store (fingerprint) and the targets (as the API shows them) exactly as they were.
 */
export function writeProperty(getT: () => TestTracker, getFx: () => Fixture, route: WriteRoute) {
  const fx0 = getFx();
  return fc.asyncProperty(
    fc.constantFrom(...WHO),
    fc.constantFrom<'gateway' | 'site'>('gateway', 'gateway', 'site'),
    targetRef,
    bodyArbitrary(route.valid(fx0)),
    fc.option(fc.constantFrom(...(route.queries ?? ['x=1'])), { nil: undefined }),
    async (who, form, ref, body, query) => {
      const t = getT();
      const fx = getFx();
      const target = resolveRef(fx, ref);
      const path = route.path.replace('{k}', encodeURIComponent(target)) + (query ? `?${query}` : '');
      const base = form === 'gateway' ? t.api : t.siteApi;
      const watched = [fx.targets.task, fx.targets[ref.target]];
      const before = await observableState(t, watched);
      const text = body === undefined ? undefined : jsonText(body);
      const r = await sendChecked({ method: route.method, url: `${base}${path}`, headers: jsonHeaders(who), ...(text === undefined ? {} : { body: text }) });
      if (r.status >= 400) {
        expect(await observableState(t, watched), `${route.method} ${path} as ${who} → ${r.status} changed the store`).toEqual(before);
      } else {
        if (route.accepted) await route.accepted(t, fx, r, body, who);
        await fx.ensure();
      }
    },
  );
}
