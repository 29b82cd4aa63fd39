// Times git over HTTP against started jst-tracker code hosts (ARCHITECTURE §14), one per checkout
// given (default this one), taken in turn within each round so that the machine's load falls on
// all alike: 20 `git ls-remote` (protocol v2: info/refs + ls-refs), then 10 rounds of a commit pushed
// (info/refs + receive-pack) and fetched into a second clone (info/refs + ls-refs + fetch); each
// also meets a 401 first (git sends the credential once asked). Prints, per checkout, the median
// and p90 of each, in ms, the server's own time per request git answered (arrival to the answer's
// end) by endpoint, and the CPU time of the git processes (the server's and the clients') per such
// request; with two checkouts, the ratios of the second's medians to the first's.
// Run: node bench/git-http.mjs [checkout…]   (a checkout: a repository root whose built
// packages/tracker/dist is served, e.g. `node bench/git-http.mjs /work/main .`; BENCH_ROUNDS=N
// scales both loops)
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const roots = (process.argv.length > 2 ? process.argv.slice(2) : [fileURLToPath(new URL('..', import.meta.url))]).map((r) => resolve(r));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const base = mkdtempSync(join(tmpdir(), 'jst-git-http-bench-'));
const env = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0' };
const git = (cwd, ...a) => execFileSync('git', a, { cwd, stdio: 'pipe', env }).toString().trim();
// The servers answer in this very process: never synchronously.
const gitNet = (cwd, ...a) =>
  new Promise((ok, fail) => execFile('git', a, { cwd, env }, (e, out, err) => (e ? fail(new Error(`git ${a.join(' ')}: ${err}`)) : ok(out.trim()))));
/** CPU time (ms) of this process's ended children and theirs (/proc/self/stat cutime + cstime, at 100 ticks/s): the servers' git, and the clients'. */
const childCpuMs = () => {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  return (Number(fields[13]) + Number(fields[14])) * 10;
};
const TOKEN = 'bench-codehost-token';

/** One checkout's server, its two clones, and what was measured of it. */
async function start(root, i) {
  const { parseSeed, startServer } = await import(pathToFileURL(join(root, 'packages/tracker/dist/index.js')).href);
  const dir = join(base, String(i));
  mkdirSync(dir);
  const server = await startServer({
    port: 0,
    dataDir: join(dir, 'data'),
    seed: parseSeed({
      sites: [{ host: 'bench.atlassian.net', users: [{ email: 'a@bench.test', tokens: [{ token: 't' }] }], projects: [] }],
      codehost: {
        users: [{ login: 'bench-bot', tokens: [{ token: TOKEN }] }],
        repos: [{ owner: 'bench', name: 'repo', defaultBranch: 'main', collaborators: [{ login: 'bench-bot', permission: 'write' }] }],
      },
    }),
  });
  const s = { root, server, dir, serverMs: { 'info/refs': [], 'git-upload-pack': [], 'git-receive-pack': [] }, ms: { ls: [], push: [], fetch: [] }, cpu: 0 };
  s.counting = false;
  server.app.server.on('request', (req, res) => {
    if (!s.counting) return;
    const kind = Object.keys(s.serverMs).find((k) => (req.url ?? '').includes(`/${k}`));
    if (kind === undefined) return;
    const t0 = process.hrtime.bigint();
    res.on('finish', () => {
      // The answers git gave: a 401 (git's first try, without the credential) runs no git.
      if (res.statusCode === 200) s.serverMs[kind].push(Number(process.hrtime.bigint() - t0) / 1e6);
    });
  });
  const u = new URL(`${server.url}/bench/repo.git`);
  u.username = 'x-access-token';
  u.password = TOKEN;
  s.url = u.toString();
  s.pusher = join(dir, 'pusher');
  s.fetcher = join(dir, 'fetcher');
  git(dir, 'init', '-q', '--initial-branch=main', s.pusher);
  git(s.pusher, 'config', 'user.name', 'b');
  git(s.pusher, 'config', 'user.email', 'b@b');
  git(s.pusher, 'commit', '-q', '--allow-empty', '-m', 'init');
  git(s.pusher, 'remote', 'add', 'origin', s.url);
  await gitNet(s.pusher, 'push', '-q', 'origin', 'main');
  await gitNet(dir, 'clone', '-q', s.url, s.fetcher);
  for (let k = 0; k < 3; k++) await gitNet(dir, 'ls-remote', s.url); // warm-up
  s.counting = true;
  return s;
}

const servers = [];
for (const [i, root] of roots.entries()) servers.push(await start(root, i));

/** Runs `work` against each server, in an order that alternates round by round; its time and its git CPU go to that server. */
const each = async (round, name, work) => {
  const order = round % 2 === 0 ? servers : [...servers].reverse();
  for (const s of order) {
    const cpu0 = childCpuMs();
    const t0 = process.hrtime.bigint();
    await work(s);
    s.ms[name].push(Number(process.hrtime.bigint() - t0) / 1e6);
    s.cpu += childCpuMs() - cpu0;
  }
};
for (let i = 0; i < 2 * ROUNDS; i++) await each(i, 'ls', (s) => gitNet(s.dir, 'ls-remote', s.url));
for (let i = 0; i < ROUNDS; i++) {
  for (const s of servers) {
    writeFileSync(join(s.pusher, 'f.txt'), `${i}\n`);
    git(s.pusher, 'add', 'f.txt');
    git(s.pusher, 'commit', '-q', '-m', `round ${i}`);
  }
  await each(i, 'push', (s) => gitNet(s.pusher, 'push', '-q', 'origin', 'main'));
  await each(i, 'fetch', (s) => gitNet(s.fetcher, 'fetch', '-q', 'origin'));
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const p90 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)];
const LABELS = { ls: 'ls-remote (2 requests)', push: 'push (2 requests)', fetch: 'fetch (3 requests)' };
const rows = (s) => [...Object.entries(s.ms).map(([k, xs]) => [LABELS[k], xs]), ...Object.entries(s.serverMs).map(([k, xs]) => [`server, ${k}`, xs])];
for (const s of servers) {
  console.log(`git over HTTP, ${s.root}:`);
  for (const [name, xs] of rows(s))
    console.log(`  ${name.padEnd(24)} median ${median(xs).toFixed(1).padStart(6)} ms   p90 ${p90(xs).toFixed(1).padStart(6)} ms   (${xs.length})`);
  const answered = Object.values(s.serverMs).reduce((n, xs) => n + xs.length, 0);
  console.log(`  git CPU (server's and client's): ${s.cpu} ms, ${(s.cpu / answered).toFixed(1)} ms per git request answered (${answered})`);
}
if (servers.length === 2) {
  const [a, b] = servers;
  console.log(`ratio of medians, ${b.root} / ${a.root}:`);
  const ra = rows(a);
  for (const [k, [name, xs]] of rows(b).entries()) console.log(`  ${name.padEnd(24)} ${(median(xs) / median(ra[k][1])).toFixed(2)}`);
  const per = (s) => s.cpu / Object.values(s.serverMs).reduce((n, xs) => n + xs.length, 0);
  console.log(`  ${'git CPU per request'.padEnd(24)} ${(per(b) / per(a)).toFixed(2)}`);
}
for (const s of servers) await s.server.close();
rmSync(base, { recursive: true, force: true });
