// jst-tracker load benchmarks (bench/RESULTS.md says how to read them). Run from the repository
// root after a build: `npm run bench` (builds, installs bench/'s tools, runs this and cli-startup).
//
// Every figure is measured beside a reference in the same run: a bare node:http server answering a
// fixed JSON body (the ceiling of any Node.js HTTP server on this machine), so the ratio is what
// counts on a noisy machine. The load comes from a second process (bench/lib/load.mjs, autocannon)
// over loopback; the servers run as child processes, started from the built dist.
//
// Environment: QUICK=1 (a short smoke run), BENCH_ONLY=calibration,sqlite,postgres,anatomy,prism,scale,profile
// (the sections to run), BENCH_ROUTES=get-issue,get-issue-same,… (the routes, by scenario; default all), BENCH_PROFILE_CONNECTIONS (default 10),
// BENCH_ISSUES, BENCH_DURATION, BENCH_WARMUP, BENCH_CONNECTIONS=1,10,50, BENCH_ROUNDS (of the sqlite and
// postgres sections; default 1), BENCH_DATABASE_URL (the
// PostgreSQL server's admin URL; a database of its own is created there and dropped at the end),
// BENCH_TRACKER_DIR (a built packages/tracker to measure instead of this checkout's), BENCH_BEFORE_DIR
// (another built packages/tracker: the sqlite and postgres sections then measure it too, on a dataset of
// its own loaded the same way, taking turns with the first figure by figure), BENCH_OPENAPI
// (the vendor's OpenAPI document Prism mocks; default spec/jira-openapi/jira-cloud-v3-subset.json).
// Besides the full tables, the run prints and writes bench/results-raw/summary.md: one row per target in
// bench/RESULTS.md's format, and with BENCH_BEFORE_DIR a before/after table (bench/lib/summary.mjs).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createTempDatabase, freePort, spawnUntilReady, stopProcess } from '../scripts/lib/local-services.mjs';
import { summarize } from './lib/cpuprofile.mjs';
import { authHeader, CALLER, CLOUD_ID, HOST, PROJECTS } from './lib/dataset.mjs';
import { loadDataset } from './lib/load-data.mjs';
import { summaryTables } from './lib/summary.mjs';
import { contextSwitchesFrom, cpuBetween, cpuSeconds, cpuSnapshot, rssMiB, rssSampler } from './lib/procstat.mjs';

const QUICK = process.env.QUICK === '1';
const env = (name, dflt) => process.env[name] ?? dflt;
const ISSUES = Number(env('BENCH_ISSUES', QUICK ? 10_000 : 100_000));
const DURATION = Number(env('BENCH_DURATION', QUICK ? 2 : 5));
const WARMUP = Number(env('BENCH_WARMUP', QUICK ? 1 : 2));
const CONNECTIONS = env('BENCH_CONNECTIONS', QUICK ? '1,10' : '1,10,50')
  .split(',')
  .map(Number);
const SCALE_CONNECTIONS = QUICK ? [10] : [10, 50];
const SCALE_ROUNDS = Number(env('BENCH_SCALE_ROUNDS', QUICK ? 2 : 4));
// Rounds of the sqlite and postgres sections (each with its own ceiling); the summary takes medians.
const ROUNDS = Number(env('BENCH_ROUNDS', 1));
const PROFILE_SECONDS = QUICK ? 2 : 4;
const ONLY = new Set(env('BENCH_ONLY', 'calibration,sqlite,postgres,anatomy,prism,scale,profile').split(','));
const ADMIN_URL = env('BENCH_DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/postgres');

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BENCH = fileURLToPath(new URL('.', import.meta.url));
// Another build of the tracker can be measured (say, the last commit's, for a before/after figure).
const TRACKER_DIR = env('BENCH_TRACKER_DIR', join(ROOT, 'packages/tracker'));
const TRACKER_BIN = join(TRACKER_DIR, 'bin/jst-tracker.js');
// The build to compare with, in the same run (say, main's, for a change's before/after figures).
const BEFORE_DIR = process.env.BENCH_BEFORE_DIR || undefined;
const LOAD = join(BENCH, 'lib/load.mjs');
const OPENAPI = env('BENCH_OPENAPI', join(ROOT, 'spec/jira-openapi/jira-cloud-v3-subset.json'));
const PREFIX = `/ex/jira/${CLOUD_ID}/rest/api/3`;
const AUTH = authHeader(CALLER);

/** Routes in the order they run (reads first, so writes do not change what the reads see); BENCH_ROUTES=scenario,… keeps only those. */
const ALL_ROUTES = [
  { name: "GET /issue/{key}?fields=(executor's 7)", scenario: 'get-issue' },
  { name: "GET /issue/{one of 1,000 keys}?fields=(executor's 7)", scenario: 'get-issue-hot' },
  { name: "GET /issue/{the same key}?fields=(executor's 7)", scenario: 'get-issue-same' },
  { name: 'POST /search/jql (project + status, 50 issues, 3 fields)', scenario: 'search' },
  { name: 'GET …/transitions + POST …/transitions', scenario: 'transitions' },
  { name: 'POST …/comment', scenario: 'comment' },
  { name: 'POST /issue', scenario: 'create-issue' },
];
const ROUTES = process.env.BENCH_ROUTES ? ALL_ROUTES.filter((r) => process.env.BENCH_ROUTES.split(',').includes(r.scenario)) : ALL_ROUTES;
// The connections of the profiles (one section per route at this count).
const PROFILE_CONNECTIONS = Number(env('BENCH_PROFILE_CONNECTIONS', 10));

const log = (line) => process.stderr.write(`[bench] ${line}\n`);
const children = new Set();

// --- processes --------------------------------------------------------------------------------

/** Starts a server process and waits for a line matching `ready` (which captures the URL). */
async function startProcess(name, cmd, args, ready, options = {}) {
  const started = spawnUntilReady(cmd, args, ready, { name, cwd: options.cwd ?? ROOT, env: options.env, timeoutMs: 60_000 });
  const { proc } = started;
  children.add(proc);
  proc.once('exit', () => children.delete(proc));
  const m = await started.ready;
  return { name, proc, pid: proc.pid, url: m[1], stop: () => stopProcess(proc, 10_000) };
}

const startTracker = (store, extraNodeArgs = []) =>
  startProcess(
    `jst-tracker (${store.kind}${store.build === 'before' ? ', before' : ''})`,
    process.execPath,
    [
      ...extraNodeArgs,
      store.bin ?? TRACKER_BIN,
      'serve',
      '--port',
      '0',
      '--log-level',
      'warn',
      ...(store.url ? ['--database-url', store.url] : ['--data', store.dataDir]),
    ],
    /jst-tracker listening on (http:\/\/\S+)/,
  );

/** Prism prints nothing when silent: wait until its port answers. */
async function startPrism() {
  const port = await freePort();
  const proc = spawn(join(BENCH, 'node_modules/.bin/prism'), ['mock', OPENAPI, '-h', '127.0.0.1', '-p', String(port), '--verboseLevel', 'silent'], {
    cwd: BENCH,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.add(proc);
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    try {
      const res = await fetch(`${url}/rest/api/3/issue/PA-1`, { headers: { authorization: AUTH } });
      await res.arrayBuffer();
      if (res.ok) return { name: 'prism', proc, pid: proc.pid, url, stop: () => stopProcess(proc, 10_000) };
    } catch {
      /* not listening yet */
    }
    if (proc.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('Prism did not start');
}

// --- PostgreSQL ---------------------------------------------------------------------------------

/** A database of the run's own, with an admin connection for the CPU figures of its backends. */
async function createDatabase() {
  const db = await createTempDatabase(ADMIN_URL, 'jst_bench');
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  return {
    name: db.name,
    url: db.url,
    /** Backends serving this database, and the writers every write goes through. */
    async pids() {
      const r = await admin.query(
        `select pid from pg_stat_activity where pid <> pg_backend_pid()
           and (datname = $1 or backend_type in ('walwriter', 'checkpointer', 'background writer'))`,
        [db.name],
      );
      return r.rows.map((row) => row.pid);
    },
    async version() {
      return (await admin.query('show server_version')).rows[0].server_version;
    },
    /**
     * Lets PostgreSQL finish what the last measurement left it (a checkpoint of the WAL it wrote, an
     * autovacuum of the rows it changed), so that work is not billed to the next one.
     */
    async settle() {
      await admin.query('checkpoint');
      for (let waited = 0; waited < 60_000; waited += 250) {
        const r = await admin.query("select count(*)::int as n from pg_stat_activity where backend_type = 'autovacuum worker' and datname = $1", [db.name]);
        if (r.rows[0].n === 0) return;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    },
    async drop() {
      await admin.end();
      await db.drop();
    },
  };
}

// --- one measurement ----------------------------------------------------------------------------

/**
 * Runs one scenario from the load process and measures the servers meanwhile: CPU seconds of the
 * server processes (and of PostgreSQL's, when `db` is given) over the measured window, their peak RSS.
 */
function measure({ scenario, urls, connections, servers, db, path, prefix = PREFIX, keyspace, duration = DURATION }) {
  const spec = { scenario, urls, connections, duration, warmup: WARMUP, prefix, auth: AUTH, keyspace, path };
  const proc = spawn(process.execPath, [LOAD, JSON.stringify(spec)], { cwd: BENCH, stdio: ['ignore', 'pipe', 'inherit'] });
  children.add(proc);
  const pids = servers.map((s) => s.pid);
  let before;
  let dbBefore;
  let loadBefore;
  let rss;
  let switches;
  let buffer = '';
  return new Promise((resolve, reject) => {
    proc.stdout.on('data', async (d) => {
      buffer += d.toString();
      let nl;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        if (line === 'measuring') {
          before = cpuSnapshot(pids);
          loadBefore = cpuSeconds(proc.pid);
          rss = rssSampler(pids);
          switches = contextSwitchesFrom(pids);
          if (db) dbBefore = cpuSnapshot(await db.pids());
        } else if (line.startsWith('{')) {
          const result = JSON.parse(line);
          const serverCpu = cpuBetween(before, cpuSnapshot(pids));
          const loadCpu = cpuSeconds(proc.pid) - loadBefore;
          const dbCpu = db ? cpuBetween(dbBefore, cpuSnapshot(await db.pids())) : null;
          const mem = rss.stop();
          const serverSwitches = switches();
          resolve({
            ...result,
            serverCpuPct: (100 * serverCpu) / result.seconds,
            serverCpuPer1k: result.requests ? (1000 * serverCpu) / result.requests : null,
            dbCpuPct: dbCpu === null ? null : (100 * dbCpu) / result.seconds,
            dbCpuPer1k: dbCpu === null || !result.requests ? null : (1000 * dbCpu) / result.requests,
            loadCpuPct: (100 * loadCpu) / result.seconds,
            serverSwitchesPerRequest: result.requests ? serverSwitches / result.requests : null,
            rssPeak: mem.max,
            rssSum: mem.sum,
          });
        }
      }
    });
    proc.on('exit', (code) => {
      children.delete(proc);
      if (code !== 0) reject(new Error(`load process for ${scenario} exited with ${code}`));
    });
  });
}

// --- sections -----------------------------------------------------------------------------------

const results = { machine: {}, sections: {} };
const fmt = (n, digits = 0) => (n === null || n === undefined || Number.isNaN(n) ? '–' : n.toFixed(digits));

const ceilingOf = (refs, connections, keyspace) => measure({ scenario: 'fixed', urls: [refs.bare.url], connections, servers: [refs.bare], keyspace });

/** The yardsticks the targets were set against: Fastify hello-world, a naive SQLite read and insert route. */
async function calibrationSection(refs, keyspace) {
  const rows = [];
  for (const connections of CONNECTIONS) {
    const ceiling = await ceilingOf(refs, connections, keyspace);
    const fastify = await measure({ scenario: 'fixed', urls: [refs.fastify.url], connections, servers: [refs.fastify], keyspace });
    const read = await measure({ scenario: 'naive-read', urls: [refs.naive.url], connections, servers: [refs.naive], keyspace });
    const insert = await measure({ scenario: 'naive-insert', urls: [refs.naive.url], connections, servers: [refs.naive], keyspace });
    const floor = await measure({ scenario: 'get-issue', urls: [refs.floor.url], connections, servers: [refs.floor], keyspace, prefix: '' });
    const floorCreate = await measure({ scenario: 'create-issue', urls: [refs.floor.url], connections, servers: [refs.floor], keyspace, prefix: '' });
    const floorGroup = await measure({ scenario: 'create-issue', urls: [refs.floorGroup.url], connections, servers: [refs.floorGroup], keyspace, prefix: '' });
    const pct = (r) => `${fmt((100 * r.rps) / ceiling.rps)}%`;
    log(
      `  c=${connections} ceiling ${fmt(ceiling.rps)} req/s; fastify hello ${pct(fastify)}, naive read ${pct(read)}, naive insert ${pct(insert)}, floor issue read ${pct(floor)}, floor create ${pct(floorCreate)}, floor create with group commit ${pct(floorGroup)}`,
    );
    rows.push({ connections, ceiling, fastify, read, insert, floor, floorCreate, floorGroup });
  }
  return { rows };
}

/**
 * The yardsticks the summary compares the routes with, when the calibration section did not run:
 * the floor issue read and the group-commit floor create, at each connection count.
 */
async function floorSection(refs, keyspace) {
  const rows = [];
  for (const connections of CONNECTIONS) {
    const floor = await measure({ scenario: 'get-issue', urls: [refs.floor.url], connections, servers: [refs.floor], keyspace, prefix: '' });
    const floorGroup = await measure({ scenario: 'create-issue', urls: [refs.floorGroup.url], connections, servers: [refs.floorGroup], keyspace, prefix: '' });
    log(`  c=${connections} floor issue read ${fmt(floor.serverCpuPer1k * 1000)} µs CPU / req, floor create with group commit ${fmt(floorGroup.rps)} req/s`);
    rows.push({ connections, floor, floorGroup });
  }
  return { rows };
}

/**
 * Every route at every connection count. With a `before` store (another build on a dataset of its
 * own, loaded the same way) both trackers run side by side, an idle one costing nothing, and take
 * turns figure by figure (before, after; then after, before), so a change's figures compare the
 * same minutes of this machine and not its moods.
 */
async function routesSection(store, refs, keyspace, db, before) {
  const setups = [];
  const rows = [];
  const idleRss = {};
  try {
    for (const s of before ? [before, store] : [store]) {
      const tracker = await startTracker(s);
      const build = s.build ?? 'after';
      idleRss[build] = rssMiB(tracker.pid);
      log(`${store.kind}${before ? ` (${build})` : ''}: tracker at ${tracker.url}, idle RSS ${fmt(idleRss[build])} MiB`);
      setups.push({ build, tracker, db: s === store ? db : s.db });
    }
    // Each build's first figure would otherwise also pay for its cold JIT (a QUICK run put the one
    // measured first up to 2× the other's CPU per request): every route runs once, unmeasured, on each.
    if (before) {
      for (const { tracker } of setups) {
        for (const route of ROUTES)
          await measure({ scenario: route.scenario, urls: [tracker.url], connections: CONNECTIONS[0], servers: [tracker], keyspace, duration: WARMUP });
      }
    }
    let turn = 0;
    for (const connections of CONNECTIONS) {
      for (let round = 1; round <= ROUNDS; round++) {
        const ceiling = await ceilingOf(refs, connections, keyspace);
        const at = `  c=${connections}${ROUNDS > 1 ? ` round ${round}` : ''}`;
        log(`${at} ceiling ${fmt(ceiling.rps)} req/s`);
        for (const route of ROUTES) {
          for (const { build, tracker, db: trackerDb } of turn++ % 2 === 0 ? setups : [...setups].reverse()) {
            const r = await measure({ scenario: route.scenario, urls: [tracker.url], connections, servers: [tracker], db: trackerDb, keyspace });
            log(
              `${at} ${route.name}${before ? ` (${build})` : ''}: ${fmt(r.rps)} req/s = ${fmt((100 * r.rps) / ceiling.rps)}% of ceiling, ${fmt(r.serverCpuPer1k * 1000)} µs CPU / req, p50 ${fmt(r.p50, 2)} ms, p99 ${fmt(r.p99, 2)} ms, RSS ${fmt(r.rssPeak)} MiB`,
            );
            rows.push({ route: route.name, scenario: route.scenario, connections, round, build, result: r, ceiling });
          }
        }
      }
    }
  } finally {
    for (const { tracker } of setups) await tracker.stop();
  }
  return { idleRss: idleRss.after, idleRssBefore: idleRss.before, rows };
}

/**
 * Where a GET /issue's cost comes from, layer by layer, on SQLite at 10 connections: the server's CPU
 * per request for the bare server, Fastify's hello-world, the tracker's unauthenticated and
 * authenticated routes without a database read, one issue read with one field, and the full read.
 */
async function anatomySection(store, refs, keyspace) {
  const tracker = await startTracker(store);
  const steps = [
    { name: 'bare node:http, fixed 17-byte body', server: refs.bare, scenario: 'fixed', path: '/' },
    { name: 'Fastify hello-world', server: refs.fastify, scenario: 'fixed', path: '/' },
    { name: 'jst-tracker GET /rest/api/3/serverInfo (no authentication, no database)', server: tracker, scenario: 'fixed', path: '/rest/api/3/serverInfo' },
    { name: 'jst-tracker GET …/myself (authentication from the sign-in cache, no database)', server: tracker, scenario: 'fixed', path: `${PREFIX}/myself` },
    {
      name: 'jst-tracker GET …/issue/PC-100?fields=summary (the same read again: from the read cache)',
      server: tracker,
      scenario: 'fixed',
      path: `${PREFIX}/issue/PC-100?fields=summary`,
    },
    { name: "jst-tracker GET …/issue/{random}?fields=(executor's 7)", server: tracker, scenario: 'get-issue' },
  ];
  const rows = [];
  try {
    for (const step of steps) {
      const r = await measure({ scenario: step.scenario, path: step.path, urls: [step.server.url], connections: 10, servers: [step.server], keyspace });
      log(`  ${step.name}: ${fmt(r.rps)} req/s, ${fmt(1000 * r.serverCpuPer1k)} µs CPU per request`);
      rows.push({ name: step.name, result: r });
    }
  } finally {
    await tracker.stop();
  }
  return { rows };
}

async function prismSection(refs, keyspace, trackerStore) {
  const prism = await startPrism();
  const tracker = await startTracker(trackerStore);
  log(`prism at ${prism.url}`);
  const rows = [];
  try {
    for (const connections of CONNECTIONS) {
      const ceiling = await ceilingOf(refs, connections, keyspace);
      const p = await measure({ scenario: 'get-issue', urls: [prism.url], prefix: '/rest/api/3', connections, servers: [prism], keyspace });
      const t = await measure({ scenario: 'get-issue', urls: [tracker.url], connections, servers: [tracker], keyspace });
      log(
        `  c=${connections} prism ${fmt(p.rps)} req/s (${fmt((100 * p.rps) / ceiling.rps)}%), jst-tracker ${fmt(t.rps)} req/s (${fmt((100 * t.rps) / ceiling.rps)}%)`,
      );
      rows.push({ connections, ceiling, prism: p, tracker: t });
    }
  } finally {
    await prism.stop();
    await tracker.stop();
  }
  return { rows };
}

/**
 * One process against two over the same database, on the write mix. The two set-ups run side by side
 * (an idle one costs nothing) and take turns, A B B A, round after round, each beside a ceiling
 * measured a moment before: this box's ceiling moves by half within a minute, and the database
 * grows with every write, so figures taken one set-up after the other compare the machine's moods.
 * Before each, PostgreSQL checkpoints and any autovacuum ends, so neither pays for the other's writes;
 * before the first, both set-ups are warmed up.
 */
async function scaleSection(store, refs, keyspace, db) {
  const rows = [];
  const setups = {};
  try {
    setups[1] = [await startTracker(store)];
    setups[2] = [await startTracker(store), await startTracker(store)];
    // Warm both up first, unmeasured: each of two processes gets half of a warm-up's requests, so
    // after the usual one its code is less optimised than the single process's (its first round ran
    // at up to 1.8× the CPU per request).
    for (const trackers of Object.values(setups)) {
      await measure({
        scenario: 'write-mix',
        urls: trackers.map((t) => t.url),
        connections: SCALE_CONNECTIONS[0],
        servers: trackers,
        keyspace,
        duration: WARMUP * 3,
      });
    }
    for (const connections of SCALE_CONNECTIONS) {
      for (let round = 0; round < SCALE_ROUNDS; round++) {
        for (const processes of round % 2 === 0 ? [1, 2] : [2, 1]) {
          const trackers = setups[processes];
          await db.settle();
          const ceiling = await ceilingOf(refs, connections, keyspace);
          const r = await measure({ scenario: 'write-mix', urls: trackers.map((t) => t.url), connections, servers: trackers, db, keyspace });
          log(
            `  round ${round + 1}, ${processes} process(es), c=${connections}: write mix ${fmt(r.rps)} req/s (ceiling ${fmt(ceiling.rps)}), tracker ${fmt(r.serverCpuPer1k, 2)} CPU-s/1000, PostgreSQL ${fmt(r.dbCpuPer1k, 2)} CPU-s/1000`,
          );
          rows.push({ processes, connections, round: round + 1, ceiling, result: r });
        }
      }
    }
  } finally {
    for (const t of Object.values(setups).flat()) await t.stop();
  }
  return { rows };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? undefined : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function profileSection(store, keyspace, dir) {
  const out = [];
  for (const route of ROUTES) {
    const profDir = join(dir, `prof-${store.kind}-${route.scenario}`);
    mkdirSync(profDir, { recursive: true });
    const tracker = await startTracker(store, ['--cpu-prof', '--cpu-prof-dir', profDir]);
    try {
      await measure({
        scenario: route.scenario,
        urls: [tracker.url],
        connections: PROFILE_CONNECTIONS,
        servers: [tracker],
        keyspace,
        duration: PROFILE_SECONDS,
      });
    } finally {
      await tracker.stop();
    }
    const file = readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'));
    const summary = summarize(join(profDir, file));
    log(
      `  profile ${store.kind} ${route.name}: ${summary.self
        .slice(0, 3)
        .map((s) => `${s.name} ${fmt(s.pct, 1)}%`)
        .join('; ')}`,
    );
    out.push({ route: route.name, summary });
  }
  return out;
}

async function keyspaceOf(store) {
  const counters = {};
  if (store.url) {
    const c = new pg.Client({ connectionString: store.url });
    await c.connect();
    for (const row of (await c.query('select key, issue_counter from projects')).rows) counters[row.key] = Number(row.issue_counter);
    await c.end();
  } else {
    const { default: Sqlite } = await import('better-sqlite3');
    const db = new Sqlite(join(store.dataDir, 'tracker.sqlite'), { readonly: true });
    for (const row of db.prepare('select key, issue_counter from projects').all()) counters[row.key] = row.issue_counter;
    db.close();
  }
  return { projects: PROJECTS, counters };
}

/** The commit a built packages/tracker was built from, marked when its sources differ from it. */
function commitOf(trackerDir) {
  try {
    const git = (...args) => execFileSync('git', ['-C', trackerDir, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const changed = git('status', '--porcelain', '--untracked-files=no', '--', '.') !== '';
    return `${git('rev-parse', '--short', 'HEAD')}${changed ? ' + uncommitted changes' : ''}`;
  } catch {
    return 'unknown commit';
  }
}

// --- report -------------------------------------------------------------------------------------

function report() {
  const m = results.machine;
  const lines = [];
  const p = (s = '') => lines.push(s);
  p(`## Run of ${m.date}`);
  p();
  p(
    `Machine: ${m.nproc} × ${m.cpu}, ${m.memGiB} GiB; Node.js ${m.node}; PostgreSQL ${m.postgres ?? '–'}; ${m.issues.toLocaleString('en')} issues, ${m.comments?.toLocaleString('en')} comments;` +
      ` ${DURATION} s per figure after ${WARMUP} s warm-up; autocannon from a second process over loopback.`,
  );
  p(
    `Load times: SQLite ${fmt(m.loadSqlite, 1)} s, PostgreSQL ${fmt(m.loadPostgres, 1)} s. Tracker measured: ${m.commit}${m.beforeCommit ? `; before: ${m.beforeCommit} (BENCH_BEFORE_DIR)` : ''}.`,
  );
  p();
  if (results.sections.calibration) {
    p('### Yardsticks (same run): bare node:http, Fastify hello-world, a naive Fastify + better-sqlite3 read and insert route, and the floor of an issue read');
    p();
    p(
      '"floor issue read" and "floor create" (bench/lib/floor-read.mjs): the executor\'s read of a random issue, and a create, on a copy of the same SQLite file with the least work any faithful server does (no framework, auth by one Map lookup, synchronous statements compiled once, ADF spliced in unparsed; the create: body parsed, project + role read, counter advanced and row inserted in one transaction, no validation): upper bounds on what jst-tracker\'s `GET /issue` and `POST /issue` can reach.',
    );
    p();
    p(
      '| conns | ceiling req/s | Fastify hello | ratio | naive read | ratio | naive insert | ratio | floor issue read | ratio | floor server CPU µs / req | floor create | ratio | floor create, group commit | ratio | ceiling server CPU-s / 1000 req | load generator CPU % at ceiling |',
    );
    p('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const row of results.sections.calibration.rows) {
      const pct = (r) => `${fmt((100 * r.rps) / row.ceiling.rps)}%`;
      const floor = row.floor ?? {};
      p(
        `| ${row.connections} | ${fmt(row.ceiling.rps)} | ${fmt(row.fastify.rps)} | ${pct(row.fastify)} | ${fmt(row.read.rps)} | ${pct(row.read)} | ${fmt(row.insert.rps)} | ${pct(row.insert)} | ${fmt(floor.rps)} | ${row.floor ? pct(floor) : '–'} | ${fmt(floor.serverCpuPer1k === undefined ? undefined : floor.serverCpuPer1k * 1000)} | ${fmt(row.floorCreate?.rps)} | ${row.floorCreate ? pct(row.floorCreate) : '–'} | ${fmt(row.floorGroup?.rps)} | ${row.floorGroup ? pct(row.floorGroup) : '–'} | ${fmt(row.ceiling.serverCpuPer1k, 3)} | ${fmt(row.ceiling.loadCpuPct)} |`,
      );
    }
    p();
  }
  for (const [kind, title] of [
    ['sqlite', 'SQLite'],
    ['postgres', 'PostgreSQL (one process)'],
  ]) {
    const s = results.sections[kind];
    if (!s) continue;
    p(`### jst-tracker on ${title}`);
    p();
    const twoBuilds = s.idleRssBefore !== undefined;
    p(
      `Idle RSS after start: ${fmt(s.idleRss)} MiB${twoBuilds ? ` (before: ${fmt(s.idleRssBefore)} MiB); "before" = ${m.beforeCommit}, "after" = ${m.commit}, taking turns figure by figure` : ''}. "ceiling" = bare node:http in the same run at the same connection count; ratio = route ÷ ceiling.`,
    );
    p();
    const pgCols = kind === 'postgres';
    const rounds = ROUNDS > 1;
    p(
      `| route |${twoBuilds ? ' build |' : ''}${rounds ? ' round |' : ''} conns | req/s | ceiling req/s | ratio | p50 ms | p99 ms | non-2xx | tracker CPU-s / 1000 req${pgCols ? ' | PostgreSQL CPU-s / 1000 req' : ''} | peak RSS MiB |`,
    );
    p(`|---|${twoBuilds ? '---|' : ''}${rounds ? '---:|' : ''}---:|---:|---:|---:|---:|---:|---:|---:|${pgCols ? '---:|' : ''}---:|`);
    for (const row of s.rows) {
      const r = row.result;
      const non2xx = r.requests - r.ok;
      p(
        `| ${row.route} |${twoBuilds ? ` ${row.build} |` : ''}${rounds ? ` ${row.round} |` : ''} ${row.connections} | ${fmt(r.rps)} | ${fmt(row.ceiling.rps)} | **${fmt((100 * r.rps) / row.ceiling.rps)}%** | ${fmt(r.p50, 2)} | ${fmt(r.p99, 2)} | ${non2xx} | ${fmt(r.serverCpuPer1k, 3)}${pgCols ? ` | ${fmt(r.dbCpuPer1k, 3)}` : ''} | ${fmt(r.rssPeak)} |`,
      );
    }
    p();
  }
  if (results.sections.anatomy) {
    p('### Anatomy of a read (SQLite, 10 connections): server CPU per request, layer by layer');
    p();
    p('| request | req/s | server CPU µs / request |');
    p('|---|---:|---:|');
    for (const row of results.sections.anatomy.rows) p(`| ${row.name} | ${fmt(row.result.rps)} | ${fmt(1000 * row.result.serverCpuPer1k)} |`);
    p();
  }
  if (results.sections.prism) {
    p("### Stoplight Prism 5.14.2 (mock of the vendor's OpenAPI subset) on the same read");
    p();
    p(
      "Prism keeps no state, checks no credential and answers the example body of the vendor's document for every key; jst-tracker reads the issue from SQLite, authenticates the caller and checks its project role.",
    );
    p();
    p(
      '| conns | ceiling req/s | Prism req/s | Prism ratio | Prism p50 / p99 ms | jst-tracker (SQLite) req/s | jst-tracker ratio | jst-tracker p50 / p99 ms | Prism peak RSS MiB |',
    );
    p('|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const row of results.sections.prism.rows) {
      p(
        `| ${row.connections} | ${fmt(row.ceiling.rps)} | ${fmt(row.prism.rps)} | ${fmt((100 * row.prism.rps) / row.ceiling.rps)}% | ${fmt(row.prism.p50, 2)} / ${fmt(row.prism.p99, 2)} | ${fmt(row.tracker.rps)} | ${fmt((100 * row.tracker.rps) / row.ceiling.rps)}% | ${fmt(row.tracker.p50, 2)} / ${fmt(row.tracker.p99, 2)} | ${fmt(row.prism.rssPeak)} |`,
      );
    }
    p();
  }
  if (results.sections.scale) {
    p('### PostgreSQL: one process or two, write mix (create, comment, GET + POST transitions)');
    p();
    p(
      'Both set-ups run side by side and take turns (A B B A …), each figure beside a ceiling measured a moment before it. "2 ÷ 1" is the two processes\' requests/s over the one process\'s in the same round; the summary gives medians over the rounds.',
    );
    p();
    p(
      '| conns | rounds | median req/s, 1 process | median req/s, 2 processes | 2 ÷ 1 per round | median 2 ÷ 1 | tracker CPU-s / 1000 req, 1 / 2 (median) | PostgreSQL CPU-s / 1000 req, 1 / 2 (median) | tracker context switches / req, 1 / 2 (median) |',
    );
    p('|---:|---:|---:|---:|---|---:|---:|---:|---:|');
    const scaleRows = results.sections.scale.rows;
    for (const connections of [...new Set(scaleRows.map((r) => r.connections))]) {
      const of = (processes) => scaleRows.filter((r) => r.connections === connections && r.processes === processes);
      const one = of(1);
      const two = of(2);
      const ratios = one.map((r, i) => (two[i] ? two[i].result.rps / r.result.rps : undefined)).filter((x) => x !== undefined);
      const med = (rows, pick) => median(rows.map((r) => pick(r.result)).filter((x) => x !== undefined));
      p(
        `| ${connections} | ${one.length} | ${fmt(med(one, (r) => r.rps))} | ${fmt(med(two, (r) => r.rps))} | ${ratios.map((x) => fmt(x, 2)).join(', ')} | **${fmt(median(ratios), 2)}** | ${fmt(
          med(one, (r) => r.serverCpuPer1k),
          3,
        )} / ${fmt(
          med(two, (r) => r.serverCpuPer1k),
          3,
        )} | ${fmt(
          med(one, (r) => r.dbCpuPer1k),
          3,
        )} / ${fmt(
          med(two, (r) => r.dbCpuPer1k),
          3,
        )} | ${fmt(
          med(one, (r) => r.serverSwitchesPerRequest),
          2,
        )} / ${fmt(
          med(two, (r) => r.serverSwitchesPerRequest),
          2,
        )} |`,
      );
    }
    p();
    p(
      '| round | processes | conns | req/s | ceiling req/s | ratio | p50 ms | p99 ms | non-2xx | tracker CPU % (all processes) | tracker CPU-s / 1000 req | PostgreSQL CPU % | PostgreSQL CPU-s / 1000 req | load generator CPU % | peak RSS MiB (sum) |',
    );
    p('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const row of scaleRows) {
      const r = row.result;
      p(
        `| ${row.round ?? 1} | ${row.processes} | ${row.connections} | ${fmt(r.rps)} | ${fmt(row.ceiling.rps)} | ${fmt((100 * r.rps) / row.ceiling.rps)}% | ${fmt(r.p50, 2)} | ${fmt(r.p99, 2)} | ${r.requests - r.ok} | ${fmt(r.serverCpuPct)} | ${fmt(r.serverCpuPer1k, 3)} | ${fmt(r.dbCpuPct)} | ${fmt(r.dbCpuPer1k, 3)} | ${fmt(r.loadCpuPct)} | ${fmt(r.rssSum)} |`,
      );
    }
    p();
  }
  for (const kind of ['sqlite', 'postgres']) {
    const prof = results.sections[`profile-${kind}`];
    if (!prof) continue;
    p(`### Where the time goes (--cpu-prof, ${kind}, 10 connections, ${PROFILE_SECONDS} s; % of busy samples)`);
    p();
    for (const { route, summary } of prof) {
      p(`* **${route}**`);
      p(
        `  * self: ${summary.self
          .slice(0, 5)
          .map((s) => `${s.name} ${fmt(s.pct, 1)}%`)
          .join('; ')}`,
      );
      p(
        `  * areas: ${summary.areas
          .slice(0, 6)
          .map((s) => `${s.name} ${fmt(s.pct, 1)}%`)
          .join('; ')}`,
      );
      p(
        `  * tracker, inclusive: ${summary.tracker
          .slice(0, 5)
          .map((s) => `${s.name} ${fmt(s.pct, 1)}%`)
          .join('; ')}`,
      );
    }
    p();
  }
  return lines.join('\n');
}

// --- main ---------------------------------------------------------------------------------------

async function main() {
  const started = Date.now();
  const dir = mkdtempSync(join(tmpdir(), 'jst-bench-'));
  let db;
  let dbBefore;
  const refs = {};
  try {
    results.machine = {
      date: new Date().toISOString(),
      nproc: cpus().length,
      cpu: cpus()[0]?.model ?? '?',
      memGiB: Math.round(totalmem() / 2 ** 30),
      node: process.version,
      issues: ISSUES,
      quick: QUICK,
      rounds: ROUNDS,
      commit: commitOf(TRACKER_DIR),
      beforeCommit: BEFORE_DIR && commitOf(BEFORE_DIR),
    };
    const sqlite = { kind: 'sqlite', dataDir: join(dir, 'sqlite') };
    log(`loading ${ISSUES} issues into SQLite…`);
    const loaded = await loadDataset({ trackerDir: TRACKER_DIR, dataDir: sqlite.dataDir, issues: ISSUES });
    results.machine.loadSqlite = loaded.seconds;
    results.machine.comments = loaded.comments;
    log(`  ${loaded.issues} issues, ${loaded.comments} comments in ${fmt(loaded.seconds, 1)} s`);
    const keyspace = await keyspaceOf(sqlite);
    // The build to compare with loads the same generated dataset through its own store (its own
    // migrations), into a file of its own: writes by one build must not change what the other reads.
    const twoBuilds = BEFORE_DIR && ['sqlite', 'postgres'].some((s) => ONLY.has(s));
    const beforeOf = (store) => ({ ...store, build: 'before', bin: join(BEFORE_DIR, 'bin/jst-tracker.js') });
    let sqliteBefore;
    if (twoBuilds && ONLY.has('sqlite')) {
      sqliteBefore = beforeOf({ kind: 'sqlite', dataDir: join(dir, 'sqlite-before') });
      log(`loading ${ISSUES} issues into SQLite for the build before (${BEFORE_DIR})…`);
      const l = await loadDataset({ trackerDir: BEFORE_DIR, dataDir: sqliteBefore.dataDir, issues: ISSUES });
      log(`  done in ${fmt(l.seconds, 1)} s`);
    }

    let postgres;
    if (['postgres', 'scale'].some((s) => ONLY.has(s))) {
      db = await createDatabase().catch((e) => {
        log(`PostgreSQL sections skipped: no server at ${new URL(ADMIN_URL).host} (${e.message}); set BENCH_DATABASE_URL`);
        for (const section of ['postgres', 'scale']) ONLY.delete(section);
        return undefined;
      });
    }
    if (db) {
      results.machine.postgres = await db.version();
      postgres = { kind: 'postgres', url: db.url };
      log(`loading ${ISSUES} issues into PostgreSQL (${db.name})…`);
      const pgLoaded = await loadDataset({ trackerDir: TRACKER_DIR, databaseUrl: db.url, issues: ISSUES });
      results.machine.loadPostgres = pgLoaded.seconds;
      log(`  done in ${fmt(pgLoaded.seconds, 1)} s`);
    }
    let postgresBefore;
    if (db && twoBuilds && ONLY.has('postgres')) {
      dbBefore = await createDatabase();
      postgresBefore = beforeOf({ kind: 'postgres', url: dbBefore.url, db: dbBefore });
      log(`loading ${ISSUES} issues into PostgreSQL (${dbBefore.name}) for the build before…`);
      const l = await loadDataset({ trackerDir: BEFORE_DIR, databaseUrl: dbBefore.url, issues: ISSUES });
      log(`  done in ${fmt(l.seconds, 1)} s`);
    }

    refs.bare = await startProcess('bare node:http', process.execPath, [join(BENCH, 'lib/bare-server.mjs')], /listening on (http:\/\/\S+)/);
    refs.fastify = await startProcess('fastify hello', process.execPath, [join(BENCH, 'lib/fastify-hello.mjs')], /listening on (http:\/\/\S+)/);
    mkdirSync(join(dir, 'naive'));
    refs.naive = await startProcess('naive sqlite', process.execPath, [join(BENCH, 'lib/naive-sqlite.mjs'), join(dir, 'naive')], /listening on (http:\/\/\S+)/);

    refs.floor = await startProcess(
      'floor read',
      process.execPath,
      [join(BENCH, 'lib/floor-read.mjs'), join(sqlite.dataDir, 'tracker.sqlite'), AUTH, CALLER.email, HOST],
      /listening on (http:\/\/\S+)/,
    );
    refs.floorGroup = await startProcess(
      'floor group',
      process.execPath,
      [join(BENCH, 'lib/floor-read.mjs'), join(sqlite.dataDir, 'tracker.sqlite'), AUTH, CALLER.email, HOST, 'group'],
      /listening on (http:\/\/\S+)/,
    );

    if (ONLY.has('calibration')) {
      log('yardsticks');
      results.sections.calibration = await calibrationSection(refs, keyspace);
    } else if (['sqlite', 'postgres'].some((s) => ONLY.has(s))) {
      log('floors (for the summary)');
      results.sections.floor = await floorSection(refs, keyspace);
    }
    if (ONLY.has('sqlite')) results.sections.sqlite = await routesSection(sqlite, refs, keyspace, undefined, sqliteBefore);
    if (ONLY.has('postgres')) results.sections.postgres = await routesSection(postgres, refs, keyspace, db, postgresBefore);
    if (ONLY.has('anatomy')) {
      log('anatomy of GET /issue (SQLite)');
      results.sections.anatomy = await anatomySection(sqlite, refs, keyspace);
    }
    if (ONLY.has('prism') && !existsSync(OPENAPI)) log(`prism: skipped, no OpenAPI document at ${OPENAPI} (set BENCH_OPENAPI)`);
    else if (ONLY.has('prism')) results.sections.prism = await prismSection(refs, keyspace, sqlite);
    if (ONLY.has('scale')) {
      log('postgres: 1 vs 2 processes');
      results.sections.scale = await scaleSection(postgres, refs, keyspace, db);
    }
    if (ONLY.has('profile')) {
      log('profiles');
      results.sections['profile-sqlite'] = await profileSection(sqlite, keyspace, dir);
      if (postgres) results.sections['profile-postgres'] = await profileSection(postgres, keyspace, dir);
    }
  } finally {
    for (const r of Object.values(refs)) await r.stop();
    for (const proc of children) proc.kill('SIGKILL');
    for (const d of [db, dbBefore]) if (d) await d.drop().catch((e) => log(`could not drop ${d.name}: ${e.message}`));
    rmSync(dir, { recursive: true, force: true });
  }
  results.machine.minutes = (Date.now() - started) / 60_000;
  const md = report();
  const outDir = join(BENCH, 'results-raw');
  mkdirSync(outDir, { recursive: true });
  const stamp = results.machine.date.replace(/[:.]/g, '-');
  writeFileSync(join(outDir, `${stamp}.json`), JSON.stringify(results, null, 2));
  writeFileSync(join(outDir, `${stamp}.md`), `${md}\n`);
  const summary = summaryTables(results, { connections: CONNECTIONS });
  writeFileSync(join(outDir, 'summary.md'), `${summary}\n`);
  process.stdout.write(
    `${md}\n\nRun took ${fmt(results.machine.minutes, 1)} min; raw figures in bench/results-raw/${stamp}.json\n\n${summary}\n\n(also in bench/results-raw/summary.md)\n`,
  );
}

main().catch((e) => {
  for (const proc of children) proc.kill('SIGKILL');
  process.stderr.write(`bench failed: ${e.stack ?? e}\n`);
  process.exitCode = 1;
});
