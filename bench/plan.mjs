// Times `jst plan` for a multistep plan with five sub-tasks end to end on the embedded tracker
// (SQLite), counting the tracker calls (from the server's request log) and the git processes (a
// counting `git` shim first on PATH). Run: npm run bench:plan   (RUNS=5 by default)
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseSeed, startServer } from '../packages/tracker/dist/index.js';
import { gitShim } from './lib/git-shim.mjs';

const RUNS = Number(process.env.RUNS ?? 5);
const root = fileURLToPath(new URL('..', import.meta.url));
const base = mkdtempSync(join(tmpdir(), 'jst-plan-bench-'));
const { realGit, shimDir, log: gitLog } = gitShim(base);

const calls = [];
const logStream = {
  write(line) {
    const o = JSON.parse(line);
    if (o.msg === 'incoming request') calls.push({ method: o.req.method, url: o.req.url });
  },
};
const email = 'a@bench.test';
const token = 'bench-token';
const server = await startServer({
  port: 0,
  dataDir: join(base, 'data'),
  logLevel: 'info',
  logStream,
  seed: parseSeed({
    sites: [
      { host: 'bench.atlassian.net', users: [{ email, tokens: [{ token }] }], projects: [{ key: 'BEN', name: 'Bench', members: [{ email, role: 'admin' }] }] },
    ],
  }),
});
const git = (cwd, ...a) => execFileSync(realGit, a, { cwd, stdio: 'pipe' });

const plan = {
  request: 'Benchmark plan',
  summary: 'Bench parent',
  scope: 's',
  acceptanceCriteria: ['a'],
  priority: 'High',
  steps: Array.from({ length: 5 }, (_, i) => ({ summary: `Bench step ${i + 1}`, scope: 's', acceptanceCriteria: ['a'] })),
};
const results = [];
for (let run = 0; run < RUNS; run++) {
  const dir = join(base, `run${run}`);
  const repo = join(dir, 'repo');
  const wts = join(dir, 'worktrees');
  mkdirSync(wts, { recursive: true });
  git(dir, 'init', '-q', '--bare', '--initial-branch=development', join(dir, 'origin.git'));
  git(dir, 'init', '-q', '--initial-branch=development', repo);
  git(repo, '-c', 'user.name=b', '-c', 'user.email=b@b', 'commit', '-q', '--allow-empty', '-m', 'init');
  git(repo, 'branch', 'main');
  git(repo, 'remote', 'add', 'origin', join(dir, 'origin.git'));
  git(repo, 'push', '-q', '-u', 'origin', 'development', 'main');
  mkdirSync(join(repo, '.jst'));
  writeFileSync(join(repo, '.jst', 'team.env'), 'DEFAULT_BASE_BRANCH=development\nPRODUCTION_BRANCH=main\nPROJECT_KEY=BEN\n');
  writeFileSync(
    join(repo, '.jst', 'local.env'),
    [
      `WORKTREES_DIR=${wts}`,
      `TRACKER_ACCOUNT_URL=${new URL(server.url).host}`,
      `TRACKER_GATEWAY_URL=${server.url}`,
      'CODEHOST_API_URL=http://127.0.0.1:9',
      ...['ASSIGNER', 'EXECUTOR', 'REVIEWER'].flatMap((r) => [`TRACKER_${r}_EMAIL=${email}`, `TRACKER_${r}_TOKEN=${token}`]),
    ].join('\n') + '\n',
  );
  writeFileSync(join(repo, '.jst', '.gitignore'), 'local.env\ncloud-id.json\nplan-journal*\n');
  writeFileSync(
    join(dir, 'plan.json'),
    JSON.stringify({ ...plan, summary: `Bench parent ${run}`, steps: plan.steps.map((s) => ({ ...s, summary: `${s.summary} run ${run}` })) }),
  );
  rmSync(gitLog, { force: true });
  calls.length = 0;
  const t0 = process.hrtime.bigint();
  const code = await new Promise((done) => {
    const child = spawn(process.execPath, [join(root, 'packages/jst/bin/jst.cjs'), 'plan', '--plan', join(dir, 'plan.json'), '--json'], {
      cwd: repo,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, PATH: `${shimDir}:${process.env.PATH}` },
    });
    let err = '';
    child.stderr.on('data', (c) => {
      err += c;
    });
    child.on('close', (c) => {
      if (c !== 0) process.stderr.write(err);
      done(c);
    });
  });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (code !== 0) throw new Error(`jst plan exited ${code}`);
  const gitCalls = readFileSync(gitLog, 'utf8').trim().split('\n');
  results.push({
    ms,
    tracker: calls.length,
    git: gitCalls.length,
    calls: calls.map((c) => `${c.method} ${c.url.replace(/\?.*/, '').replace(/\/ex\/jira\/[^/]+\/rest\/api\/3/, '')}`),
    gitCalls,
  });
}
await server.close();
const sorted = results.map((r) => r.ms).sort((a, b) => a - b);
const last = results.at(-1);
const tally = (xs) => Object.entries(xs.reduce((m, x) => ((m[x] = (m[x] ?? 0) + 1), m), {})).map(([k, v]) => `${v} × ${k}`);
console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, Node.js ${process.version}; ${RUNS} runs`);
console.log(
  `jst plan, parent + 5 sub-tasks, embedded tracker (SQLite): median ${sorted[Math.floor(sorted.length / 2)].toFixed(0)} ms, min ${sorted[0].toFixed(0)} ms, max ${sorted.at(-1).toFixed(0)} ms (target < 2000 ms)`,
);
console.log(`tracker calls per run: ${last.tracker}`);
for (const l of tally(last.calls.map((c) => c.replace(/BEN-\d+/, 'BEN-n')))) console.log(`  ${l}`);
console.log(`git processes per run: ${last.git}`);
for (const l of tally(
  last.gitCalls.map((c) =>
    c
      .split(' ')
      .slice(0, c.startsWith('-C') ? 3 : 1)
      .join(' ')
      .replace(/-C \S+ /, ''),
  ),
))
  console.log(`  ${l}`);
rmSync(base, { recursive: true, force: true });
