// The run's summary: one row per target of the project in bench/RESULTS.md's format (work, ours,
// floor, ratio, Prism, date, commit), and, when another build was measured beside this one
// (BENCH_BEFORE_DIR), a before/after table of the figures a change is judged by. Every ratio is
// against a figure of the same run: the floor issue read's CPU per request (bench/lib/floor-read.mjs,
// on SQLite; PostgreSQL's figures are held against the same SQLite floor, and count the tracker's CPU
// and PostgreSQL's together), the bare node:http ceiling, the group-commit floor create.

const fmt = (n, digits = 0) => (n === null || n === undefined || Number.isNaN(n) ? '–' : n.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits }));
const pct = (a, b) => (a === undefined || !b ? '–' : `${fmt((100 * a) / b)} %`);
const times = (a, b) => (a === undefined || !b ? '–' : `${fmt(a / b, 2)}×`);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? undefined : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const STORES = [['sqlite', 'SQLite'], ['postgres', 'PostgreSQL']];

/** CPU µs per request of the server, and for PostgreSQL of its backends too (the floor does its own SQLite work). */
const cpuMicros = (r) => (r?.serverCpuPer1k == null ? undefined : 1000 * (r.serverCpuPer1k + (r.dbCpuPer1k ?? 0)));
const cpuText = (r) => (r?.dbCpuPer1k == null
  ? `${fmt(cpuMicros(r))} µs`
  : `${fmt(cpuMicros(r))} µs (tracker ${fmt(1000 * r.serverCpuPer1k)} + PostgreSQL ${fmt(1000 * r.dbCpuPer1k)})`);

/** The floor figures per connection count, from the calibration section or the floor-only one. */
function floorsOf(results) {
  const rows = results.sections.calibration?.rows ?? results.sections.floor?.rows ?? [];
  return new Map(rows.map((row) => [row.connections, row]));
}

/** One route's figure at one connection count: the median over the rounds (BENCH_ROUNDS), each figure apart. */
function routeRow(section, scenario, connections, build = 'after') {
  const rows = section?.rows.filter((row) => row.scenario === scenario && row.connections === connections && (row.build ?? 'after') === build) ?? [];
  if (rows.length === 0) return undefined;
  const of = (pick) => median(rows.map(pick).filter((x) => x !== null && x !== undefined));
  return {
    rounds: rows.length,
    ceiling: { rps: of((r) => r.ceiling.rps) },
    result: {
      rps: of((r) => r.result.rps), p50: of((r) => r.result.p50), serverCpuPer1k: of((r) => r.result.serverCpuPer1k),
      dbCpuPer1k: rows[0].result.dbCpuPer1k === null ? null : of((r) => r.result.dbCpuPer1k),
    },
  };
}

/**
 * @param results the run's results (bench/run.mjs)
 * @param options.connections the connection counts measured; the read rows use 10 when measured
 */
export function summaryTables(results, { connections }) {
  const m = results.machine;
  const date = m.date.slice(0, 10);
  const commit = m.commit;
  const floors = floorsOf(results);
  const main = connections.includes(10) ? 10 : connections.at(-1);
  const floorCpu = (c) => cpuMicros(floors.get(c)?.floor);
  const floorGroup = (c) => floors.get(c)?.floorGroup?.rps;
  const lines = [];
  const p = (s = '') => lines.push(s);
  const row = (cells) => p(`| ${cells.join(' | ')} |`);

  p(`## Summary of the run of ${m.date}`);
  p();
  p(`Machine: ${m.nproc} × ${m.cpu}, ${m.memGiB} GiB; Node.js ${m.node}; PostgreSQL ${m.postgres ?? '–'}; ${m.issues.toLocaleString('en')} issues${m.quick ? ' (QUICK run)' : ''}${m.rounds > 1 ? `; medians of ${m.rounds} rounds` : ''}. Tracker: ${commit}.`);
  p();
  row(['work', 'ours', 'floor', 'ratio', 'Prism', 'date', 'commit']);
  row(['---', '---:', '---', '---:', '---:', '---', '---']);
  for (const [kind, title] of STORES) {
    const s = results.sections[kind];
    if (!s) continue;
    const random = routeRow(s, 'get-issue', main);
    const prism = results.sections.prism?.rows.find((r) => r.connections === main)?.prism;
    row([`GET /issue, a random key of ${fmt(m.issues)}: CPU µs / request (${title}, ${main} conns)`,
      `${cpuText(random?.result)}, ${fmt(random?.result.rps)} req/s`,
      `floor issue read (SQLite): ${fmt(floorCpu(main))} µs`, times(cpuMicros(random?.result), floorCpu(main)),
      kind === 'sqlite' && prism ? `${fmt(cpuMicros(prism))} µs, ${fmt(prism.rps)} req/s` : '', date, commit]);
    for (const [scenario, what] of [['get-issue-same', 'the same key read again (read cache)'], ['get-issue-hot', 'a working set of 1,000 keys']]) {
      const r = routeRow(s, scenario, main);
      row([`GET /issue, ${what}: req/s (${title}, ${main} conns)`, fmt(r?.result.rps),
        `bare node:http ceiling: ${fmt(r?.ceiling.rps)} req/s`, pct(r?.result.rps, r?.ceiling.rps), '', date, commit]);
    }
    for (const c of connections) {
      const r = routeRow(s, 'create-issue', c);
      row([`POST /issue: req/s (${title}, ${c} conns)`, fmt(r?.result.rps),
        `group-commit floor create (SQLite): ${fmt(floorGroup(c))} req/s`, pct(r?.result.rps, floorGroup(c)), '', date, commit]);
    }
    const search = routeRow(s, 'search', connections[0]);
    row([`POST /search/jql, 50 issues by project + status: p50 ms (${title}, ${connections[0]} conns)`, fmt(search?.result.p50, 2),
      'target: 5 ms', times(search?.result.p50, 5), '', date, commit]);
    const rss = Math.max(...s.rows.filter((r) => (r.build ?? 'after') === 'after').map((r) => r.result.rssPeak));
    row([`peak RSS over every route with ${fmt(m.issues)} issues (${title})`, `${fmt(rss)} MiB = ${fmt((rss * 2 ** 20) / 1e6)} MB`,
      'target: 200 MB', times((rss * 2 ** 20) / 1e6, 200), '', date, commit]);
  }
  if (results.sections.scale) {
    const rows = results.sections.scale.rows;
    for (const c of [...new Set(rows.map((r) => r.connections))]) {
      const one = rows.filter((r) => r.connections === c && r.processes === 1);
      const two = rows.filter((r) => r.connections === c && r.processes === 2);
      const ratio = median(one.map((r, i) => (two[i] ? two[i].result.rps / r.result.rps : undefined)).filter((x) => x !== undefined));
      row([`PostgreSQL write mix: 2 processes ÷ 1, median over ${one.length} alternating rounds (${c} conns)`, fmt(median(two.map((r) => r.result.rps))) + ' req/s',
        `1 process: ${fmt(median(one.map((r) => r.result.rps)))} req/s`, times(ratio, 1), '', date, commit]);
    }
  }
  p();
  p(`Ratios: CPU = ours ÷ the floor's (lower is better; PostgreSQL counts the tracker and its backends against the SQLite floor, which has no PostgreSQL of its own); req/s = ours ÷ the yardstick's.`);

  if (m.beforeCommit) beforeAfter(results, { connections, floors, floorCpu, floorGroup, p, row });
  return lines.join('\n');
}

/** The figures a change is judged by, both builds, same run, taking turns figure by figure. */
function beforeAfter(results, { connections, floorCpu, floorGroup, p, row }) {
  const m = results.machine;
  p();
  const rounds = m.rounds ?? 1;
  p(`### Before (${m.beforeCommit}) and after (${m.commit}), same run, same dataset, taking turns figure by figure${rounds > 1 ? `; medians of ${rounds} rounds` : ''}`);
  p();
  row(['store', 'work', 'conns', 'before', 'after', 'floor', 'ratio before', 'ratio after']);
  row(['---', '---', '---:', '---:', '---:', '---', '---:', '---:']);
  for (const [kind, title] of STORES) {
    const s = results.sections[kind];
    if (!s) continue;
    for (const c of connections) {
      const pair = (scenario) => [routeRow(s, scenario, c, 'before'), routeRow(s, scenario, c, 'after')];
      const [rb, ra] = pair('get-issue');
      row([title, 'GET /issue, random key: CPU µs / request', c, fmt(cpuMicros(rb?.result)), fmt(cpuMicros(ra?.result)),
        `floor issue read (SQLite): ${fmt(floorCpu(c))} µs`, times(cpuMicros(rb?.result), floorCpu(c)), times(cpuMicros(ra?.result), floorCpu(c))]);
      row([title, 'GET /issue, random key: req/s', c, fmt(rb?.result.rps), fmt(ra?.result.rps),
        `bare node:http ceiling: ${fmt(ra?.ceiling.rps)} req/s`, pct(rb?.result.rps, rb?.ceiling.rps), pct(ra?.result.rps, ra?.ceiling.rps)]);
      const [sb, sa] = pair('get-issue-same');
      row([title, 'GET /issue, the same key: req/s', c, fmt(sb?.result.rps), fmt(sa?.result.rps),
        `bare node:http ceiling: ${fmt(sa?.ceiling.rps)} req/s`, pct(sb?.result.rps, sb?.ceiling.rps), pct(sa?.result.rps, sa?.ceiling.rps)]);
      const [cb, ca] = pair('create-issue');
      row([title, 'POST /issue: req/s', c, fmt(cb?.result.rps), fmt(ca?.result.rps),
        `group-commit floor create (SQLite): ${fmt(floorGroup(c))} req/s`, pct(cb?.result.rps, floorGroup(c)), pct(ca?.result.rps, floorGroup(c))]);
    }
  }
  p();
  p(`${rounds > 1 ? `Medians of ${rounds} measurements per figure` : 'One measurement per figure (BENCH_ROUNDS=3 for medians)'}: on a busy machine read the CPU figures first; a req/s difference under ~10 % is noise until several rounds agree.`);
}
