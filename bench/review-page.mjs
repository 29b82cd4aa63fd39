// `npm run bench:review`: what a pull request's review page (ARCHITECTURE §14 "Pages") costs the
// server. A fresh SQLite jst-tracker with the code host on; two pull requests made with git:
//   * small: 2 commits, 3 files, a dozen lines (what a reviewer usually reads),
//   * large: 200 files of 5 KiB each (1 MiB of diff, the page's budget);
// then N renders of each page over HTTP on loopback, as the server's own time (its Server-Timing
// header), the client's wall time and the page's size; the repository page and the pull request
// list (ARCHITECTURE §22); and the board's issue page with its development panel beside them.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseSeed, startServer } from '../packages/tracker/dist/index.js';

const N = Number(process.env.N ?? 30);
const TOKEN = 'bench-review-token-0123456789';
const EMAIL = 'bench@bench.test';
const TRACKER_TOKEN = 'bench-review-tracker-token';
const dir = mkdtempSync(join(tmpdir(), 'jst-bench-review-'));
const seed = parseSeed(
  {
    sites: [
      {
        host: 'bench.atlassian.net',
        users: [{ email: EMAIL, displayName: 'Bench', tokens: [{ token: TRACKER_TOKEN }] }],
        projects: [{ key: 'BEN', name: 'Bench', lead: EMAIL, workflow: 'kanban', members: [{ email: EMAIL, role: 'admin' }] }],
      },
    ],
    codehost: { users: [{ login: 'bench', tokens: [{ token: TOKEN }] }], repos: [{ owner: 'bench', name: 'app', defaultBranch: 'main' }] },
  },
  'bench seed',
);
const server = await startServer({ port: 0, dataDir: join(dir, 'data'), repos: join(dir, 'repos'), seed });
const env = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Bench',
  GIT_AUTHOR_EMAIL: 'bench@example.test',
  GIT_COMMITTER_NAME: 'Bench',
  GIT_COMMITTER_EMAIL: 'bench@example.test',
};
const git = (cwd, ...args) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env }).trim();
const write = (work, files) => {
  for (const [f, t] of Object.entries(files)) {
    mkdirSync(dirname(join(work, f)), { recursive: true });
    writeFileSync(join(work, f), t);
  }
};
const auth = { authorization: `Bearer ${TOKEN}` };

try {
  const work = join(dir, 'work');
  git(dir, 'clone', '--quiet', join(dir, 'repos', 'bench', 'app.git'), work);
  git(work, 'checkout', '--quiet', '-b', 'main');
  write(work, { 'README.md': '# app\n', 'src/a.js': 'export const a = 1;\n' });
  git(work, 'add', '-A');
  git(work, 'commit', '--quiet', '-m', 'initial');
  git(work, 'push', '--quiet', 'origin', 'main');
  const pull = async (branch, files, title) => {
    git(work, 'checkout', '--quiet', '-B', branch, 'origin/main');
    write(work, files);
    git(work, 'add', '-A');
    git(work, 'commit', '--quiet', '-m', title);
    git(work, 'push', '--quiet', 'origin', branch);
    const res = await fetch(`${server.url}/api/v3/repos/bench/app/pulls`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ title, head: branch, base: 'main' }),
    });
    if (res.status !== 201) throw new Error(`create: ${res.status} ${await res.text()}`);
    return (await res.json()).number;
  };
  const small = await pull(
    'feature/BEN-1-small',
    { 'src/a.js': 'export const a = 2;\nexport const b = 3;\n', 'src/c.js': 'export const c = 4;\n', 'README.md': '# app\n\nMore.\n' },
    'BEN-1: small',
  );
  const bigFiles = Object.fromEntries(
    Array.from({ length: 200 }, (_, i) => [
      `gen/f${i}.txt`,
      Array.from({ length: 128 }, (_, l) => `line ${l} of file ${i} ${'x'.repeat(24)}`).join('\n') + '\n',
    ]),
  );
  const large = await pull('feature/BEN-1-large', bigFiles, 'BEN-1: large');
  const issue = await fetch(`${server.url}/rest/api/3/issue`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${EMAIL}:${TRACKER_TOKEN}`).toString('base64')}`, 'content-type': 'application/json' },
    body: JSON.stringify({ fields: { project: { key: 'BEN' }, issuetype: { name: 'Task' }, summary: 'Bench' } }),
  });
  const key = (await issue.json()).key;

  const measure = async (label, path, headers) => {
    const server_ = [];
    const wall = [];
    let bytes = 0;
    for (let i = 0; i < N + 3; i++) {
      const t0 = performance.now();
      const res = await fetch(`${server.url}${path}`, { headers });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
      if (i < 3) continue; // warm-up
      wall.push(performance.now() - t0);
      server_.push(Number(/dur=([\d.]+)/.exec(res.headers.get('server-timing') ?? '')?.[1]));
      bytes = Buffer.byteLength(text);
    }
    const median = (a) => a.sort((x, y) => x - y)[Math.floor(a.length / 2)];
    process.stdout.write(
      `${label.padEnd(34)} server ${median(server_).toFixed(1).padStart(6)} ms   wall ${median(wall).toFixed(1).padStart(6)} ms   ${(bytes / 1024).toFixed(0).padStart(5)} KiB\n`,
    );
  };
  const basic = { authorization: `Basic ${Buffer.from(`x-access-token:${TOKEN}`).toString('base64')}` };
  process.stdout.write(`review page, median of ${N} (node ${process.version}, SQLite)\n`);
  await measure('review page, small (3 files)', `/bench/app/pull/${small}`, basic);
  await measure('review page, large (200 files, 1 MiB)', `/bench/app/pull/${large}`, basic);
  await measure('repository page (3 branches)', `/bench/app`, basic);
  await measure('pull request list (2 open)', `/bench/app/pulls?state=all`, basic);
  await measure(`issue page with its panel (${key})`, `/browse/${key}`, {
    authorization: `Basic ${Buffer.from(`${EMAIL}:${TRACKER_TOKEN}`).toString('base64')}`,
    host: 'bench.atlassian.net',
  });
} finally {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
