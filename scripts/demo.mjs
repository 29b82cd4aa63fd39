// `npm start` (ARCHITECTURE §3): the main job on the embedded default. Starts jst-tracker on a free
// loopback port (SQLite), seeds a demo site, makes a demo repository with a bare origin, writes its
// .jst/, runs a multistep `jst plan` non-interactively, prints the report and where everything is,
// and keeps the tracker running until Ctrl-C (`npm start -- --once` exits after the report).
// Demo tokens are generated once into a 0600 file and never printed.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { parseSeed, startServer } from '../packages/tracker/dist/index.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({ options: { once: { type: 'boolean' }, dir: { type: 'string' } } });
const home = resolve(values.dir ?? join(root, '.jst-tracker', 'demo'));
const ROLES = ['assigner', 'executor', 'reviewer'];

function credentials(file) {
  if (existsSync(file)) return Object.fromEntries(readFileSync(file, 'utf8').split('\n').filter((l) => l.includes('=')).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
  const c = {};
  for (const r of ROLES) {
    c[`DEMO_${r.toUpperCase()}_EMAIL`] = `${r}@demo.test`;
    c[`DEMO_${r.toUpperCase()}_TOKEN`] = `demo-${r}-${randomBytes(12).toString('hex')}`;
  }
  writeFileSync(file, Object.entries(c).map(([k, v]) => `${k}=${v}`).join('\n') + '\n', { mode: 0o600 });
  chmodSync(file, 0o600);
  return c;
}

const git = (cwd, ...args) => execFileSync('git', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } }).toString();
const step = (text) => process.stderr.write(`• ${text}\n`);

mkdirSync(home, { recursive: true });
const envFile = join(home, 'demo.env');
const cred = credentials(envFile);
const email = (r) => cred[`DEMO_${r.toUpperCase()}_EMAIL`];
const token = (r) => cred[`DEMO_${r.toUpperCase()}_TOKEN`];

step('starting jst-tracker (SQLite) on a free loopback port');
const seed = parseSeed({ sites: [{ host: 'demo.atlassian.net', users: ROLES.map((r) => ({ email: email(r), displayName: `Demo ${r[0].toUpperCase()}${r.slice(1)}`, tokens: [{ token: token(r) }] })),
  projects: [{ key: 'DEMO', name: 'Demo project', lead: email('assigner'), workflow: 'kanban', members: [{ email: email('assigner'), role: 'admin' }, { email: email('executor'), role: 'member' }, { email: email('reviewer'), role: 'member' }] }] }] }, 'demo seed');
const server = await startServer({ port: 0, dataDir: join(home, 'data'), seed, logLevel: 'warn' });

// A fresh repository per run, so each run plans new work from a clean development branch.
const run = join(home, 'runs', new Date().toISOString().replace(/[:.]/g, '-'));
const origin = join(run, 'origin.git');
const repo = join(run, 'repo');
const worktrees = join(run, 'worktrees');
step(`making a demo repository with a bare origin in ${run}`);
mkdirSync(worktrees, { recursive: true });
git(run, 'init', '-q', '--bare', '--initial-branch=development', origin);
git(run, 'init', '-q', '--initial-branch=development', repo);
git(repo, 'config', 'user.name', 'Demo');
git(repo, 'config', 'user.email', 'demo@demo.test');
writeFileSync(join(repo, 'README.md'), '# Demo project\n');
git(repo, 'add', 'README.md');
git(repo, 'commit', '-q', '-m', 'Initial commit');
git(repo, 'branch', 'main');
git(repo, 'remote', 'add', 'origin', origin);
git(repo, 'push', '-q', '-u', 'origin', 'development', 'main');

step('writing .jst/ (team.env, local.env 0600, .gitignore)');
mkdirSync(join(repo, '.jst'));
writeFileSync(join(repo, '.jst', 'team.env'), ['DEFAULT_BASE_BRANCH=development', 'PRODUCTION_BRANCH=main', 'PROJECT_KEY=DEMO', 'STATUS_TODO=To Do', 'STATUS_IN_PROGRESS=In Progress', 'STATUS_IN_REVIEW=In Review', 'STATUS_DONE=Done'].join('\n') + '\n');
writeFileSync(join(repo, '.jst', 'local.env'), [`WORKTREES_DIR=${worktrees}`, `TRACKER_ACCOUNT_URL=${new URL(server.url).host}`, `TRACKER_GATEWAY_URL=${server.url}`,
  ...ROLES.flatMap((r) => [`TRACKER_${r.toUpperCase()}_EMAIL=${email(r)}`, `TRACKER_${r.toUpperCase()}_TOKEN=${token(r)}`])].join('\n') + '\n', { mode: 0o600 });
writeFileSync(join(repo, '.jst', '.gitignore'), 'local.env\ncloud-id.json\nplan-journal*\n');
git(repo, 'add', '.jst/team.env', '.jst/.gitignore');
git(repo, 'commit', '-q', '-m', 'Add the shared jst settings');
git(repo, 'push', '-q', 'origin', 'development');

const planFile = join(run, 'plan.json');
writeFileSync(planFile, JSON.stringify({
  request: 'Let users export a report as CSV',
  summary: 'CSV export for reports',
  scope: 'Export the rows of the report on screen as CSV. No other formats, no scheduling.',
  acceptanceCriteria: ['An Export button on every report downloads a .csv file', 'Columns and order match the table on screen', 'Values with commas or quotes are quoted (RFC 4180)'],
  priority: 'High',
  path: 'planned',
  steps: [
    { summary: 'Serialise report rows to CSV', scope: 'A pure function from rows to CSV text', acceptanceCriteria: ['RFC 4180 quoting', 'Unit tests for commas, quotes and newlines'] },
    { summary: 'CSV download endpoint', scope: 'GET /reports/:id.csv', acceptanceCriteria: ['Content-Type text/csv', 'Content-Disposition names the file'] },
    { summary: 'Export button on the report page', scope: 'The button and its wiring only', acceptanceCriteria: ['Visible on every report', 'Disabled while loading'] },
  ],
}, null, 2));

step('running: jst plan --plan plan.json (the assigner, non-interactive)\n');
const code = await new Promise((done) => {
  const child = spawn(process.execPath, [join(root, 'packages/jst/bin/jst.cjs'), 'plan', '--plan', planFile], { cwd: repo, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env } });
  child.on('close', done);
});
// A hand-off line a fresh clone can run as printed: `jst` is a workspace bin, not on PATH.
const shq = (p) => (/^[\w@%+=:,./-]+$/.test(p) ? p : `'${p.replace(/'/g, `'\\''`)}'`);
const jst = `npx --prefix ${shq(root.replace(/\/$/, ''))} jst`;
const numbered = readdirSync(worktrees).map((d) => [Number(/-(\d+)$/.exec(d)?.[1] ?? NaN), join(worktrees, d)]).filter(([n]) => Number.isFinite(n)).sort((a, b) => a[0] - b[0]);
const firstSubtask = (numbered[1] ?? numbered[0])?.[1];
const api = `${server.url}/ex/jira/${(await (await fetch(`${server.url}/_edge/tenant_info`)).json()).cloudId}/rest/api/3`;
process.stdout.write([
  '',
  'Where everything is:',
  `  tracker        ${server.url}   (REST: ${api})`,
  `  tracker data   ${server.store.location}`,
  `  credentials    ${envFile}   (mode 0600, never printed)`,
  `  repository     ${repo}   (origin: ${origin})`,
  `  worktrees      ${worktrees}`,
  '',
  'Look around (another terminal):',
  `  set -a; . ${envFile}; set +a`,
  `  curl -s -u "$DEMO_ASSIGNER_EMAIL:$DEMO_ASSIGNER_TOKEN" "${api}/search/jql?jql=project%3DDEMO&fields=summary,status,assignee"`,
  `  cd ${shq(repo)} && ${jst} healthcheck --role executor`,
  '',
  ...(firstSubtask ? [
    'Next, the executor (jst is not on PATH: this form runs it from this checkout):',
    `  cd ${shq(firstSubtask)} && ${jst} start`,
    `  then commit, and: ${jst} pr   (the code host settings it needs: README "The whole lifecycle")`,
    '',
  ] : []),
].join('\n') + '\n');
if (code !== 0) process.stderr.write(`jst plan exited with ${code}\n`);
if (values.once || code !== 0) {
  await server.close();
  process.exitCode = code ?? 1;
} else {
  process.stdout.write('jst-tracker keeps running; press Ctrl-C to stop.\n');
  await new Promise((done) => { process.once('SIGINT', done); process.once('SIGTERM', done); });
  await server.close();
}
