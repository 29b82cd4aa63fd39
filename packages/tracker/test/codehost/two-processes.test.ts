import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopProcess } from '../../../../scripts/lib/local-services.mjs';
import { createTempDatabase, postgresAvailable, type TempDatabase } from '../../../../test/support/postgres.js';
import { git } from '../../../../test/support/repo.js';
import { spawnTracker, type TrackerProcess } from '../../../../test/support/tracker-process.js';
import { buildTracker } from '../support/cli-run.js';
import { integrationSeed, jira, newIssue, Receiver, statusOf, until } from './hooks-support.js';
import { CH_TOKENS, initialCheckout, octokitFor, OWNER, REPO } from './support.js';

const SECRET = 'shared by both processes';
const postgres = await postgresAvailable();

/**
 * ARCHITECTURE §22 with several processes (§19): two `jst-tracker serve` on one PostgreSQL
 * database and one repository folder. Each delivery is sent once, by whichever process claims it;
 * each tracker move is made once, whichever process heard the event.
 */
describe.skipIf(!postgres && process.env.JST_REQUIRE_POSTGRES !== '1')('ARCHITECTURE §22: two tracker processes on one PostgreSQL database', () => {
  let dir: string;
  let db: TempDatabase;
  let trackers: TrackerProcess[] = [];
  let rx: Receiver;
  let work: string;

  beforeAll(async () => {
    buildTracker();
    dir = mkdtempSync(join(tmpdir(), 'jst-hooks-two-'));
    const seedFile = join(dir, 'seed.json');
    writeFileSync(seedFile, JSON.stringify(integrationSeed()));
    const repos = join(dir, 'repos');
    db = await createTempDatabase();
    trackers = [await spawnTracker(['--database-url', db.url, '--seed', seedFile, '--repos', repos])];
    trackers.push(await spawnTracker(['--database-url', db.url, '--repos', repos]));
    work = initialCheckout(join(repos, OWNER, `${REPO}.git`), join(dir, 'work'));
    rx = new Receiver(SECRET);
    await rx.start();
  }, 90_000);

  afterAll(async () => {
    await Promise.all(trackers.map((t) => stopProcess(t.proc)));
    await rx?.stop();
    await db?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('each delivery is sent once and each move made once, whichever process heard the event', async () => {
    const [one, two] = trackers as [TrackerProcess, TrackerProcess];
    const as = (t: TrackerProcess, who: keyof typeof CH_TOKENS) => octokitFor(`${t.url}/api/v3`, CH_TOKENS[who]);
    const o = { owner: OWNER, repo: REPO };
    const hook = await as(one, 'rey').request('POST /repos/{owner}/{repo}/hooks', {
      ...o,
      config: { url: `${rx.url}/hook`, content_type: 'json', secret: SECRET },
      events: ['*'],
    });
    const key = await newIssue(one.url, 'two processes');
    const branch = `feature/${key}-two`;
    git(work, 'checkout', '--quiet', '-B', branch, 'main');
    git(work, 'commit', '--quiet', '--allow-empty', '-m', 'work');
    // Separate processes: the synchronous git does not block the servers.
    git(work, 'push', '--quiet', `${one.url.replace('http://', `http://x-access-token:${CH_TOKENS.ada}@`)}/${OWNER}/${REPO}.git`, `${branch}:${branch}`);
    await until('In Progress', async () => (await statusOf(one.url, key)) === 'In Progress');
    const pr = await as(two, 'ada').request('POST /repos/{owner}/{repo}/pulls', { ...o, title: key, head: branch, base: 'main' });
    await until('In Review', async () => (await statusOf(two.url, key)) === 'In Review');
    await as(one, 'rey').request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...o, issue_number: pr.data.number, body: 'looks fine' });
    const merged = await as(two, 'rey').request('PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge', { ...o, pull_number: pr.data.number });
    expect(merged.data.merged).toBe(true);

    // Every delivery the database holds is finished, then compared with what arrived.
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    try {
      const rows = await until('every delivery sent', async () => {
        const r = await admin.query<{ guid: string; event: string; status: string }>('select guid, event, status from ch_deliveries where hook_id = $1', [
          hook.data.id,
        ]);
        return r.rows.length >= 7 && r.rows.every((d) => d.status !== 'queued') ? r.rows : undefined;
      });
      expect(rows.every((d) => d.status === 'delivered')).toBe(true);
      await until('every delivery received', () => rx.got.length >= rows.length || undefined);
      const guids = rx.got.map((g) => g.guid);
      expect(new Set(guids).size).toBe(guids.length);
      expect(guids.sort()).toEqual(rows.map((d) => d.guid).sort());
      expect(rx.got.every((g) => g.signed)).toBe(true);
      const events = rx.got.map((g) => `${g.event}${g.payload.action ? `.${g.payload.action}` : ''}`).sort();
      expect(events).toEqual(['create', 'issue_comment.created', 'ping', 'pull_request.closed', 'pull_request.opened', 'push', 'push'].sort());

      const moves = await until('the merge move recorded', async () => {
        const r = await admin.query<{ event: string; outcome: string }>('select event, outcome from ch_moves where issue_key = $1 order by id', [key]);
        return r.rows.some((m) => m.event === 'merge' && m.outcome !== 'pending') ? r.rows : undefined;
      });
      expect(moves.map((m) => [m.event, m.outcome])).toEqual([
        ['branch', 'moved'],
        ['open', 'moved'],
        ['merge', 'failed'],
      ]);
      const comments = (await jira(one.url, 'assigner', 'GET', `/issue/${key}/comment`)).comments as unknown[];
      expect(comments).toHaveLength(2);
    } finally {
      await admin.end();
    }
  }, 120_000);

  // Last: it ends both processes. A delivery in flight when every process dies (claimed, never
  // answered) is not lost: a process started later takes the stale claim over and sends it again.
  it('a restart loses no delivery: one in flight when both processes are killed is sent by the next process', async () => {
    const [one] = trackers as [TrackerProcess, TrackerProcess];
    const slow = new Receiver(SECRET);
    await slow.start();
    slow.mode = 'slow';
    try {
      const hook = await octokitFor(`${one.url}/api/v3`, CH_TOKENS.rey).request('POST /repos/{owner}/{repo}/hooks', {
        owner: OWNER,
        repo: REPO,
        config: { url: `${slow.url}/slow`, content_type: 'json', secret: SECRET },
        events: ['push'],
      });
      // The hook's ping is claimed and sent; the receiver holds it unanswered.
      await until('the ping in flight', () => slow.got.length >= 1 || undefined);
      const guid = slow.got[0]!.guid;
      for (const t of trackers) t.proc.kill('SIGKILL');
      await Promise.all(trackers.map((t) => new Promise((r) => (t.proc.exitCode !== null || t.proc.signalCode !== null ? r(null) : t.proc.once('exit', r)))));
      slow.mode = 'ok';
      const admin = new pg.Client({ connectionString: db.url });
      await admin.connect();
      try {
        const before = await admin.query<{ status: string }>('select status from ch_deliveries where guid = $1', [guid]);
        expect(before.rows.map((r) => r.status)).not.toEqual(['delivered']);
        trackers = [await spawnTracker(['--database-url', db.url, '--repos', join(dir, 'repos')])];
        // The claim is stale after the send's timeout and 20 s more (docs/limits.md); then it is sent again.
        await until('the ping sent again', () => slow.got.filter((g) => g.guid === guid).length >= 2 || undefined, 75_000);
        const after = await until('the delivery finished', async () => {
          const r = await admin.query<{ status: string }>('select status from ch_deliveries where guid = $1 and hook_id = $2', [guid, hook.data.id]);
          return r.rows[0]?.status === 'delivered' ? r.rows : undefined;
        });
        expect(after).toHaveLength(1);
        expect(slow.got.filter((g) => g.guid === guid).every((g) => g.signed && g.event === 'ping')).toBe(true);
      } finally {
        await admin.end();
      }
    } finally {
      await slow.stop();
    }
  }, 150_000);
});
