// Times phases 2-3 for a parent and five sub-tasks on the embedded tracker (SQLite) against the
// code-host stand-in of the tests: `jst pr` ×5, the review brief, an approval ×5, `jst done` of the
// five, then the parent's pull request (`review --open-parent-pr`), its approval and `done`. Counts
// the tracker calls (server request log), code-host calls (the stand-in's record) and git processes
// (a counting `git` shim first on PATH). Setup (plan, start, commits, merges) is not timed.
// Run: npm run bench:lifecycle
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { parseSeed, startServer } from '../packages/tracker/dist/index.js';
import { gitShim } from './lib/git-shim.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const base = mkdtempSync(join(tmpdir(), 'jst-lifecycle-bench-'));
// The one code-host stand-in (test/support/codehost.ts), compiled for this run.
await build({ entryPoints: [join(root, 'test/support/codehost.ts')], bundle: true, platform: 'node', format: 'esm', outfile: join(base, 'codehost.mjs'), logLevel: 'error' });
const { startCodehost } = await import(pathToFileURL(join(base, 'codehost.mjs')).href);

const { realGit, shimDir, log: gitLog } = gitShim(base);
const git = (cwd, ...a) => execFileSync(realGit, a, { cwd, stdio: 'pipe' }).toString().trim();

const calls = [];
let counting = false;
const logStream = { write(line) { const o = JSON.parse(line); if (counting && o.msg === 'incoming request') calls.push(`${o.req.method} ${o.req.url}`); } };
const email = 'a@bench.test';
const token = 'bench-token';
const server = await startServer({ port: 0, dataDir: join(base, 'data'), logLevel: 'info', logStream,
  seed: parseSeed({ sites: [{ host: 'bench.atlassian.net', users: [{ email, tokens: [{ token }] }], projects: [{ key: 'BEN', name: 'Bench', members: [{ email, role: 'admin' }] }] }] }) });
const CH_TOKEN = 'bench-codehost-token';
const ch = await startCodehost({ token: CH_TOKEN, repos: ['bench/repo'] });

const dir = join(base, 'run');
const repo = join(dir, 'repo');
const wts = join(dir, 'worktrees');
mkdirSync(wts, { recursive: true });
git(dir, 'init', '-q', '--bare', '--initial-branch=development', join(dir, 'origin.git'));
git(dir, 'init', '-q', '--initial-branch=development', repo);
git(repo, 'config', 'user.name', 'b');
git(repo, 'config', 'user.email', 'b@b');
git(repo, 'commit', '-q', '--allow-empty', '-m', 'init');
git(repo, 'branch', 'main');
git(repo, 'remote', 'add', 'origin', join(dir, 'origin.git'));
git(repo, 'push', '-q', '-u', 'origin', 'development', 'main');
mkdirSync(join(repo, '.jst'));
writeFileSync(join(repo, '.jst', 'team.env'), 'DEFAULT_BASE_BRANCH=development\nPRODUCTION_BRANCH=main\nPROJECT_KEY=BEN\n');
writeFileSync(join(repo, '.jst', 'local.env'), [`WORKTREES_DIR=${wts}`, `TRACKER_ACCOUNT_URL=${new URL(server.url).host}`, `TRACKER_GATEWAY_URL=${server.url}`,
  `CODEHOST_API_URL=${ch.url}`, `CODEHOST_PAT_TOKEN=${CH_TOKEN}`, 'CODEHOST_REPO=bench/repo',
  ...['ASSIGNER', 'EXECUTOR', 'REVIEWER'].flatMap((r) => [`TRACKER_${r}_EMAIL=${email}`, `TRACKER_${r}_TOKEN=${token}`])].join('\n') + '\n');
writeFileSync(join(repo, '.jst', '.gitignore'), 'local.env\ncloud-id.json\nplan-journal*\n');
writeFileSync(join(dir, 'plan.json'), JSON.stringify({ request: 'Bench', summary: 'Bench parent', scope: 's', acceptanceCriteria: ['a'], priority: 'High',
  steps: Array.from({ length: 5 }, (_, i) => ({ summary: `Bench step ${i + 1}`, scope: 's', acceptanceCriteria: ['a'] })) }));

function jst(cwd, ...args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, 'packages/jst/bin/jst.cjs'), ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1', PATH: `${shimDir}:${process.env.PATH}` } });
    let out = ''; let err = '';
    child.stdout.on('data', (c) => { out += c; });
    child.stderr.on('data', (c) => { err += c; });
    child.on('close', (c) => (c === 0 ? resolve(out) : reject(new Error(`jst ${args.join(' ')} exited ${c}: ${err}`))));
  });
}

const planned = JSON.parse(await jst(repo, 'plan', '--plan', join(dir, 'plan.json'), '--json'));
const [parent, ...subs] = planned.keys;
const [pb, ...subBranches] = planned.branches;
const [pw, ...subTrees] = planned.worktrees;
for (const [i, wt] of subTrees.entries()) {
  await jst(wt, 'start');
  writeFileSync(join(wt, `step${i}.txt`), `${i}\n`);
  git(wt, 'add', `step${i}.txt`);
  git(wt, 'commit', '-q', '-m', `step ${i}`);
}

rmSync(gitLog, { force: true });
const chFrom = ch.requests.length;
let ms = 0;
const timed = async (work) => { counting = true; const t0 = process.hrtime.bigint(); await work(); ms += Number(process.hrtime.bigint() - t0) / 1e6; counting = false; };
await timed(async () => {
  for (const wt of subTrees) await jst(wt, 'pr');
  await jst(repo, 'review', parent);
  for (const k of subs) await jst(repo, 'review', k, '--approve', '--summary', 'ok');
  await jst(repo, 'done', ...subs, '--yes', ...subs);
});
// The sub-task pull requests are merged on the code host (and so into the parent branch): not timed.
for (const b of subBranches) ch.merge(ch.pulls.find((p) => p.head === b).number);
git(pw, 'fetch', '-q', 'origin');
git(pw, 'merge', '-q', '--no-edit', ...subBranches.map((b) => `origin/${b}`));
git(pw, 'push', '-q', 'origin', pb);
await timed(async () => {
  await jst(repo, 'review', parent, '--open-parent-pr');
  await jst(repo, 'review', parent, '--approve', '--summary', 'ships');
  await jst(repo, 'done', parent, '--yes', parent);
});

const gitCalls = readFileSync(gitLog, 'utf8').trim().split('\n');
const chCalls = ch.calls(chFrom);
const tally = (xs) => Object.entries(xs.reduce((m, x) => ((m[x] = (m[x] ?? 0) + 1), m), {})).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${v} × ${k}`);
console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, Node.js ${process.version}`);
console.log(`jst pr ×5, review brief, approve ×5, done ×5, --open-parent-pr, approve, done (parent + 5 sub-tasks; 15 jst processes): ${ms.toFixed(0)} ms wall`);
console.log(`tracker calls: ${calls.length}; code-host calls: ${chCalls.length}; git processes: ${gitCalls.length}`);
console.log('tracker:'); for (const l of tally(calls.map((c) => c.replace(/\?.*/, '').replace(/\/ex\/jira\/[^/]+\/rest\/api\/3/, '').replace(/BEN-\d+/, 'BEN-n')))) console.log(`  ${l}`);
console.log('code host:'); for (const l of tally(chCalls.map((c) => c.replace(/\/\d+/, '/n')))) console.log(`  ${l}`);
console.log('git:'); for (const l of tally(gitCalls.map((c) => c.split(' ')[0]))) console.log(`  ${l}`);
await ch.close();
await server.close();
rmSync(base, { recursive: true, force: true });
