// Before/after on one route in one run: the uncached `GET /issue/{random key}` (the executor's 7
// fields) of two builds of jst-tracker over the same data, beside the floor (lib/floor-read.mjs),
// taking turns round after round (A B floor, B A floor, …) so the machine's moods fall on all three.
// The figure is the server's CPU per request (µs), the one to trust on a busy machine.
//
// Usage (from the repository root, after a build of both):
//   node bench/ab-read.mjs BEFORE_TRACKER_DIR [AFTER_TRACKER_DIR]
// AFTER defaults to this checkout's packages/tracker. Environment: AB_STORE=sqlite|postgres,
// AB_ROUNDS (default 4), AB_SECONDS (default 5), AB_ISSUES (default 100000), AB_CONNECTIONS (10),
// AB_PROFILE=1 (also writes a --cpu-prof profile of each build's read and prints its top entries;
// AB_PROFILE_DIR keeps the .cpuprofile files there, for a flame graph; AB_PROFILE_ONLY=before|after
// profiles one build; AB_ROUNDS=0 measures nothing else), AB_RATE (requests per second: every server
// is offered the same fixed rate instead of as many as it answers; see below),
// BENCH_DATABASE_URL (PostgreSQL admin URL).
//
// Two yardsticks. By default each of the AB_CONNECTIONS connections sends its next request as soon
// as the last is answered (a closed loop), so a faster server also answers more requests per second,
// and on loopback the load generator is then asleep less often: each reply of the slower server
// more often pays for waking it (~10 µs of kernel time on the KVM guests here, perf: sock_def_readable),
// which the CPU-per-request figure charges to the server. With AB_RATE every server gets the same
// requests per second (autocannon's overallRate; set it below the slowest one's closed-loop rate), so
// the figures compare the same work at the same pace.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTempDatabase } from '../scripts/lib/local-services.mjs';
import { killAll, log, measureLoad, median, profileLines, start, startTracker } from './lib/ab.mjs';
import { authHeader, CALLER, CLOUD_ID, HOST, PROJECTS } from './lib/dataset.mjs';
import { loadDataset } from './lib/load-data.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BENCH = fileURLToPath(new URL('.', import.meta.url));
const [beforeArg, afterArg] = process.argv.slice(2);
if (!beforeArg) throw new Error('usage: node bench/ab-read.mjs BEFORE_TRACKER_DIR [AFTER_TRACKER_DIR]');
const BUILDS = { before: resolve(beforeArg), after: resolve(afterArg ?? join(ROOT, 'packages/tracker')) };
const STORE = process.env.AB_STORE ?? 'sqlite';
const ROUNDS = Number(process.env.AB_ROUNDS ?? 4);
const SECONDS = Number(process.env.AB_SECONDS ?? 5);
const ISSUES = Number(process.env.AB_ISSUES ?? 100_000);
const CONNECTIONS = Number(process.env.AB_CONNECTIONS ?? 10);
const RATE = process.env.AB_RATE ? Number(process.env.AB_RATE) : undefined;
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const AUTH = authHeader(CALLER);
const PREFIX = `/ex/jira/${CLOUD_ID}/rest/api/3`;

const storeArgs = (store) => (store.url ? ['--database-url', store.url] : ['--data', store.dataDir]);

/** Runs the random read against one server; its CPU µs per request and req/s. */
const measure = (server, keyspace, prefix, seconds = SECONDS) =>
  measureLoad(server, {
    scenario: 'get-issue',
    urls: [server.url],
    connections: CONNECTIONS,
    duration: seconds,
    warmup: 1,
    prefix,
    auth: AUTH,
    keyspace,
    ...(RATE ? { rate: RATE } : {}),
  });

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'jst-ab-'));
  let db;
  const servers = [];
  try {
    const sqlite = { kind: 'sqlite', dataDir: join(dir, 'sqlite') };
    let store = sqlite;
    log(`loading ${ISSUES} issues into SQLite…`);
    await loadDataset({ trackerDir: BUILDS.before, dataDir: sqlite.dataDir, issues: ISSUES });
    const { default: Sqlite } = await import('better-sqlite3');
    const counters = {};
    const file = new Sqlite(join(sqlite.dataDir, 'tracker.sqlite'), { readonly: true });
    for (const row of file.prepare('select key, issue_counter from projects').all()) counters[row.key] = row.issue_counter;
    file.close();
    const keyspace = { projects: PROJECTS, counters };
    if (STORE === 'postgres') {
      db = await createTempDatabase(ADMIN_URL, 'jst_ab');
      log(`loading ${ISSUES} issues into PostgreSQL…`);
      await loadDataset({ trackerDir: BUILDS.before, databaseUrl: db.url, issues: ISSUES });
      store = { kind: 'postgres', url: db.url };
    }
    const floor = await start(
      'floor',
      [join(BENCH, 'lib/floor-read.mjs'), join(sqlite.dataDir, 'tracker.sqlite'), AUTH, CALLER.email, HOST],
      /listening on (http:\/\/\S+)/,
    );
    servers.push(floor);
    const trackers = {};
    for (const [name, trackerDir] of Object.entries(BUILDS)) {
      trackers[name] = await startTracker(trackerDir, storeArgs(store));
      servers.push(trackers[name]);
    }
    const results = { floor: [], before: [], after: [] };
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? ['before', 'after', 'floor'] : ['after', 'before', 'floor'];
      for (const name of order) {
        const r = name === 'floor' ? await measure(floor, keyspace, '') : await measure(trackers[name], keyspace, PREFIX);
        results[name].push(r);
        log(`round ${round + 1} ${name}: ${r.cpuUs.toFixed(0)} µs CPU / request, ${r.rps.toFixed(0)} req/s${r.non2xx ? `, ${r.non2xx} non-2xx` : ''}`);
      }
    }
    const lines =
      ROUNDS === 0
        ? []
        : [
            `uncached GET /issue/{random of ${ISSUES}}?fields=(executor's 7), ${store.kind}, c=${CONNECTIONS}${RATE ? `, a fixed ${RATE} req/s` : ''}, ${ROUNDS} rounds × ${SECONDS} s (medians; the floor always on SQLite):`,
          ];
    const floorUs = median(results.floor.map((r) => r.cpuUs));
    for (const name of ROUNDS === 0 ? [] : ['floor', 'before', 'after']) {
      const us = median(results[name].map((r) => r.cpuUs));
      lines.push(
        `  ${name.padEnd(6)} ${us.toFixed(0).padStart(5)} µs CPU / request (${(us / floorUs).toFixed(2)}× floor; rounds ${results[name].map((r) => r.cpuUs.toFixed(0)).join(', ')}), ${median(results[name].map((r) => r.rps)).toFixed(0)} req/s`,
      );
    }
    for (const t of Object.values(trackers)) await t.stop();
    if (process.env.AB_PROFILE === '1') {
      for (const [name, trackerDir] of Object.entries(BUILDS)) {
        if (process.env.AB_PROFILE_ONLY && process.env.AB_PROFILE_ONLY !== name) continue;
        const profDir = join(dir, `prof-${name}`);
        mkdirSync(profDir);
        const t = await startTracker(trackerDir, storeArgs(store), ['--cpu-prof', '--cpu-prof-dir', profDir]);
        await measure(t, keyspace, PREFIX, 4);
        await t.stop();
        lines.push(...profileLines(profDir, `${name} (${store.kind}`, `${name}-${store.kind}.cpuprofile`, 15));
      }
    }
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    for (const s of servers) await s.stop().catch(() => {});
    killAll();
    if (db) await db.drop().catch((e) => log(`could not drop ${db.name}: ${e.message}`));
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  killAll();
  process.stderr.write(`ab failed: ${e.stack ?? e}\n`);
  process.exitCode = 1;
});
