// The run's summary: one row per target of the project in bench/RESULTS.md's format (work, ours,
// floor, ratio, Prism, date, commit), and, when another build was measured beside this one
// (BENCH_BEFORE_DIR), a before/after table of the figures a change is judged by. Every ratio is
// against a figure of the same run: the floor issue read's CPU per request (bench/lib/floor-read.mjs,
// on SQLite; PostgreSQL's figures are held against the same SQLite floor, and count the tracker's CPU
// and PostgreSQL's together), the bare node:http ceiling, the group-commit floor create.

const fmt = (n, digits = 0) =>
  n === null || n === undefined || Number.isNaN(n) ? '–' : n.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const pct = (a, b) => (a === undefined || !b ? '–' : `${fmt((100 * a) / b)} %`);
const times = (a, b) => (a === undefined || !b ? '–' : `${fmt(a / b, 2)}×`);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? undefined : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const STORES = [
  ['sqlite', 'SQLite'],
  ['postgres', 'PostgreSQL'],
];

/** CPU µs per request of the server, and for PostgreSQL of its backends too (the floor does its own SQLite work). */
const cpuMicros = (r) => (r?.serverCpuPer1k == null ? undefined : 1000 * (r.serverCpuPer1k + (r.dbCpuPer1k ?? 0)));
const cpuText = (r) =>
  r?.dbCpuPer1k == null
    ? `${fmt(cpuMicros(r))} µs`
    : `tracker ${fmt(1000 * r.serverCpuPer1k)} + PostgreSQL ${fmt(1000 * r.dbCpuPer1k)} = ${fmt(cpuMicros(r))} µs`;

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
      rps: of((r) => r.result.rps),
      p50: of((r) => r.result.p50),
      serverCpuPer1k: of((r) => r.result.serverCpuPer1k),
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
  p(
    `Machine: ${m.nproc} × ${m.cpu}, ${m.memGiB} GiB; Node.js ${m.node}; PostgreSQL ${m.postgres ?? '–'}; ${m.issues.toLocaleString('en')} issues${m.quick ? ' (QUICK run)' : ''}${m.rounds > 1 ? `; medians of ${m.rounds} rounds` : ''}. Tracker: ${commit}.`,
  );
  p();
  row(['work', 'ours', 'floor', 'ratio', 'Prism', 'date', 'commit']);
  row(['---', '---:', '---', '---:', '---:', '---', '---']);
  const tail = [date, commit];
  const conns = connections.join(' / ');
  /** One cell per connection count, joined as bench/RESULTS.md writes them ("1 / 10 / 50"). */
  const each = (cell) => connections.map(cell).join(' / ');
  const stores = STORES.filter(([kind]) => results.sections[kind]);
  for (const [kind, title] of stores) {
    const s = results.sections[kind];
    const random = routeRow(s, 'get-issue', main);
    const prism = kind === 'sqlite' ? results.sections.prism?.rows.find((r) => r.connections === main) : undefined;
    row([
      `\`GET /issue\`, a random key of ${fmt(m.issues)}, ${title}, ${main} conns: server CPU µs / request`,
      `${cpuText(random?.result)} (${fmt(random?.result.rps)} req/s)`,
      `floor issue read (\`bench/lib/floor-read.mjs\`${kind === 'sqlite' ? '' : ', on SQLite'}): ${fmt(floorCpu(main))} µs (${fmt(floors.get(main)?.floor.rps)} req/s)`,
      times(cpuMicros(random?.result), floorCpu(main)),
      prism ? `${fmt(prism.prism.rps)} req/s, ${fmt(cpuMicros(prism.prism))} µs (jst-tracker ${fmt(prism.tracker.rps)} beside it)` : '',
      ...tail,
    ]);
    for (const [scenario, what] of [
      ['get-issue-same', 'the same key read again (read cache)'],
      ['get-issue-hot', 'a working set of 1,000 keys'],
    ]) {
      const at = (c) => routeRow(s, scenario, c);
      row([
        `\`GET /issue\`, ${what}, ${title}: req/s, ${conns} conns`,
        each((c) => fmt(at(c)?.result.rps)),
        `bare \`node:http\` ceiling: ${each((c) => fmt(at(c)?.ceiling.rps))} req/s`,
        each((c) => pct(at(c)?.result.rps, at(c)?.ceiling.rps)),
        '',
        ...tail,
      ]);
    }
    const create = (c) => routeRow(s, 'create-issue', c);
    row([
      `\`POST /issue\`, ${title}: req/s, ${conns} conns`,
      each((c) => fmt(create(c)?.result.rps)),
      `group-commit floor create${kind === 'sqlite' ? '' : ' (SQLite)'}: ${each((c) => fmt(floorGroup(c)))} req/s`,
      each((c) => pct(create(c)?.result.rps, floorGroup(c))),
      '',
      ...tail,
    ]);
  }
  if (stores.length) {
    const first = connections[0];
    const p50 = stores.map(([kind]) => routeRow(results.sections[kind], 'search', first)?.result.p50);
    row([
      `\`POST /search/jql\`, 50 issues by project + status in ${fmt(m.issues)}: p50, ${first} conn${first === 1 ? '' : 's'}`,
      stores.map(([, title], i) => `${title} ${fmt(p50[i], 2)} ms`).join(', '),
      'target: 5 ms',
      p50.map((x) => times(x, 5)).join(' / '),
      '',
      ...tail,
    ]);
    const rss = stores.map(([kind]) => Math.max(...results.sections[kind].rows.filter((r) => (r.build ?? 'after') === 'after').map((r) => r.result.rssPeak)));
    const mb = (mib) => (mib * 2 ** 20) / 1e6;
    row([
      `peak RSS over every route with ${fmt(m.issues)} issues`,
      stores.map(([, title], i) => `${title} ${fmt(rss[i])} MiB = ${fmt(mb(rss[i]))} MB`).join(', '),
      'target: 200 MB',
      rss.map((x) => times(mb(x), 200)).join(' / '),
      '',
      ...tail,
    ]);
  }
  if (results.sections.scale) {
    const rows = results.sections.scale.rows;
    const cs = [...new Set(rows.map((r) => r.connections))];
    const of = (c, processes) => rows.filter((r) => r.connections === c && r.processes === processes);
    const ratio = (c) =>
      median(
        of(c, 1)
          .map((r, i) => (of(c, 2)[i] ? of(c, 2)[i].result.rps / r.result.rps : undefined))
          .filter((x) => x !== undefined),
      );
    const rps = (c, processes) => fmt(median(of(c, processes).map((r) => r.result.rps)));
    row([
      `PostgreSQL write mix: 2 processes ÷ 1, median of ${of(cs[0], 1).length} alternating rounds, ${cs.join(' / ')} conns`,
      `${cs.map((c) => rps(c, 2)).join(' / ')} req/s`,
      `1 process: ${cs.map((c) => rps(c, 1)).join(' / ')} req/s`,
      cs.map((c) => times(ratio(c), 1)).join(' / '),
      '',
      ...tail,
    ]);
  }
  p();
  p(
    `Ratios: CPU = ours ÷ the floor's (lower is better; PostgreSQL counts the tracker and its backends against the SQLite floor, which has no PostgreSQL of its own); req/s = ours ÷ the yardstick's.`,
  );

  if (m.beforeCommit) beforeAfter(results, { connections, floors, floorCpu, floorGroup, p, row });
  return lines.join('\n');
}

/** The figures a change is judged by, both builds, same run, taking turns figure by figure. */
function beforeAfter(results, { connections, floorCpu, floorGroup, p, row }) {
  const m = results.machine;
  p();
  const rounds = m.rounds ?? 1;
  p(
    `### Before (${m.beforeCommit}) and after (${m.commit}), same run, same dataset, taking turns figure by figure${rounds > 1 ? `; medians of ${rounds} rounds` : ''}`,
  );
  p();
  row(['store', 'work', 'conns', 'before', 'after', 'floor', 'ratio before', 'ratio after']);
  row(['---', '---', '---:', '---:', '---:', '---', '---:', '---:']);
  for (const [kind, title] of STORES) {
    const s = results.sections[kind];
    if (!s) continue;
    for (const c of connections) {
      const pair = (scenario) => [routeRow(s, scenario, c, 'before'), routeRow(s, scenario, c, 'after')];
      const [rb, ra] = pair('get-issue');
      row([
        title,
        'GET /issue, random key: CPU µs / request',
        c,
        fmt(cpuMicros(rb?.result)),
        fmt(cpuMicros(ra?.result)),
        `floor issue read (SQLite): ${fmt(floorCpu(c))} µs`,
        times(cpuMicros(rb?.result), floorCpu(c)),
        times(cpuMicros(ra?.result), floorCpu(c)),
      ]);
      row([
        title,
        'GET /issue, random key: req/s',
        c,
        fmt(rb?.result.rps),
        fmt(ra?.result.rps),
        `bare node:http ceiling: ${fmt(ra?.ceiling.rps)} req/s`,
        pct(rb?.result.rps, rb?.ceiling.rps),
        pct(ra?.result.rps, ra?.ceiling.rps),
      ]);
      const [sb, sa] = pair('get-issue-same');
      row([
        title,
        'GET /issue, the same key: req/s',
        c,
        fmt(sb?.result.rps),
        fmt(sa?.result.rps),
        `bare node:http ceiling: ${fmt(sa?.ceiling.rps)} req/s`,
        pct(sb?.result.rps, sb?.ceiling.rps),
        pct(sa?.result.rps, sa?.ceiling.rps),
      ]);
      const [cb, ca] = pair('create-issue');
      row([
        title,
        'POST /issue: req/s',
        c,
        fmt(cb?.result.rps),
        fmt(ca?.result.rps),
        `group-commit floor create (SQLite): ${fmt(floorGroup(c))} req/s`,
        pct(cb?.result.rps, floorGroup(c)),
        pct(ca?.result.rps, floorGroup(c)),
      ]);
    }
  }
  p();
  p(
    `${rounds > 1 ? `Medians of ${rounds} measurements per figure` : 'One measurement per figure (BENCH_ROUNDS=3 for medians)'}: on a busy machine read the CPU figures first; a req/s difference under ~10 % is noise until several rounds agree.`,
  );
}
