// Times phases 2-3 for a parent and five sub-tasks on jst-tracker (SQLite) that is also the code
// host (ARCHITECTURE §14): origin is bench/repo on it (git over HTTP, the token through git's
// credential store), CODEHOST_API_URL its /api/v3, no CODEHOST_REPO. Timed: `jst pr` ×5, the review
// brief, an approval ×5, `jst done` of the five, then the parent's pull request
// (`review --open-parent-pr`), its approval and `done`. Not timed: plan, start, commits, and the
// merges on the code host (`PUT …/merge`, between the two timed parts and at the end).
// Counts the tracker calls, the code host's REST calls and git-over-HTTP requests (a listener on the
// server's requests) and jst's git processes (a counting `git` shim first on PATH; the server's own
// git processes — upload-pack and receive-pack, merges — are not counted).
//
// Then, on the same server in the same run, a loop of timed requests, one of each per round:
// `POST /pulls` (a fresh branch each round), `GET /pulls?head=` (twice: right after the write, and
// again), `PUT /pulls/{n}/merge`, the tracker's `GET /issue` (twice, after the merge) and a no-op (`GET /_edge/tenant_info`, the cheapest answer the server
// gives). Server time of a request = its median round trip minus the no-op's median round trip
// (the client's and the loopback's share, the same for every request, is taken away). The server
// runs as in production (no request log, so the read front and cache are on). Then
// `GET /pulls?head=` again with 50 more pull requests open (it should not grow with them). Where
// the server has git/run.ts watchGitProcesses (2026-11-28 on), the code host's own git processes
// per request are counted too (REST's and pages', not git over HTTP's upload-pack and receive-pack;
// the merges' long-lived conversation processes, git/conversation.ts, are counted when they start).
// Run: npm run bench:lifecycle   (BENCH_LOOP=N rounds, default 40)
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseSeed, startServer } from '../packages/tracker/dist/index.js';
import { gitShim } from './lib/git-shim.mjs';
import { runJst, writeBenchPlan, writeLocalEnv } from './lib/jst-world.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const base = mkdtempSync(join(tmpdir(), 'jst-lifecycle-bench-'));
const ROUNDS = Number(process.env.BENCH_LOOP ?? 40);

const { realGit, shimDir, log: gitLog } = gitShim(base);
const gitEnv = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0' };
const git = (cwd, ...a) => execFileSync(realGit, a, { cwd, stdio: 'pipe', env: gitEnv }).toString().trim();
// Fetch, push and clone talk HTTP to the server in this process: never synchronously.
const gitNet = (cwd, ...a) =>
  new Promise((resolve, reject) =>
    execFile(realGit, a, { cwd, env: gitEnv }, (e, out, err) => (e ? reject(new Error(`git ${a.join(' ')}: ${err}`)) : resolve(out.trim()))),
  );

const email = 'a@bench.test';
const token = 'bench-token';
const CH_TOKEN = 'bench-codehost-token';
const server = await startServer({
  port: 0,
  dataDir: join(base, 'data'),
  seed: parseSeed({
    sites: [
      { host: 'bench.atlassian.net', users: [{ email, tokens: [{ token }] }], projects: [{ key: 'BEN', name: 'Bench', members: [{ email, role: 'admin' }] }] },
    ],
    codehost: {
      users: [{ login: 'bench-bot', tokens: [{ token: CH_TOKEN }] }],
      repos: [{ owner: 'bench', name: 'repo', defaultBranch: 'development', collaborators: [{ login: 'bench-bot', permission: 'write' }] }],
    },
  }),
});
const api = `${server.url}/api/v3`;
const gitUrl = `${server.url}/bench/repo.git`;

// Every request the server receives while counting: tracker, code-host REST, git over HTTP.
const calls = [];
let counting = false;
let label = '';
const labelled = [];
server.app.server.on('request', (req) => {
  if (!counting) return;
  calls.push(`${req.method} ${req.url}`);
  labelled.push([label, `${req.method} ${req.url}`]);
});

const dir = join(base, 'run');
const repo = join(dir, 'repo');
const wts = join(dir, 'worktrees');
mkdirSync(wts, { recursive: true });
git(dir, 'init', '-q', '--initial-branch=development', repo);
git(repo, 'config', 'user.name', 'b');
git(repo, 'config', 'user.email', 'b@b');
git(repo, 'commit', '-q', '--allow-empty', '-m', 'init');
git(repo, 'branch', 'main');
git(repo, 'remote', 'add', 'origin', gitUrl);
const credentials = join(dir, 'git-credentials');
writeFileSync(credentials, `http://x-access-token:${CH_TOKEN}@${new URL(server.url).host}\n`, { mode: 0o600 });
git(repo, 'config', 'credential.helper', `store --file=${credentials}`);
await gitNet(repo, 'push', '-q', '-u', 'origin', 'development', 'main');
mkdirSync(join(repo, '.jst'));
writeFileSync(join(repo, '.jst', 'team.env'), 'DEFAULT_BASE_BRANCH=development\nPRODUCTION_BRANCH=main\nPROJECT_KEY=BEN\n');
writeLocalEnv(repo, {
  worktrees: wts,
  serverUrl: server.url,
  codehostToken: CH_TOKEN,
  accounts: ['assigner', 'executor', 'reviewer'].map((role) => ({ role, email, token })),
});
writeFileSync(join(repo, '.jst', '.gitignore'), 'local.env\ncloud-id.json\nplan-journal*\n');
const planFile = writeBenchPlan(dir);

const jstBin = process.env.JST_BIN ?? join(root, 'packages/jst/bin/jst.cjs');
const runs = [];
const gitLines = () => {
  try {
    return readFileSync(gitLog, 'utf8').trim().split('\n').filter(Boolean);
  } catch {
    return [];
  }
};
const jst = async (cwd, ...args) => {
  label = args.filter((a) => !a.startsWith('BEN-') && a !== 'ok' && a !== 'ships').join(' ');
  const gitBefore = gitLines();
  const t0 = process.hrtime.bigint();
  const out = await runJst(jstBin, cwd, args, { ...gitEnv, HOME: dir, NO_COLOR: '1', PATH: `${shimDir}:${process.env.PATH}` });
  if (counting) runs.push([label, Number(process.hrtime.bigint() - t0) / 1e6, gitLines().slice(gitBefore.length)]);
  return out;
};

/** A code-host REST call as bench-bot; throws unless the status is `want`. */
async function rest(method, path, body, want) {
  const res = await fetch(`${api}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${CH_TOKEN}`,
      Accept: 'application/vnd.github+json',
      'User-Agent': 'jst-bench',
      ...(body ? { 'Content-Type': 'application/json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  if (res.status !== want) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return text === '' ? null : JSON.parse(text);
}
const pullOf = async (head) => (await rest('GET', `/repos/bench/repo/pulls?head=bench:${encodeURIComponent(head)}&state=all`, undefined, 200))[0];
const mergePull = (n) => rest('PUT', `/repos/bench/repo/pulls/${n}/merge`, {}, 200);

const planned = JSON.parse(await jst(repo, 'plan', '--plan', planFile, '--json'));
const [parent, ...subs] = planned.keys;
const [pb, ...subBranches] = planned.branches;
const [, ...subTrees] = planned.worktrees;
for (const [i, wt] of subTrees.entries()) {
  await jst(wt, 'start');
  writeFileSync(join(wt, `step${i}.txt`), `${i}\n`);
  git(wt, 'add', `step${i}.txt`);
  git(wt, 'commit', '-q', '-m', `step ${i}`);
}

rmSync(gitLog, { force: true });
let ms = 0;
/** Processes the machine created since boot (/proc/stat `processes`: every fork), or null off Linux. */
const forks = () => {
  try {
    return Number(/^processes (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'))[1]);
  } catch {
    return null;
  }
};
let created = 0;
const timed = async (work) => {
  counting = true;
  const f0 = forks();
  const t0 = process.hrtime.bigint();
  // BENCH_MARKS=1: the timed part's bounds in epoch seconds, to cut a trace (strace -ttt) to it.
  if (process.env.BENCH_MARKS) console.log(`timed from ${(Date.now() / 1000).toFixed(6)}`);
  await work();
  if (process.env.BENCH_MARKS) console.log(`timed to ${(Date.now() / 1000).toFixed(6)}`);
  ms += Number(process.hrtime.bigint() - t0) / 1e6;
  if (f0 !== null) created += forks() - f0;
  counting = false;
};
await timed(async () => {
  for (const wt of subTrees) await jst(wt, 'pr');
  await jst(repo, 'review', parent);
  for (const k of subs) await jst(repo, 'review', k, '--approve', '--summary', 'ok');
  await jst(repo, 'done', ...subs, '--yes', ...subs);
});
// The sub-task pull requests are merged on the code host, into the parent branch: not timed.
for (const b of subBranches) await mergePull((await pullOf(b)).number);
await timed(async () => {
  await jst(repo, 'review', parent, '--open-parent-pr');
  await jst(repo, 'review', parent, '--approve', '--summary', 'ships');
  await jst(repo, 'done', parent, '--yes', parent);
});
const merged = await mergePull((await pullOf(pb)).number);
await gitNet(repo, 'fetch', '-q', 'origin');
const onDevelopment = (() => {
  try {
    git(repo, 'merge-base', '--is-ancestor', merged.sha, 'origin/development');
    return true;
  } catch {
    return false;
  }
})();
if (!onDevelopment) throw new Error('the parent merge is not on development');

const gitCalls = readFileSync(gitLog, 'utf8').trim().split('\n');
const kind = (c) => (/^\S+ \/api\/v3\//.test(c) ? 'codehost' : /\.git\/|\/(info\/refs|git-upload-pack|git-receive-pack)/.test(c) ? 'git' : 'tracker');
const tally = (xs) =>
  Object.entries(xs.reduce((m, x) => ((m[x] = (m[x] ?? 0) + 1), m), {}))
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${v} × ${k}`);
const shape = (c) =>
  c
    .replace(/\?.*/, '')
    .replace(/\/ex\/jira\/[^/]+\/rest\/api\/3/, '')
    .replace(/BEN-\d+/, 'BEN-n')
    .replace(/\/\d+(?=\/|$)/g, '/n')
    .replace(/^(\S+ )\/api\/v3/, '$1');
const byKind = {
  tracker: calls.filter((c) => kind(c) === 'tracker'),
  codehost: calls.filter((c) => kind(c) === 'codehost'),
  git: calls.filter((c) => kind(c) === 'git'),
};
console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, Node.js ${process.version}, git ${git(repo, '--version').replace('git version ', '')}`);
console.log(`jst pr ×5, review brief, approve ×5, done ×5, --open-parent-pr, approve, done (parent + 5 sub-tasks; 15 jst processes): ${ms.toFixed(0)} ms wall`);
// The floor of this machine, same run: what starting the lifecycle's processes alone costs (its 15
// Node.js processes as `node -e 0`, every other process it created as a fork and exec of /bin/true).
const medianOf = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const timeOf = (cmd, args) => {
  const t0 = process.hrtime.bigint();
  execFileSync(cmd, args, { stdio: 'ignore' });
  return Number(process.hrtime.bigint() - t0) / 1e6;
};
const trueMs = medianOf(Array.from({ length: 40 }, () => timeOf('/bin/true', [])));
const nodeMs = medianOf(Array.from({ length: 9 }, () => timeOf(process.execPath, ['-e', '0'])));
if (created > 0) {
  const floorMs = 15 * nodeMs + Math.max(0, created - 15) * trueMs;
  console.log(
    `processes created meanwhile (the machine's fork count): ${created}; floor, same run: 15 × node -e 0 (${nodeMs.toFixed(1)} ms) + ${created - 15} × /bin/true (${trueMs.toFixed(1)} ms) = ${floorMs.toFixed(0)} ms; wall ÷ floor ${(ms / floorMs).toFixed(2)}`,
  );
}
console.log(
  `tracker calls: ${byKind.tracker.length}; code-host REST calls: ${byKind.codehost.length}; git-over-HTTP requests: ${byKind.git.length}; jst's git processes: ${gitCalls.length}`,
);
console.log('tracker:');
for (const l of tally(byKind.tracker.map(shape))) console.log(`  ${l}`);
console.log('code host:');
for (const l of tally(byKind.codehost.map(shape))) console.log(`  ${l}`);
console.log('git over HTTP:');
for (const l of tally(byKind.git.map(shape))) console.log(`  ${l}`);
console.log('git:');
for (const l of tally(gitCalls.map((c) => c.split(' ')[0]))) console.log(`  ${l}`);
// Per command (each kind summed over its runs): wall time and the requests it made.
const perCommand = new Map();
for (const [l, t, g] of runs) {
  const e = perCommand.get(l) ?? { runs: 0, ms: 0, calls: [] };
  e.runs += 1;
  e.ms += t;
  e.calls.push(...g.map((x) => `git ${x.split(' ').slice(0, 2).join(' ')}`));
  perCommand.set(l, e);
}
for (const [l, c] of labelled) perCommand.get(l)?.calls.push(shape(c));
console.log('per command (runs, wall ms summed, requests per run):');
for (const [l, e] of perCommand) {
  console.log(`  jst ${l} ×${e.runs}: ${e.ms.toFixed(0)} ms, ${(e.calls.length / e.runs).toFixed(1)} requests per run`);
  if (process.env.BENCH_DETAIL) for (const x of tally(e.calls)) console.log(`      ${x}`);
}

// --- Server time of the code host's calls beside GET /issue, on the same server.
const loop = join(dir, 'loop');
await gitNet(dir, '-c', `credential.helper=store --file=${credentials}`, 'clone', '-q', gitUrl, loop);
git(loop, 'config', 'credential.helper', `store --file=${credentials}`);
git(loop, 'config', 'user.name', 'b');
git(loop, 'config', 'user.email', 'b@b');
for (let i = 0; i < ROUNDS; i++) {
  git(loop, 'checkout', '-q', '-B', `bench/loop-${i}`, 'origin/development');
  writeFileSync(join(loop, `loop-${i}.txt`), `${i}\n`);
  git(loop, 'add', `loop-${i}.txt`);
  git(loop, 'commit', '-q', '-m', `loop ${i}`);
}
await gitNet(loop, 'push', '-q', 'origin', ...Array.from({ length: ROUNDS }, (_, i) => `bench/loop-${i}`));
const tenant = await (await fetch(`${server.url}/_edge/tenant_info`)).json();
const issueUrl = `${server.url}/ex/jira/${tenant.cloudId}/rest/api/3/issue/${subs[0]}`;
const basic = `Basic ${Buffer.from(`${email}:${token}`).toString('base64')}`;
const rounds = {
  noop: [],
  'POST /pulls': [],
  'GET /pulls?head=': [],
  'GET /pulls?head= (again)': [],
  'PUT /pulls/{n}/merge': [],
  'GET /issue': [],
  'GET /issue (again)': [],
  'GET /pulls?head= (50 open)': [],
};
const gitCount = {};
const gitArgs = {};
/** A git command's name and its leading options (not its object names). */
const gitWords = (args) => [args[0], ...args.slice(1).filter((a, i) => i === 0 && a.startsWith('-'))].join(' ');
let gitRunning = null;
const run = await import('../packages/tracker/dist/codehost/git/run.js').catch(() => ({}));
if (typeof run.watchGitProcesses === 'function')
  run.watchGitProcesses((args) => {
    if (gitRunning === null) return;
    gitCount[gitRunning] = (gitCount[gitRunning] ?? 0) + 1;
    // BENCH_GIT_ARGS=1: which git commands each request runs (the first words of each), printed with the table.
    if (process.env.BENCH_GIT_ARGS) (gitArgs[gitRunning] ??= new Map()).set(gitWords(args), (gitArgs[gitRunning].get(gitWords(args)) ?? 0) + 1);
  });
const clock = async (name, work) => {
  gitRunning = name;
  const t0 = process.hrtime.bigint();
  const r = await work();
  rounds[name].push(Number(process.hrtime.bigint() - t0) / 1e6);
  gitRunning = null;
  return r;
};
const getIssue = async () => {
  const r = await fetch(issueUrl, { headers: { Authorization: basic, Accept: 'application/json' } });
  await r.arrayBuffer();
  if (r.status !== 200) throw new Error(`GET /issue ${r.status}`);
};
const noop = async () => {
  const r = await fetch(`${server.url}/_edge/tenant_info`);
  await r.arrayBuffer();
};
for (let i = 0; i < 5; i++) {
  await noop();
  await getIssue();
  await rest('GET', '/user', undefined, 200);
} // warm-up
for (let i = 0; i < ROUNDS; i++) {
  const head = `bench/loop-${i}`;
  await clock('noop', noop);
  const created = await clock('POST /pulls', () => rest('POST', '/repos/bench/repo/pulls', { title: `loop ${i}`, head, base: 'development', body: '' }, 201));
  const byHead = () => rest('GET', `/repos/bench/repo/pulls?head=bench:${encodeURIComponent(head)}&base=development&state=all`, undefined, 200);
  await clock('GET /pulls?head=', byHead);
  // The same read at once again: the first after a write pays for caches the write's git
  // processes and database work left cold (and the issue read cache's version moved by the merge).
  await clock('GET /pulls?head= (again)', byHead);
  await clock('PUT /pulls/{n}/merge', () => mergePull(created.number));
  await clock('GET /issue', getIssue);
  await clock('GET /issue (again)', getIssue);
}
// 50 more pull requests open, then the head filter again (one of them each round).
const MANY = 50;
for (let i = 0; i < MANY; i++) git(loop, 'branch', '-f', `bench/many-${i}`, `bench/loop-${ROUNDS - 1}`);
await gitNet(loop, 'push', '-q', 'origin', ...Array.from({ length: MANY }, (_, i) => `bench/many-${i}`));
git(loop, 'checkout', '-q', '-B', 'bench/many-base', 'origin/development');
writeFileSync(join(loop, 'many-base.txt'), 'x\n');
git(loop, 'add', 'many-base.txt');
git(loop, 'commit', '-q', '-m', 'many base');
await gitNet(loop, 'push', '-q', 'origin', 'bench/many-base');
for (let i = 0; i < MANY; i++)
  await rest('POST', '/repos/bench/repo/pulls', { title: `many ${i}`, head: `bench/many-${i}`, base: 'bench/many-base', body: '' }, 201);
for (let i = 0; i < ROUNDS; i++) {
  const head = `bench/many-${i % MANY}`;
  await clock('noop', noop);
  await clock('GET /pulls?head= (50 open)', () => rest('GET', `/repos/bench/repo/pulls?head=bench:${encodeURIComponent(head)}&state=open`, undefined, 200));
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const floor = median(rounds.noop);
console.log(`server time, median of ${ROUNDS} rounds (each round one of each, in turn; server time = median round trip − the no-op's ${floor.toFixed(2)} ms):`);
for (const [name, xs] of Object.entries(rounds)) {
  if (name === 'noop') continue;
  console.log(
    `  ${name.padEnd(26)} ${(median(xs) - floor).toFixed(2).padStart(7)} ms   (round trip median ${median(xs).toFixed(2)} ms, p90 ${[...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)].toFixed(2)} ms)` +
      (typeof run.watchGitProcesses === 'function' ? `   git processes/request ${((gitCount[name] ?? 0) / xs.length).toFixed(1)}` : ''),
  );
  for (const [args, n] of gitArgs[name] ?? []) console.log(`      git ${args}: ${(n / xs.length).toFixed(1)}/request`);
}

await server.close();
rmSync(base, { recursive: true, force: true });
