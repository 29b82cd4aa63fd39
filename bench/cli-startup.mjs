// Times one `jst raw GET /myself` against `node -e 0` (the floor of any Node program), a bare node:http
// GET of the same address (the floor of any request from a new process), and the old
// toolkit's way (`curl … | jq .`), all against the same local jst-tracker in the same run, and the
// per-call cost of `jst batch` (one process, one keep-alive connection). Run: npm run bench:cli
// Also the program path (commander and the command specs, dist/program.cjs): `jst --role assigner
// whoami`. CLI_BEFORE=/path/to/another/checkout times its jst beside this one's, turn by turn.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, parseSeed } from '../packages/tracker/dist/index.js';

const RUNS = Number(process.env.RUNS ?? 30);
const BATCH = Number(process.env.BATCH ?? 500);
const root = fileURLToPath(new URL('..', import.meta.url));
const jstBin = join(root, 'packages/jst/bin/jst.cjs');
const beforeBin = process.env.CLI_BEFORE ? join(process.env.CLI_BEFORE, 'packages/jst/bin/jst.cjs') : null;

const dir = mkdtempSync(join(tmpdir(), 'jst-bench-'));
const email = 'bench@bench.test';
const token = 'bench-token-not-secret';
const server = await startServer({
  port: 0,
  dataDir: join(dir, 'data'),
  seed: parseSeed({
    sites: [
      {
        host: 'bench.atlassian.net',
        cloudId: 'bench-cloud',
        users: [{ email, tokens: [{ token }] }],
        projects: [{ key: 'BEN', name: 'Bench', members: [{ email, role: 'admin' }] }],
      },
    ],
  }),
});
const host = new URL(server.url).host;
mkdirSync(join(dir, '.jst'));
writeFileSync(join(dir, '.jst', 'team.env'), 'PROJECT_KEY=BEN\nDEFAULT_BASE_BRANCH=development\nPRODUCTION_BRANCH=main\n');
writeFileSync(
  join(dir, '.jst', 'local.env'),
  [
    `TRACKER_ACCOUNT_URL=${host}`,
    `TRACKER_GATEWAY_URL=${server.url}`,
    `WORKTREES_DIR=${dir}`,
    ...['ASSIGNER', 'EXECUTOR', 'REVIEWER'].flatMap((r) => [`TRACKER_${r}_EMAIL=${email}`, `TRACKER_${r}_TOKEN=${token}`]),
  ].join('\n') + '\n',
);
const api = `${server.url}/ex/jira/bench-cloud/rest/api/3`;

// Each Node process also reports its own CPU time (user + system, from its start) through a preload
// (bench/lib/cpu-at-exit.cjs): on a loaded machine that moves far less than the wall time.
const cpuFile = join(dir, 'cpu.txt');
const cpuPreload = join(root, 'bench/lib/cpu-at-exit.cjs');
const cpu = {};
function time(cmd, args, input, env = {}, name = null) {
  const node = cmd === process.execPath;
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd, node ? ['-r', cpuPreload, ...args] : args, {
    cwd: dir,
    input,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', XDG_CACHE_HOME: join(dir, 'cache'), BENCH_CPU_FILE: cpuFile, ...env },
  });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  if (node && name) {
    const lines = readFileSync(cpuFile, 'utf8').trim().split('\n');
    (cpu[name] ??= []).push(Number(lines.at(-1)) / 1000);
  }
  rmSync(cpuFile, { force: true });
  return ms;
}
const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { median: q(0.5), p90: q(0.9), min: s[0] };
};
// spawnSync blocks this process, so the tracker must live in another one for the timings.
await server.close();
const child = spawn(
  process.execPath,
  [join(root, 'packages/tracker/bin/jst-tracker.js'), 'serve', '--port', String(new URL(server.url).port), '--data', join(dir, 'data')],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
await new Promise((r) => child.stdout.once('data', r));

let current = null;
const timed = (cmd, args, input, env) => time(cmd, args, input, env, current);
const cases = {
  'node -e 0': () => timed(process.execPath, ['-e', '0']),
  // The floor of any request from a new Node.js process: node:http, the same call, nothing else.
  'node -e "http.get(/myself)"': () =>
    timed(process.execPath, [
      '-e',
      `require('node:http').get(${JSON.stringify(`${api}/myself`)}, { headers: { Authorization: ${JSON.stringify(`Basic ${Buffer.from(`${email}:${token}`).toString('base64')}`)} } }, (r) => { if (r.statusCode !== 200) process.exit(1); r.resume(); })`,
    ]),
  'jst --role assigner raw GET /myself': () => timed(process.execPath, [jstBin, '--role', 'assigner', 'raw', 'GET', '/myself']),
  'the same, JST_COMPILE_CACHE=0': () =>
    timed(process.execPath, [jstBin, '--role', 'assigner', 'raw', 'GET', '/myself'], undefined, { JST_COMPILE_CACHE: '0' }),
  'curl -s -u … /myself | jq .': () => timed('sh', ['-c', `curl -sf -u '${email}:${token}' '${api}/myself' | jq . > /dev/null`]),
  'jst --role assigner whoami (the program path)': () => timed(process.execPath, [jstBin, '--role', 'assigner', 'whoami']),
  ...(beforeBin
    ? {
        'before: jst --role assigner raw GET /myself': () => timed(process.execPath, [beforeBin, '--role', 'assigner', 'raw', 'GET', '/myself']),
        'before: jst --role assigner whoami (the program path)': () => timed(process.execPath, [beforeBin, '--role', 'assigner', 'whoami']),
      }
    : {}),
};
for (const run of Object.values(cases)) for (let i = 0; i < 3; i++) run(); // warm the page cache
const results = {};
for (let i = 0; i < RUNS; i++)
  for (const [name, run] of Object.entries(cases)) {
    current = name;
    (results[name] ??= []).push(run());
  }
current = null;

const lines = Array.from({ length: BATCH }, () => JSON.stringify({ method: 'GET', path: '/myself' })).join('\n') + '\n';
const batchRuns = [];
for (let i = 0; i < 5; i++) batchRuns.push(time(process.execPath, [jstBin, '--role', 'assigner', 'batch'], lines));
child.kill('SIGTERM');
rmSync(dir, { recursive: true, force: true });

const floor = stats(results['node -e 0']).median;
const raw = stats(results['jst --role assigner raw GET /myself']).median;
const curl = stats(results['curl -s -u … /myself | jq .']).median;
const uncached = stats(results['the same, JST_COMPILE_CACHE=0']).median;
const batchMedian = stats(batchRuns).median;
const perCall = (batchMedian - raw) / BATCH;
console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, Node.js ${process.version}; ${RUNS} runs each, interleaved`);
console.log('| command | median ms | p90 ms | min ms | CPU ms (median) |');
console.log('|---|---|---|---|---|');
for (const [name, xs] of Object.entries(results)) {
  const s = stats(xs);
  console.log(`| \`${name}\` | ${s.median.toFixed(1)} | ${s.p90.toFixed(1)} | ${s.min.toFixed(1)} | ${cpu[name] ? stats(cpu[name]).median.toFixed(1) : '–'} |`);
}
const cpuOver = (name) => (cpu[name] ? (stats(cpu[name]).median - stats(cpu['node -e 0']).median).toFixed(1) : '–');
console.log(
  `CPU over node -e 0: jst raw ${cpuOver('jst --role assigner raw GET /myself')} ms, whoami ${cpuOver('jst --role assigner whoami (the program path)')} ms${
    beforeBin
      ? `; before: raw ${cpuOver('before: jst --role assigner raw GET /myself')} ms, whoami ${cpuOver('before: jst --role assigner whoami (the program path)')} ms`
      : ''
  }`,
);
const program = stats(results['jst --role assigner whoami (the program path)']).median;
console.log(`\njst whoami (program path) − node -e 0 = ${(program - floor).toFixed(1)} ms`);
if (beforeBin) {
  const b = (name) => stats(results[`before: ${name}`]).median;
  console.log(
    `before (${process.env.CLI_BEFORE}): raw − node -e 0 = ${(b('jst --role assigner raw GET /myself') - floor).toFixed(1)} ms, whoami − node -e 0 = ${(b('jst --role assigner whoami (the program path)') - floor).toFixed(1)} ms`,
  );
}
const bare = stats(results['node -e "http.get(/myself)"']).median;
console.log(
  `a bare node:http GET /myself − node -e 0 = ${(bare - floor).toFixed(1)} ms (CPU ${cpuOver('node -e "http.get(/myself)"')} ms): jst raw over it ${(raw - bare).toFixed(1)} ms`,
);
console.log(
  `jst raw − node -e 0 = ${(raw - floor).toFixed(1)} ms (target ≤ 25 ms; ${(uncached - floor).toFixed(1)} ms without the code cache); curl | jq = ${curl.toFixed(1)} ms`,
);
console.log(
  `jst batch: ${BATCH} GET /myself in ${batchMedian.toFixed(0)} ms (median of 5) → ${perCall.toFixed(2)} ms per call after start-up = ${((100 * perCall) / curl).toFixed(1)}% of one curl | jq process`,
);
