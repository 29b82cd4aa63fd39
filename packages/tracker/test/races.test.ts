import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type DbOptions } from '../src/index.js';
import { stopProcess } from '../../../scripts/lib/local-services.mjs';
import { createTempDatabase, postgresAvailable, type TempDatabase } from '../../../test/support/postgres.js';
import { credentialOf, testSeed, type Who } from '../../../test/support/seed.js';
import { adf, basic } from '../../../test/support/tracker.js';
import { spawnTracker, type TrackerProcess } from '../../../test/support/tracker-process.js';
import { buildTracker } from './support/cli-run.js';

/**
 * Issue 14 item 2: deleting an issue while other requests write to it (a comment, a sub-task, a
 * transition, an assignment, an edit) ends every request in 201/204/404/409 in the vendor's error
 * shape, never a 5xx, and leaves no orphan row, on SQLite (1 and 2 processes on one file) and
 * PostgreSQL (1 and 4 processes on one database).
 */

const ROUNDS = 24;

interface Answer {
  status: number;
  body: any;
}

async function call(api: string, who: Who, method: string, path: string, body?: unknown): Promise<Answer> {
  const { email, token } = credentialOf(who);
  const res = await fetch(`${api}${path}`, {
    method,
    headers: { Accept: 'application/json', Authorization: basic(email, token), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
}

const pause = () => new Promise((resolve) => setTimeout(resolve, Math.random() * 4));
const task = (summary: string) => ({ fields: { project: { key: 'ABC' }, issuetype: { name: 'Task' }, summary } });
const subtask = (parent: string, summary: string) => ({
  fields: { project: { key: 'ABC' }, issuetype: { name: 'Subtask' }, summary, parent: { key: parent } },
});

/** Rows that point at an issue that no longer exists. */
async function orphans(options: DbOptions): Promise<{ comments: number; subtasks: number }> {
  const db = openDb(options);
  try {
    const comments = await sql<{ n: number }>`select count(*) as n from comments c left join issues i on i.id = c.issue_id where i.id is null`.execute(
      db.kysely,
    );
    const subtasks = await sql<{
      n: number;
    }>`select count(*) as n from issues s left join issues p on p.id = s.parent_id where s.parent_id is not null and p.id is null`.execute(db.kysely);
    return { comments: Number(comments.rows[0]!.n), subtasks: Number(subtasks.rows[0]!.n) };
  } finally {
    await db.close();
  }
}

const postgres = await postgresAvailable();
const SETUPS: { name: string; kind: 'sqlite' | 'postgres'; processes: number }[] = [
  { name: 'SQLite, 1 process', kind: 'sqlite', processes: 1 },
  { name: 'SQLite, 2 processes on one file', kind: 'sqlite', processes: 2 },
  ...(postgres
    ? [
        { name: 'PostgreSQL, 1 process', kind: 'postgres' as const, processes: 1 },
        { name: 'PostgreSQL, 4 processes', kind: 'postgres' as const, processes: 4 },
      ]
    : []),
];

describe.each(SETUPS)('ARCHITECTURE §19: writes racing a delete never answer 5xx nor leave orphans ($name)', ({ kind, processes }) => {
  let trackers: TrackerProcess[] = [];
  let db: TempDatabase | undefined;
  let dir: string;
  let store: DbOptions;
  const at = (i: number) => trackers[i % trackers.length]!.api;

  beforeAll(async () => {
    buildTracker();
    dir = mkdtempSync(join(tmpdir(), 'jst-races-'));
    const seedFile = join(dir, 'seed.json');
    writeFileSync(seedFile, JSON.stringify(testSeed()));
    if (kind === 'postgres') db = await createTempDatabase();
    store = db ? { databaseUrl: db.url } : { dataDir: join(dir, 'data') };
    const args = db ? ['--database-url', db.url] : ['--data', join(dir, 'data')];
    // The first process migrates and seeds; the others start over the ready database.
    trackers = [await spawnTracker([...args, '--seed', seedFile])];
    trackers.push(...(await Promise.all(Array.from({ length: processes - 1 }, () => spawnTracker(args)))));
  }, 60_000);

  afterAll(async () => {
    await Promise.all(trackers.map((t) => stopProcess(t.proc)));
    await db?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it(`${ROUNDS} rounds: DELETE (with sub-tasks) against a comment, a sub-task, a transition, an assignment and an edit`, async () => {
    const executor = (await call(at(0), 'executor', 'GET', '/myself')).body.accountId as string;
    const seen: string[] = [];
    let deleted = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const parent = (await call(at(round), 'assigner', 'POST', '/issue', task(`parent ${round}`))).body.key as string;
      const child = (await call(at(round + 1), 'assigner', 'POST', '/issue', subtask(parent, `child ${round}`))).body.key as string;
      await call(at(round + 2), 'executor', 'POST', `/issue/${parent}/comment`, { body: adf('before the race') });
      const transition = (await call(at(round), 'executor', 'GET', `/issue/${parent}/transitions`)).body.transitions.find(
        (t: { to: { name: string } }) => t.to.name === 'In Progress',
      ).id as string;

      const writes: [string, number[], () => Promise<Answer>][] = [
        ['comment', [201, 404, 409], () => call(at(round + 1), 'viewer', 'POST', `/issue/${parent}/comment`, { body: adf(`racing ${round}`) })],
        [
          'comment on the sub-task',
          [201, 404, 409],
          () => call(at(round + 2), 'executor', 'POST', `/issue/${child}/comment`, { body: adf(`racing ${round}`) }),
        ],
        // A parent already gone when the sub-task is checked is the ordinary answer: 400 on errors.parent.
        ['sub-task', [201, 400, 404, 409], () => call(at(round + 3), 'executor', 'POST', '/issue', subtask(parent, `late child ${round}`))],
        ['transition', [204, 404, 409], () => call(at(round + 1), 'executor', 'POST', `/issue/${parent}/transitions`, { transition: { id: transition } })],
        ['assignment', [204, 404, 409], () => call(at(round + 2), 'assigner', 'PUT', `/issue/${parent}/assignee`, { accountId: executor })],
        ['edit', [204, 404, 409], () => call(at(round + 3), 'executor', 'PUT', `/issue/${parent}`, { fields: { summary: `edited ${round}` } })],
      ];
      const remove = (async () => {
        await pause();
        return call(at(round), 'assigner', 'DELETE', `/issue/${parent}?deleteSubtasks=true`);
      })();
      const answers = await Promise.all(
        writes.map(async ([, , send]) => {
          await pause();
          return send();
        }),
      );
      const gone = await remove;

      const wrong = [['delete', [204, 404, 409] as number[], gone] as const, ...writes.map(([what, allowed], i) => [what, allowed, answers[i]!] as const)]
        .filter(
          ([, allowed, a]) =>
            !allowed.includes(a.status) ||
            (a.status >= 400 && !(Array.isArray(a.body?.errorMessages) && typeof a.body?.errors === 'object')) ||
            (a.status === 400 && a.body.errors.parent === undefined),
        )
        .map(([what, , a]) => `round ${round} ${what}: ${a.status} ${JSON.stringify(a.body)}`);
      expect(wrong).toEqual([]);
      seen.push(`delete ${gone.status}`);
      for (const [i, [what]] of writes.entries()) seen.push(`${what} ${answers[i]!.status}`);

      if (gone.status === 204) {
        deleted++;
        // Gone with everything written to it: no sub-task it took along is left behind.
        expect((await call(at(round + 1), 'assigner', 'GET', `/issue/${parent}`)).status).toBe(404);
        expect((await call(at(round + 2), 'assigner', 'GET', `/issue/${child}`)).status).toBe(404);
        const late = answers[2]!;
        if (late.status === 201) expect((await call(at(round), 'assigner', 'GET', `/issue/${late.body.key}`)).status).toBe(404);
      } else {
        expect((await call(at(round + 1), 'assigner', 'GET', `/issue/${parent}`)).status).toBe(200);
      }
    }
    expect(deleted).toBeGreaterThan(0);
    expect(await orphans(store)).toEqual({ comments: 0, subtasks: 0 });
    // What the rounds hit, for the record (the race is real only if some writes lost it).
    const tally = seen.reduce<Record<string, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});
    process.stdout.write(`${kind} ×${processes}: ${JSON.stringify(tally)}\n`);
  }, 120_000);
});
