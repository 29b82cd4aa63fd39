import { afterAll, beforeAll } from 'vitest';
import { adf, startTestTracker, type StoreKind, type TestTracker } from '../../../../test/support/tracker.js';
import type { Who } from '../../../../test/support/seed.js';
import { jsonHeaders, request } from './support.js';

/**
 * The issues the hostile properties aim at, re-created whenever a property managed to delete one
 * (a DELETE that was allowed), so every case finds the same kinds of target.
 */
export interface Targets {
  /** ABC Task with a description, an assignee and two comments. */
  task: string;
  /** ABC Task with two sub-tasks (deleteSubtasks matters). */
  parent: string;
  subtask: string;
  /** RST issue: a restricted workflow. */
  rst: string;
  /** SEC issue: the assigner is not a member (404 masking). */
  sec: string;
}

export interface Fixture {
  targets: Targets;
  /** Numeric ids of the targets, for the `/issue/{id}` form. */
  ids: Record<keyof Targets, string>;
  accounts: Record<'assigner' | 'executor' | 'reviewer' | 'viewer' | 'outsider', string>;
  /** Transition ids from To Do in ABC (kanban) and from Backlog in RST. */
  abcTransitions: string[];
  rstTransitions: string[];
  /** Re-creates any target that is gone; cheap when all exist. */
  ensure(): Promise<void>;
  /** Every key and id a path may name. */
  keys(): string[];
}

const richDoc = {
  type: 'doc',
  version: 1,
  content: [
    { type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: 'Scope' }] },
    {
      type: 'bulletList',
      content: [{ type: 'listItem', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'one', marks: [{ type: 'strong' }] }] }] }],
    },
    {
      type: 'paragraph',
      content: [
        { type: 'text', text: 'see ' },
        { type: 'inlineCard', attrs: { url: 'https://example.test/x' } },
      ],
    },
  ],
};
export const RICH_DOC = richDoc;

async function call(t: TestTracker, who: Who, method: string, path: string, body?: unknown) {
  const r = await request({ method, url: `${t.api}${path}`, headers: jsonHeaders(who), ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  if (r.status >= 300) throw new Error(`fixture: ${method} ${path} answered ${r.status} ${r.text.slice(0, 300)}`);
  return r.body as any;
}

export async function createFixture(t: TestTracker): Promise<Fixture> {
  const accounts = {} as Fixture['accounts'];
  for (const who of ['assigner', 'executor', 'reviewer', 'viewer', 'outsider'] as const) accounts[who] = (await call(t, who, 'GET', '/myself')).accountId;
  const create = async (who: Who, fields: Record<string, unknown>) =>
    (await call(t, who, 'POST', '/issue', { fields: { project: { key: 'ABC' }, issuetype: { name: 'Task' }, summary: 'target', ...fields } })) as {
      id: string;
      key: string;
    };

  const targets = {} as Targets;
  const ids = {} as Fixture['ids'];
  const make: Record<keyof Targets, () => Promise<void>> = {
    async task() {
      const c = await create('assigner', { summary: 'The task under attack', description: richDoc, assignee: { accountId: accounts.executor } });
      await call(t, 'executor', 'POST', `/issue/${c.key}/comment`, { body: adf('first comment') });
      await call(t, 'viewer', 'POST', `/issue/${c.key}/comment`, { body: richDoc });
      targets.task = c.key;
      ids.task = c.id;
    },
    async parent() {
      const p = await create('assigner', { summary: 'A parent with sub-tasks' });
      targets.parent = p.key;
      ids.parent = p.id;
      for (const n of [1, 2]) {
        const s = await create('executor', { summary: `sub-task ${n}`, issuetype: { name: 'Subtask' }, parent: { key: p.key } });
        targets.subtask = s.key;
        ids.subtask = s.id;
      }
    },
    async subtask() {
      const s = await create('executor', { summary: 'sub-task again', issuetype: { name: 'Subtask' }, parent: { key: targets.parent } });
      targets.subtask = s.key;
      ids.subtask = s.id;
    },
    async rst() {
      const c = await create('assigner', { project: { key: 'RST' }, summary: 'Restricted flow issue' });
      targets.rst = c.key;
      ids.rst = c.id;
    },
    async sec() {
      const c = await create('outsider', { project: { key: 'SEC' }, summary: 'Secret issue' });
      targets.sec = c.key;
      ids.sec = c.id;
    },
  };
  for (const name of ['task', 'parent', 'rst', 'sec'] as const) await make[name]();

  const transitionsOf = async (key: string) =>
    ((await call(t, 'assigner', 'GET', `/issue/${key}/transitions`)).transitions as { id: string }[]).map((x) => x.id);
  const abcTransitions = await transitionsOf(targets.task);
  const rstTransitions = await transitionsOf(targets.rst);

  const exists = async (key: string, who: Who) =>
    (await request({ method: 'GET', url: `${t.api}/issue/${key}?fields=summary`, headers: jsonHeaders(who) })).status === 200;

  return {
    targets,
    ids,
    accounts,
    abcTransitions,
    rstTransitions,
    async ensure() {
      for (const name of ['task', 'parent', 'subtask', 'rst', 'sec'] as const) {
        if (!(await exists(targets[name], name === 'sec' ? 'outsider' : 'assigner'))) {
          if (name === 'subtask' && !(await exists(targets.parent, 'assigner'))) continue; // made with the parent
          await make[name]();
        }
      }
    },
    keys: () => [...Object.values(targets), ...Object.values(ids)],
  };
}

/**
 * The set-up every hostile suite shares: a tracker on `kind` with the fixture created in it before
 * the suite's tests, closed after them. `use` receives both once they exist.
 */
export function trackerWithFixture(kind: StoreKind, use: (t: TestTracker, fx: Fixture) => void): void {
  let t: TestTracker | undefined;
  beforeAll(async () => {
    t = await startTestTracker(kind);
    use(t, await createFixture(t));
  });
  afterAll(async () => {
    await t?.close();
  });
}
