// `npm run bench:diff`: what a pull request with one 150 MB compressible file (a ~150 KB push)
// costs the server per view (ARCHITECTURE §22 "Bounded work"), before and after, in one run:
//   * before (only when BASE_DIST names one): another build's packages/tracker/dist/index.js, e.g. of
//     1ae1992 in a worktree beside this one (`git worktree add --detach ../before 1ae1992`, npm ci, build),
//   * after:  this tree's build (packages/tracker/dist).
// Each build runs in a process of its own (bench/lib/diff-server.mjs); the same repository is pushed
// to each. Per request: the client's wall time, the tracker's own CPU (utime+stime of its process)
// and its git children's (cutime+cstime, once reaped), read from /proc/<pid>/stat; each request is
// made twice (first view, then the second, which a cache may answer).
import { execFileSync, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { cpuSeconds } from './lib/procstat.mjs';

const MB = Number(process.env.MB ?? 150);
/** The line the file repeats (default one character: a ~150 KB push for 150 MB, ~79 million lines). */
const LINE = `${process.env.LINE ?? 'x'}\n`;
const BASE_DIST = process.env.BASE_DIST ?? null;
const OURS_DIST = new URL('../packages/tracker/dist/index.js', import.meta.url).pathname;
const TOKEN = 'bench-diff-token-0123456789';
const auth = { authorization: `Bearer ${TOKEN}` };
const page = { authorization: `Basic ${Buffer.from(`bench:${TOKEN}`).toString('base64')}` };
const dir = mkdtempSync(join(tmpdir(), 'jst-bench-diff-'));
const env = {
  ...process.env,
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Bench',
  GIT_AUTHOR_EMAIL: 'b@example.test',
  GIT_COMMITTER_NAME: 'Bench',
  GIT_COMMITTER_EMAIL: 'b@example.test',
};
const git = (cwd, ...args) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env }).trim();

/** utime+stime and cutime+cstime of a process, in seconds. */
function cpu(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = 100;
  return { self: cpuSeconds(pid), children: (Number(f[13]) + Number(f[14])) / ticks };
}

async function bigFile(path) {
  const chunk = Buffer.from(LINE.repeat(Math.ceil((1024 * 1024) / LINE.length)));
  const out = createWriteStream(path);
  for (let n = 0; n < MB * 1024 * 1024; n += chunk.length) if (!out.write(chunk)) await new Promise((r) => out.once('drain', r));
  await new Promise((r) => out.end(r));
}

// The repository, made once: main with a README, feature adding the big file and a small one.
const work = join(dir, 'work');
git(dir, 'init', '--quiet', '--initial-branch=main', work);
writeFileSync(join(work, 'README.md'), '# app\n');
git(work, 'add', '-A');
git(work, 'commit', '--quiet', '-m', 'initial');
git(work, 'checkout', '--quiet', '-b', 'feature/big');
await bigFile(join(work, 'big.log'));
writeFileSync(join(work, 'note.md'), 'a note\n');
git(work, 'add', '-A');
git(work, 'commit', '--quiet', '-m', `a ${MB} MB log`);
const counts = git(work, 'count-objects', '-v');
const pushBytes = Number(/\nsize: (\d+)/.exec(counts)?.[1] ?? 0) + Number(/size-pack: (\d+)/.exec(counts)?.[1] ?? 0);

async function start(name, dist) {
  const home = join(dir, name);
  const child = spawn(process.execPath, [new URL('./lib/diff-server.mjs', import.meta.url).pathname, dist, home, TOKEN], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
      const m = /READY (\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`${name} server exited ${code}`)));
  });
  git(work, 'push', '--quiet', join(home, 'repos', 'bench', 'app.git'), 'main', 'feature/big');
  const res = await fetch(`${url}/api/v3/repos/bench/app/pulls`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'big', head: 'feature/big', base: 'main' }),
  });
  if (res.status !== 201) throw new Error(`${name}: create ${res.status} ${await res.text()}`);
  return { child, url, n: (await res.json()).number };
}

async function measure(s, label, path, headers) {
  const rows = [];
  for (const view of ['first', 'second']) {
    const c0 = cpu(s.child.pid);
    const t0 = performance.now();
    const res = await fetch(`${s.url}${path}`, { headers });
    const body = await res.arrayBuffer();
    const wall = (performance.now() - t0) / 1000;
    const c1 = cpu(s.child.pid);
    rows.push({ label, view, status: res.status, wall, self: c1.self - c0.self, git: c1.children - c0.children, bytes: body.byteLength });
  }
  return rows;
}

const REQUESTS = (n) => [
  ['page /pull/n', `/bench/app/pull/${n}`, page],
  ['page /pull/n/files', `/bench/app/pull/${n}/files`, page],
  ['REST /pulls/n', `/api/v3/repos/bench/app/pulls/${n}`, auth],
  ['REST /pulls/n/files', `/api/v3/repos/bench/app/pulls/${n}/files`, auth],
  ['REST /pulls/n (v3.diff)', `/api/v3/repos/bench/app/pulls/${n}`, { ...auth, accept: 'application/vnd.github.v3.diff' }],
];

const results = {};
try {
  for (const [name, dist] of [...(BASE_DIST ? [['before', BASE_DIST]] : []), ['after', OURS_DIST]]) {
    if (!existsSync(dist)) throw new Error(`no build at ${dist}`);
    const s = await start(name, dist);
    results[name] = [];
    try {
      for (const [label, path, headers] of REQUESTS(s.n)) results[name].push(...(await measure(s, label, path, headers)));
    } finally {
      s.child.kill('SIGTERM');
      await new Promise((r) => s.child.once('exit', r));
    }
  }
  console.log(
    `big-diff: one ${MB} MB compressible file of the line ${JSON.stringify(LINE)} repeated (objects ${pushBytes} KiB), node ${process.version}, ${new Date().toISOString()}`,
  );
  console.log(
    'request                     view    | before: status  wall s  tracker CPU s  git CPU s | after: status  wall s  tracker CPU s  git CPU s | wall ratio',
  );
  for (let i = 0; i < results.after.length; i++) {
    const b = results.before?.[i];
    const a = results.after[i];
    const f = (r) =>
      r
        ? `${String(r.status).padStart(6)} ${r.wall.toFixed(2).padStart(7)} ${r.self.toFixed(2).padStart(14)} ${r.git.toFixed(2).padStart(10)}`
        : '     (no BASE_DIST given)        ';
    const ratio = b && b.status === 200 && a.status < 500 ? `${(b.wall / a.wall).toFixed(0)}×` : '—';
    console.log(`${a.label.padEnd(27)} ${a.view.padEnd(7)} | ${f(b)} | ${f(a)} | ${ratio}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
