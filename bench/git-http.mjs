// Times git over HTTP against a started jst-tracker code host (ARCHITECTURE §14): 20 `git ls-remote`
// (protocol v2: info/refs + ls-refs), then 10 rounds of a commit pushed (info/refs + receive-pack)
// and fetched into a second clone (info/refs + ls-refs + fetch); each also meets a 401 first (git
// sends the credential once asked). Prints the median and p90 of each, in ms, and the
// server's own time per request git answered (arrival to the answer's end) by endpoint, and the CPU
// time of every git process (the server's and the clients') per such request.
// Run: node bench/git-http.mjs [checkout]   (checkout: the repository root whose built
// packages/tracker/dist is served, default this one; BENCH_ROUNDS=N scales both loops)
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(process.argv[2] ?? fileURLToPath(new URL('..', import.meta.url)));
const { parseSeed, startServer } = await import(pathToFileURL(join(root, 'packages/tracker/dist/index.js')).href);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const base = mkdtempSync(join(tmpdir(), 'jst-git-http-bench-'));
const env = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0' };
const git = (cwd, ...a) => execFileSync('git', a, { cwd, stdio: 'pipe', env }).toString().trim();
// The server answers in this very process: never synchronously.
const gitNet = (cwd, ...a) =>
  new Promise((ok, fail) => execFile('git', a, { cwd, env }, (e, out, err) => (e ? fail(new Error(`git ${a.join(' ')}: ${err}`)) : ok(out.trim()))));

const TOKEN = 'bench-codehost-token';
const server = await startServer({
  port: 0,
  dataDir: join(base, 'data'),
  seed: parseSeed({
    sites: [{ host: 'bench.atlassian.net', users: [{ email: 'a@bench.test', tokens: [{ token: 't' }] }], projects: [] }],
    codehost: {
      users: [{ login: 'bench-bot', tokens: [{ token: TOKEN }] }],
      repos: [{ owner: 'bench', name: 'repo', defaultBranch: 'main', collaborators: [{ login: 'bench-bot', permission: 'write' }] }],
    },
  }),
});
// The server's own time per git request (arrival to the answer's end), by endpoint.
const serverMs = { 'info/refs': [], 'git-upload-pack': [], 'git-receive-pack': [] };
let counting = false;
server.app.server.on('request', (req, res) => {
  if (!counting) return;
  const kind = Object.keys(serverMs).find((k) => (req.url ?? '').includes(`/${k}`));
  if (kind === undefined) return;
  const t0 = process.hrtime.bigint();
  res.on('finish', () => {
    // The answers git gave: a 401 (git's first try, without the credential) runs no git.
    if (res.statusCode === 200) serverMs[kind].push(Number(process.hrtime.bigint() - t0) / 1e6);
  });
});
const u = new URL(`${server.url}/bench/repo.git`);
u.username = 'x-access-token';
u.password = TOKEN;
const url = u.toString();

const pusher = join(base, 'pusher');
const fetcher = join(base, 'fetcher');
git(base, 'init', '-q', '--initial-branch=main', pusher);
git(pusher, 'config', 'user.name', 'b');
git(pusher, 'config', 'user.email', 'b@b');
git(pusher, 'commit', '-q', '--allow-empty', '-m', 'init');
git(pusher, 'remote', 'add', 'origin', url);
await gitNet(pusher, 'push', '-q', 'origin', 'main');
await gitNet(base, 'clone', '-q', url, fetcher);

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const p90 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)];
const timed = async (xs, work) => {
  const t0 = process.hrtime.bigint();
  await work();
  xs.push(Number(process.hrtime.bigint() - t0) / 1e6);
};

for (let i = 0; i < 3; i++) await gitNet(base, 'ls-remote', url); // warm-up
/** CPU time (ms) of this process's ended children and theirs (/proc/self/stat cutime + cstime, at 100 ticks/s): the server's git, and the clients'. */
const childCpuMs = () => {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  return (Number(fields[13]) + Number(fields[14])) * 10;
};
counting = true;
const cpu0 = childCpuMs();
const lsRemote = [];
const push = [];
const fetchV2 = [];
for (let i = 0; i < 2 * ROUNDS; i++) await timed(lsRemote, () => gitNet(base, 'ls-remote', url));
for (let i = 0; i < ROUNDS; i++) {
  writeFileSync(join(pusher, 'f.txt'), `${i}\n`);
  git(pusher, 'add', 'f.txt');
  git(pusher, 'commit', '-q', '-m', `round ${i}`);
  await timed(push, () => gitNet(pusher, 'push', '-q', 'origin', 'main'));
  await timed(fetchV2, () => gitNet(fetcher, 'fetch', '-q', 'origin'));
}
const cpu = childCpuMs() - cpu0;
const gitRequests = Object.values(serverMs).reduce((n, xs) => n + xs.length, 0);
console.log(`git over HTTP, ${root}:`);
for (const [name, xs] of Object.entries({ 'ls-remote (2 requests)': lsRemote, 'push (2 requests)': push, 'fetch (3 requests)': fetchV2 }))
  console.log(`  ${name.padEnd(24)} median ${median(xs).toFixed(1).padStart(6)} ms   p90 ${p90(xs).toFixed(1).padStart(6)} ms   (${xs.length} runs)`);
for (const [name, xs] of Object.entries(serverMs))
  console.log(
    `  server, ${name.padEnd(16)} median ${median(xs).toFixed(1).padStart(6)} ms   p90 ${p90(xs).toFixed(1).padStart(6)} ms   (${xs.length} requests)`,
  );
console.log(`  CPU of all git processes (server's and clients'): ${cpu} ms, ${(cpu / gitRequests).toFixed(1)} ms per git request answered (${gitRequests})`);
await server.close();
rmSync(base, { recursive: true, force: true });
