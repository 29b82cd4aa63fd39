// Before/after on one route in one run: `POST /issue` of two builds of jst-tracker on SQLite, each on
// its own copy of the same dataset, beside the floor create and the group-commit floor create
// (lib/floor-read.mjs, each on its own copy), taking turns round after round (before after floor
// group / after before group floor / …) at each connection count, so the machine's moods fall on all
// four. Figures: the server's CPU per create (µs), the one to trust on a busy machine, and req/s.
//
// Usage (from the repository root, after a build of both):
//   node bench/ab-write.mjs BEFORE_TRACKER_DIR [AFTER_TRACKER_DIR]
// AFTER defaults to this checkout's packages/tracker. Environment: AB_ROUNDS (default 3),
// AB_SECONDS (default 4), AB_ISSUES (default 100000), AB_CONNECTIONS (default 1,10,50), AB_SCENARIO
// (default create-issue; comment, transitions or write-mix measure the two builds without floors),
// AB_THREADS=1 (each round also says the µs per request of each thread of the server), AB_PROFILE=1
// (after the rounds, a --cpu-prof profile of each build's requests and the group-commit floor's at
// the first connection count, top entries printed; AB_PROFILE_DIR keeps the .cpuprofile files;
// AB_PROFILE_ONLY=before|after|group profiles one of them; AB_ROUNDS=0 measures nothing else).
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { killAll, log, measureLoad, median, profileLines, start, startTracker } from './lib/ab.mjs';
import { authHeader, CALLER, CLOUD_ID, HOST, PROJECTS } from './lib/dataset.mjs';
import { loadDataset } from './lib/load-data.mjs';

/** CPU seconds of each thread of a process, by thread id (the main thread's id is the process id). */
function threadCpu(pid) {
  const out = {};
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = tid === String(pid) ? 'main' : tid;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out[name] = (out[name] ?? 0) + (Number(fields[11]) + Number(fields[12])) / 100;
    } catch {
      /* the thread ended */
    }
  }
  return out;
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BENCH = fileURLToPath(new URL('.', import.meta.url));
const [beforeArg, afterArg] = process.argv.slice(2);
if (!beforeArg) throw new Error('usage: node bench/ab-write.mjs BEFORE_TRACKER_DIR [AFTER_TRACKER_DIR]');
const BUILDS = { before: resolve(beforeArg), after: resolve(afterArg ?? join(ROOT, 'packages/tracker')) };
const ROUNDS = Number(process.env.AB_ROUNDS ?? 3);
const SECONDS = Number(process.env.AB_SECONDS ?? 4);
const ISSUES = Number(process.env.AB_ISSUES ?? 100_000);
const CONNECTIONS = (process.env.AB_CONNECTIONS ?? '1,10,50').split(',').map(Number);
// Another write of lib/load.mjs (comment, transitions, write-mix): the two builds only, no floors.
const SCENARIO = process.env.AB_SCENARIO ?? 'create-issue';
const FLOORS = SCENARIO === 'create-issue';
const AUTH = authHeader(CALLER);
const PREFIX = `/ex/jira/${CLOUD_ID}/rest/api/3`;

/** Runs the writes against one server; its CPU µs per request and req/s, and each busy thread's µs per request. */
const measure = (server, keyspace, prefix, connections, seconds = SECONDS) =>
  measureLoad(
    server,
    { scenario: SCENARIO, urls: [server.url], connections, duration: seconds, warmup: 1, prefix, auth: AUTH, keyspace },
    {
      start: () => threadCpu(server.pid),
      // µs per request of each thread that did any work (AB_THREADS=1 prints them).
      end: (threadsBefore, r) => ({
        threads: Object.entries(threadCpu(server.pid))
          .map(([n, s]) => [n, (1e6 * (s - (threadsBefore[n] ?? 0))) / r.requests])
          .filter(([, us]) => us > 0.5),
      }),
    },
  );

const NAMES = FLOORS ? ['floor', 'group', 'before', 'after'] : ['before', 'after'];

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'jst-abw-'));
  const servers = [];
  try {
    const source = join(dir, 'source');
    log(`loading ${ISSUES} issues into SQLite…`);
    await loadDataset({ trackerDir: BUILDS.before, dataDir: source, issues: ISSUES });
    const { default: Sqlite } = await import('better-sqlite3');
    const counters = {};
    const file = new Sqlite(join(source, 'tracker.sqlite'), { readonly: true });
    for (const row of file.prepare('select key, issue_counter from projects').all()) counters[row.key] = row.issue_counter;
    file.close();
    const keyspace = { projects: PROJECTS, counters };
    const floorArgs = [join(BENCH, 'lib/floor-read.mjs'), join(source, 'tracker.sqlite'), AUTH, CALLER.email, HOST];
    const targets = FLOORS
      ? {
          floor: { server: await start('floor', floorArgs, /listening on (http:\/\/\S+)/), prefix: '' },
          group: { server: await start('floor group', [...floorArgs, 'group'], /listening on (http:\/\/\S+)/), prefix: '' },
        }
      : {};
    for (const [name, trackerDir] of Object.entries(BUILDS)) {
      const dataDir = join(dir, name);
      cpSync(source, dataDir, { recursive: true });
      targets[name] = { server: await startTracker(trackerDir, ['--data', dataDir]), prefix: PREFIX, dataDir };
    }
    for (const t of Object.values(targets)) servers.push(t.server);
    const results = Object.fromEntries(CONNECTIONS.map((c) => [c, Object.fromEntries(NAMES.map((n) => [n, []]))]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const c of CONNECTIONS) {
        const order = (round % 2 === 0 ? ['before', 'after', 'floor', 'group'] : ['after', 'before', 'group', 'floor']).filter((n) => NAMES.includes(n));
        for (const name of order) {
          const r = await measure(targets[name].server, keyspace, targets[name].prefix, c);
          results[c][name].push(r);
          log(
            `round ${round + 1} c=${c} ${name}: ${r.cpuUs.toFixed(0)} µs CPU / create, ${r.rps.toFixed(0)} req/s${r.non2xx ? `, ${r.non2xx} non-2xx` : ''}` +
              (process.env.AB_THREADS === '1' ? ` (threads: ${r.threads.map(([n, us]) => `${n} ${us.toFixed(0)}`).join(', ')})` : ''),
          );
        }
      }
    }
    const lines = [];
    if (ROUNDS > 0 && FLOORS) {
      lines.push(`POST /issue, SQLite, ${ISSUES} issues, ${ROUNDS} rounds × ${SECONDS} s (medians; % = req/s of the group-commit floor):`);
      lines.push('| conns | floor | group floor | before | after | before ÷ group | after ÷ group |');
      lines.push('|---:|---:|---:|---:|---:|---:|---:|');
      for (const c of CONNECTIONS) {
        const m = Object.fromEntries(NAMES.map((n) => [n, { rps: median(results[c][n].map((r) => r.rps)), us: median(results[c][n].map((r) => r.cpuUs)) }]));
        const cell = (n) => `${m[n].rps.toFixed(0)} req/s, ${m[n].us.toFixed(0)} µs`;
        lines.push(
          `| ${c} | ${cell('floor')} | ${cell('group')} | ${cell('before')} | ${cell('after')} | ${((100 * m.before.rps) / m.group.rps).toFixed(0)} % | ${((100 * m.after.rps) / m.group.rps).toFixed(0)} % |`,
        );
      }
    } else if (ROUNDS > 0) {
      lines.push(`${SCENARIO}, SQLite, ${ISSUES} issues, ${ROUNDS} rounds × ${SECONDS} s (medians):`);
      lines.push('| conns | before | after |');
      lines.push('|---:|---:|---:|');
      for (const c of CONNECTIONS) {
        const cell = (n) => `${median(results[c][n].map((r) => r.rps)).toFixed(0)} req/s, ${median(results[c][n].map((r) => r.cpuUs)).toFixed(0)} µs`;
        lines.push(`| ${c} | ${cell('before')} | ${cell('after')} |`);
      }
    }
    if (ROUNDS > 0) {
      lines.push('rounds (req/s):');
      for (const c of CONNECTIONS) lines.push(`  c=${c} ${NAMES.map((n) => `${n} ${results[c][n].map((r) => r.rps.toFixed(0)).join('/')}`).join('; ')}`);
    }
    for (const t of Object.values(targets)) await t.server.stop();
    servers.length = 0;
    if (process.env.AB_PROFILE === '1') {
      for (const name of FLOORS ? ['before', 'after', 'group'] : ['before', 'after']) {
        if (process.env.AB_PROFILE_ONLY && process.env.AB_PROFILE_ONLY !== name) continue;
        const profDir = join(dir, `prof-${name}`);
        mkdirSync(profDir);
        const profile = ['--cpu-prof', '--cpu-prof-dir', profDir];
        const t =
          name === 'group'
            ? await start('floor group', [...profile, ...floorArgs, 'group'], /listening on (http:\/\/\S+)/)
            : await startTracker(BUILDS[name], ['--data', targets[name].dataDir], profile);
        await measure(t, keyspace, name === 'group' ? '' : PREFIX, CONNECTIONS[0], 4);
        await t.stop();
        lines.push(...profileLines(profDir, `${name} (c=${CONNECTIONS[0]}`, `${name}-create.cpuprofile`, 20));
      }
    }
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    for (const s of servers) await s.stop().catch(() => {});
    killAll();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  killAll();
  process.stderr.write(`ab failed: ${e.stack ?? e}\n`);
  process.exitCode = 1;
});
