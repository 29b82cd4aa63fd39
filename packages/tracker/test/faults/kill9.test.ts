import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempDatabase, type TempDatabase } from '../../../../test/support/postgres.js';
import { credentialOf, testSeed, type Who } from '../../../../test/support/seed.js';
import { basic, storeKinds } from '../../../../test/support/tracker.js';
import { ensureTrackerBuilt, spawnTracker, type TrackerProcess } from '../../../../test/support/tracker-process.js';

/**
 * Issue 4 "Faults": `jst-tracker serve` (the built binary) is killed with SIGKILL at random
 * moments while a stream of concurrent creates, comments and deletes (of parents with sub-tasks)
 * is in flight, then restarted on the same store, several rounds, on SQLite and on PostgreSQL.
 * After every restart: the server starts cleanly; every issue and comment acknowledged with 201
 * is there with all its fields; no key is used twice; the keys of a project that never deletes
 * run ABC-1..ABC-n without a gap (no issue half-created, no number lost); every issue in the
 * store is whole; and each delete of a parent with sub-tasks happened entirely or not at all.
 */

const ROUNDS = Number(process.env.JST_FAULT_ROUNDS ?? 5);
const WORKERS = 12;
const DELETERS = 3;
const SUBTASKS = 4;

interface Child extends TrackerProcess {
  agent: http.Agent;
}

async function startChild(store: string[], seedFile: string): Promise<Child> {
  const t = await spawnTracker(['--seed', seedFile, ...store]);
  return { ...t, agent: new http.Agent({ keepAlive: true, maxSockets: WORKERS + DELETERS }) };
}

interface Reply {
  status: number;
  body: any;
}

/** One call; rejects when the connection breaks (the outcome is then unknown). */
function call(child: Child, who: Who, method: string, path: string, body?: unknown): Promise<Reply> {
  const { email, token } = credentialOf(who);
  const text = body === undefined ? undefined : JSON.stringify(body);
  const url = new URL(`${child.api}${path}`);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        agent: child.agent,
        host: url.hostname,
        port: url.port,
        method,
        path: url.pathname + url.search,
        timeout: 15_000,
        headers: {
          Authorization: basic(email, token),
          Accept: 'application/json',
          ...(text === undefined ? {} : { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('error', reject);
        res.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, body: raw === '' ? undefined : JSON.parse(raw) });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(text);
  });
}

const doc = (text: string) => ({ type: 'doc', version: 1, content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] });

interface AckedIssue {
  key: string;
  summary: string;
  parent: string | null;
  reporter: Who;
}
interface AckedComment {
  id: string;
  key: string;
  text: string;
}
interface DeleteGroup {
  parent: string;
  subtasks: string[];
  state: 'sent' | 'acked';
}

describe.each(await storeKinds())('ARCHITECTURE §19 faults: kill -9 of jst-tracker mid-write, then restart on the same store (%s)', (kind) => {
  let dir: string;
  let seedFile: string;
  let db: TempDatabase | undefined;
  let child: Child | undefined;
  const store = () => (kind === 'postgres' ? ['--database-url', db!.url] : ['--data', join(dir, 'data')]);

  beforeAll(async () => {
    ensureTrackerBuilt();
    dir = mkdtempSync(join(tmpdir(), 'jst-faults-'));
    seedFile = join(dir, 'seed.json');
    writeFileSync(seedFile, JSON.stringify(testSeed()));
    if (kind === 'postgres') db = await createTempDatabase();
  }, 60_000);

  afterAll(async () => {
    if (child && child.proc.exitCode === null && child.proc.signalCode === null) {
      child.proc.kill('SIGKILL');
      await child.exited;
    }
    await db?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it(
    `${ROUNDS} rounds of SIGKILL during concurrent creates, comments and deletes: clean restarts, every 201 kept whole, no key reused or skipped, deletes all-or-nothing`,
    async () => {
      const issues = new Map<string, AckedIssue>();
      const comments: AckedComment[] = [];
      const groups: DeleteGroup[] = [];
      /** Every summary a key was ever acknowledged or read with: a second one is a reused key. */
      const keyOwner = new Map<string, string>();
      const stats = {
        rounds: 0,
        created: 0,
        commented: 0,
        deleted: 0,
        unknownOutcome: 0,
        killedDuringDelete: 0,
        /** Issues that exist though their 201 never arrived (the kill came between commit and answer). */
        appliedUnacknowledged: 0,
        /** Deletes cut off by a kill: how many had happened (all gone) and how many had not (all there). */
        cutDeletesDone: 0,
        cutDeletesUndone: 0,
        startMs: [] as number[],
      };

      const own = (key: string, summary: string) => {
        const before = keyOwner.get(key);
        if (before !== undefined) expect(summary, `key ${key} reused`).toBe(before);
        keyOwner.set(key, summary);
      };

      for (let round = 0; round < ROUNDS; round++) {
        const started = performance.now();
        child = await startChild(store(), seedFile);
        stats.startMs.push(Math.round(performance.now() - started));
        await verify(child, round);

        // The stream: creates and comments in ABC (which never deletes), parents with sub-tasks
        // deleted in RST. It runs until the process is killed.
        let alive = true;
        const c = child;
        let killAt: (() => void) | undefined;
        const killed = new Promise<void>((resolve) => {
          killAt = () => {
            if (alive) {
              alive = false;
              c.proc.kill('SIGKILL');
              resolve();
            }
          };
        });
        const onDelete = round % 2 === 1; // odd rounds: kill just as a delete is sent
        const unknown = () => {
          stats.unknownOutcome++;
        };

        const creator = async (w: number) => {
          for (let i = 0; alive; i++) {
            const summary = `kill-r${round}-w${w}-${i}`;
            const pool = [...issues.values()].filter((x) => x.key.startsWith('ABC-'));
            const commentOn = pool.length > 0 && i % 3 === 2 ? pool[(w * 7 + i) % pool.length]! : undefined;
            const who: Who = w % 2 ? 'executor' : 'assigner';
            try {
              if (commentOn) {
                const text = `comment-${summary}`;
                const r = await call(c, who, 'POST', `/issue/${commentOn.key}/comment`, { body: doc(text) });
                expect(r.status, JSON.stringify(r.body)).toBe(201);
                comments.push({ id: r.body.id, key: commentOn.key, text });
                stats.commented++;
              } else {
                const r = await call(c, who, 'POST', '/issue', {
                  fields: { project: { key: 'ABC' }, issuetype: { name: 'Task' }, summary, description: doc(`description of ${summary}`) },
                });
                expect(r.status, JSON.stringify(r.body)).toBe(201);
                own(r.body.key, summary);
                issues.set(r.body.key, { key: r.body.key, summary, parent: null, reporter: who });
                stats.created++;
              }
            } catch (e) {
              if (alive) throw e;
              unknown();
              return;
            }
          }
        };

        const deleter = async (w: number) => {
          for (let i = 0; alive; i++) {
            const summary = `group-r${round}-w${w}-${i}`;
            try {
              const p = await call(c, 'assigner', 'POST', '/issue', {
                fields: { project: { key: 'RST' }, issuetype: { name: 'Task' }, summary, description: doc(`description of ${summary}`) },
              });
              expect(p.status).toBe(201);
              own(p.body.key, summary);
              issues.set(p.body.key, { key: p.body.key, summary, parent: null, reporter: 'assigner' });
              const group: DeleteGroup = { parent: p.body.key, subtasks: [], state: 'sent' };
              for (let s = 0; s < SUBTASKS; s++) {
                const subSummary = `${summary}-sub${s}`;
                const r = await call(c, 'executor', 'POST', '/issue', {
                  fields: {
                    project: { key: 'RST' },
                    issuetype: { name: 'Subtask' },
                    parent: { key: p.body.key },
                    summary: subSummary,
                    description: doc(`description of ${subSummary}`),
                  },
                });
                expect(r.status).toBe(201);
                own(r.body.key, subSummary);
                issues.set(r.body.key, { key: r.body.key, summary: subSummary, parent: p.body.key, reporter: 'executor' });
                group.subtasks.push(r.body.key);
                const cm = await call(c, 'executor', 'POST', `/issue/${r.body.key}/comment`, { body: doc(`comment-${subSummary}`) });
                expect(cm.status).toBe(201);
                comments.push({ id: cm.body.id, key: r.body.key, text: `comment-${subSummary}` });
              }
              groups.push(group);
              const sent = call(c, 'assigner', 'DELETE', `/issue/${p.body.key}?deleteSubtasks=true`);
              if (onDelete && w === 0 && i >= 1)
                setTimeout(() => {
                  if (alive) stats.killedDuringDelete++;
                  killAt!();
                }, Math.random() * 4);
              const r = await sent;
              expect(r.status).toBe(204);
              group.state = 'acked';
              stats.deleted++;
            } catch (e) {
              if (alive) throw e;
              unknown();
              return;
            }
          }
        };

        // A worker that fails while the server is alive stops the round (kill) and fails the test.
        let failure: unknown;
        const workers = [...Array.from({ length: WORKERS }, (_, w) => creator(w)), ...Array.from({ length: DELETERS }, (_, w) => deleter(w))].map((p) =>
          p.catch((e: unknown) => {
            failure ??= e;
            killAt!();
          }),
        );
        // Random moment mid-stream (a delete-round kills on its own, this is the backstop).
        const timer = setTimeout(() => killAt!(), (onDelete ? 1500 : 150) + Math.random() * 900);
        await killed;
        clearTimeout(timer);
        await c.exited;
        expect(c.proc.signalCode).toBe('SIGKILL');
        await Promise.all(workers);
        c.agent.destroy();
        if (failure) throw failure instanceof Error ? failure : new Error(JSON.stringify(failure));
        stats.rounds++;
      }

      // The last restart, checked like the others, then stopped cleanly.
      child = await startChild(store(), seedFile);
      await verify(child, ROUNDS);
      child.proc.kill('SIGTERM');
      await child.exited;
      child.agent.destroy();
      if (kind === 'sqlite') {
        const file = new BetterSqlite3(join(dir, 'data', 'tracker.sqlite'), { readonly: true });
        expect(file.pragma('integrity_check', { simple: true })).toBe('ok');
        file.close();
      }
      process.stdout.write(`[faults ${kind}] ${JSON.stringify(stats)}\n`);
      expect(stats.created).toBeGreaterThan(0);
      expect(stats.commented).toBeGreaterThan(0);

      /** Everything that must hold after a restart. */
      async function verify(c: Child, round: number) {
        expect(c.output.join(''), 'the server logged an error while starting').not.toMatch(/error|Error/);
        // Every issue of both projects, whole: all fields as created (also issues whose 201 never arrived).
        const seen = new Map<string, any>();
        for (const project of ['ABC', 'RST']) {
          let token: string | undefined;
          for (let page = 0; page < 1000; page++) {
            const r = await call(c, 'assigner', 'POST', '/search/jql', {
              jql: `project = ${project} ORDER BY key`,
              maxResults: 100,
              fields: ['summary', 'description', 'issuetype', 'parent', 'status', 'reporter', 'creator'],
              ...(token ? { nextPageToken: token } : {}),
            });
            expect(r.status, JSON.stringify(r.body)).toBe(200);
            for (const issue of r.body.issues) seen.set(issue.key, issue);
            token = r.body.nextPageToken;
            if (!token) break;
          }
        }
        const accounts = new Map<Who, string>();
        for (const who of ['assigner', 'executor'] as const) accounts.set(who, (await call(c, who, 'GET', '/myself')).body.accountId);
        for (const [key, issue] of seen) {
          const f = issue.fields;
          own(key, f.summary);
          expect(f.summary, `${key} after round ${round}`).toMatch(/^(kill|group)-r\d+-w\d+-\d+(-sub\d)?$/);
          expect(f.description, `${key} lost its description`).toEqual(doc(`description of ${f.summary}`));
          expect(f.issuetype.name).toBe(/-sub\d$/.test(f.summary) ? 'Subtask' : 'Task');
          expect(f.reporter.accountId).toBe(f.creator.accountId);
          expect(['To Do', 'Backlog']).toContain(f.status.name);
          if (f.issuetype.name === 'Subtask') expect(seen.has(f.parent?.key), `${key} is a sub-task of a missing issue`).toBe(true);
          const acked = issues.get(key);
          if (acked) {
            expect(f.summary).toBe(acked.summary);
            expect(f.reporter.accountId).toBe(accounts.get(acked.reporter));
            if (acked.parent) expect(f.parent.key).toBe(acked.parent);
          }
        }
        // Every acknowledged issue is there, unless a delete (acknowledged or cut off) took it.
        const maybeDeleted = new Set(groups.flatMap((g) => [g.parent, ...g.subtasks]));
        for (const key of issues.keys()) if (!maybeDeleted.has(key)) expect(seen.has(key), `acknowledged ${key} is missing after round ${round}`).toBe(true);
        // A delete of a parent with sub-tasks: all gone or all there; gone for sure when acknowledged.
        stats.cutDeletesDone = 0;
        stats.cutDeletesUndone = 0;
        for (const g of groups) {
          const present = [g.parent, ...g.subtasks].filter((k) => seen.has(k));
          expect([0, 1 + g.subtasks.length], `delete of ${g.parent} half done: ${present.join(',')} remain`).toContain(present.length);
          if (g.state === 'acked') expect(present).toEqual([]);
          else if (present.length === 0) stats.cutDeletesDone++;
          else stats.cutDeletesUndone++;
        }
        stats.appliedUnacknowledged = [...seen.keys()].filter((k) => !issues.has(k)).length;
        // ABC never deletes: its keys are exactly ABC-1..ABC-n, one issue each.
        const abc = [...seen.keys()]
          .filter((k) => k.startsWith('ABC-'))
          .map((k) => Number(k.slice(4)))
          .sort((a, b) => a - b);
        expect(abc, 'ABC keys skip or repeat a number').toEqual(abc.map((_, i) => i + 1));
        // Every acknowledged comment is on its issue, with its text.
        const byIssue = new Map<string, AckedComment[]>();
        for (const cm of comments) if (seen.has(cm.key)) byIssue.set(cm.key, [...(byIssue.get(cm.key) ?? []), cm]);
        for (const [key, list] of byIssue) {
          const r = await call(c, 'assigner', 'GET', `/issue/${key}/comment?maxResults=5000`);
          const stored = new Map<string, any>(r.body.comments.map((x: any) => [x.id, x]));
          for (const cm of list) {
            expect(stored.has(cm.id), `acknowledged comment ${cm.id} on ${key} is missing after round ${round}`).toBe(true);
            expect(stored.get(cm.id).body).toEqual(doc(cm.text));
          }
        }
        await storeInvariants();
      }

      /** Straight from the database: no duplicate key, no comment without its issue, counters ahead of every number. */
      async function storeInvariants() {
        const queries = {
          duplicates: 'select count(*) as n from (select key from issues group by key having count(*) > 1) d',
          orphans: 'select count(*) as n from comments where issue_id not in (select id from issues)',
          behind: 'select count(*) as n from issues i join projects p on p.id = i.project_id where i.number > p.issue_counter',
        };
        const results: Record<string, number> = {};
        if (kind === 'sqlite') {
          const file = new BetterSqlite3(join(dir, 'data', 'tracker.sqlite'), { readonly: true });
          for (const [name, q] of Object.entries(queries)) results[name] = Number((file.prepare(q).get() as { n: number }).n);
          file.close();
        } else {
          const client = new pg.Client({ connectionString: db!.url });
          await client.connect();
          for (const [name, q] of Object.entries(queries)) results[name] = Number((await client.query(q)).rows[0].n);
          await client.end();
        }
        expect(results).toEqual({ duplicates: 0, orphans: 0, behind: 0 });
      }
    },
    60_000 + ROUNDS * 15_000,
  );
});
