// Times `jst dispatch` (ARCHITECTURE §15) driving phases 2 and 3 with scripted agents, for a parent
// and five sub-tasks on jst-tracker (SQLite) that is also the code host: origin is bench/repo on it.
// The agents are the shell scripts of test/e2e/dispatch-fixture.ts (the executor's: jst start, a
// commit, jst note, jst pr; the reviewer's: changes requested on its first review, approval on its
// second). Timed: `jst dispatch --once --json` rounds (--max-agents 2, the default) from the plan
// until every sub-task is approved and waiting for the person. Counted per round: every request the
// server receives during it (dispatch's and its agents'), and dispatch's own searches and comment
// reads as its JSON reports them. Then idle rounds (nothing to start) with the six issues, and again
// with 60 more To Do issues in the project: an idle round must cost the same few calls.
// Run: npm run bench:dispatch
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseSeed, startServer } from '../packages/tracker/dist/index.js';
import { runJst, writeBenchPlan, writeLocalEnv } from './lib/jst-world.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const JST = join(root, 'packages/jst/bin/jst.cjs');
const base = mkdtempSync(join(tmpdir(), 'jst-dispatch-bench-'));
const gitEnv = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0' };
const git = (cwd, ...a) => execFileSync('git', a, { cwd, stdio: 'pipe', env: gitEnv }).toString().trim();
const gitNet = (cwd, ...a) =>
  new Promise((resolve, reject) =>
    execFile('git', a, { cwd, env: gitEnv }, (e, out, err) => (e ? reject(new Error(`git ${a.join(' ')}: ${err}`)) : resolve(out.trim()))),
  );

const users = ['assigner', 'executor', 'reviewer'].map((r) => ({ role: r, email: `${r}@bench.test`, token: `bench-${r}-token` }));
const CH_TOKEN = 'bench-codehost-token';
const server = await startServer({
  port: 0,
  dataDir: join(base, 'data'),
  seed: parseSeed({
    sites: [
      {
        host: 'bench.atlassian.net',
        users: users.map((u) => ({ email: u.email, displayName: u.role, tokens: [{ token: u.token }] })),
        projects: [{ key: 'BEN', name: 'Bench', lead: users[0].email, members: users.map((u, i) => ({ email: u.email, role: i === 0 ? 'admin' : 'member' })) }],
      },
    ],
    codehost: {
      users: [{ login: 'bench-bot', tokens: [{ token: CH_TOKEN }] }],
      repos: [{ owner: 'bench', name: 'repo', defaultBranch: 'development', collaborators: [{ login: 'bench-bot', permission: 'write' }] }],
    },
  }),
});
const calls = [];
let counting = false;
server.app.server.on('request', (req) => {
  if (counting) calls.push(`${req.method} ${req.url}`);
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
git(repo, 'remote', 'add', 'origin', `${server.url}/bench/repo.git`);
const credentials = join(dir, 'git-credentials');
writeFileSync(credentials, `http://x-access-token:${CH_TOKEN}@${new URL(server.url).host}\n`, { mode: 0o600 });
git(repo, 'config', 'credential.helper', `store --file=${credentials}`);
await gitNet(repo, 'push', '-q', '-u', 'origin', 'development', 'main');

// The scripted agents: jst through a shell function, state (the reviewer's count per issue) in a
// folder; in the repository's git directory, which a sandboxed agent sees (docs/dispatch.md).
const agents = join(repo, '.git', 'bench-agents');
mkdirSync(join(agents, 'state'), { recursive: true });
const script = (name, body) => {
  const file = join(agents, name);
  writeFileSync(file, `#!/bin/sh\nset -e\njst() { '${process.execPath}' '${JST}' "$@"; }\nSTATE='${join(agents, 'state')}'\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
};
const executor = script(
  'executor.sh',
  [
    'jst start > /dev/null',
    'f="work-$JST_ISSUE_KEY-$JST_DISPATCH_ROUND.txt"',
    'echo "$JST_DISPATCH_ROUND" > "$f"',
    'git add "$f"',
    'git -c user.name=Agent -c user.email=agent@bench.test commit -q -m "$f"',
    'jst note "committed $f"',
    'jst pr > /dev/null',
  ].join('\n'),
);
const reviewer = script(
  'reviewer.sh',
  [
    'n=$(cat "$STATE/$JST_ISSUE_KEY" 2>/dev/null || echo 0); n=$((n + 1)); echo $n > "$STATE/$JST_ISSUE_KEY"',
    'if [ "$n" -eq 1 ]; then jst review "$JST_ISSUE_KEY" --request-changes --summary "Add a test" > /dev/null; else jst review "$JST_ISSUE_KEY" --approve --summary ok > /dev/null; fi',
  ].join('\n'),
);

mkdirSync(join(repo, '.jst'));
writeFileSync(
  join(repo, '.jst', 'team.env'),
  `DEFAULT_BASE_BRANCH=development\nPRODUCTION_BRANCH=main\nPROJECT_KEY=BEN\nAGENT_EXECUTOR_CMD=${executor}\nAGENT_REVIEWER_CMD=${reviewer}\n`,
);
writeLocalEnv(repo, { worktrees: wts, serverUrl: server.url, codehostToken: CH_TOKEN, accounts: users });
writeFileSync(join(repo, '.jst', '.gitignore'), 'local.env\ncloud-id.json\nplan-journal*\ndispatch/\ndispatch-journal.json*\n');
const planFile = writeBenchPlan(dir);

const jst = (cwd, ...args) => runJst(JST, cwd, args, { ...gitEnv, HOME: dir, NO_COLOR: '1' });

const planned = JSON.parse(await jst(repo, 'plan', '--plan', planFile, '--json'));
const subs = planned.keys.slice(1);
const isTracker = (c) => !/^\S+ \/api\/v3\//.test(c) && !/\.git\/|\/(info\/refs|git-upload-pack|git-receive-pack)/.test(c);
const rows = [];
const round = async () => {
  calls.length = 0;
  counting = true;
  const t0 = process.hrtime.bigint();
  const doc = JSON.parse((await jst(repo, 'dispatch', '--once', '--json')).trim().split('\n').at(-1));
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  counting = false;
  const row = {
    ms,
    started: doc.started.length,
    searches: doc.searches,
    commentReads: doc.commentReads,
    tracker: calls.filter(isTracker).length,
    all: calls.length,
    doc,
  };
  rows.push(row);
  return row;
};

const t0 = process.hrtime.bigint();
let n = 0;
for (; n < 20; n += 1) {
  const r = await round();
  if (subs.every((k) => r.doc.waiting.some((w) => w.command === `jst done ${k} --yes ${k}`))) break;
}
const wall = Number(process.hrtime.bigint() - t0) / 1e6;
const agentsRun = rows.reduce((s, r) => s + r.started, 0);

const idle = [];
for (let i = 0; i < 5; i += 1) idle.push(await round());
// 60 more To Do issues assigned to the executor (no worktree comment: listed, never started).
const tenant = await (await fetch(`${server.url}/_edge/tenant_info`)).json();
const basic = `Basic ${Buffer.from(`${users[0].email}:${users[0].token}`).toString('base64')}`;
const apiBase = `${server.url}/ex/jira/${tenant.cloudId}/rest/api/3`;
const me = await (await fetch(`${apiBase}/user/search?query=${users[1].email}`, { headers: { Authorization: basic } })).json();
for (let i = 0; i < 60; i += 1) {
  const r = await fetch(`${apiBase}/issue`, {
    method: 'POST',
    headers: { Authorization: basic, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      fields: { project: { key: 'BEN' }, issuetype: { name: 'Task' }, summary: `filler ${i}`, assignee: { accountId: me[0].accountId } },
    }),
  });
  if (r.status !== 201) throw new Error(`POST /issue ${r.status}`);
}
const idleMore = [];
for (let i = 0; i < 5; i += 1) idleMore.push(await round());

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, Node.js ${process.version}`);
console.log(
  `loop: parent + 5 sub-tasks to "approved, waiting for the person": ${wall.toFixed(0)} ms wall, ${n + 1} rounds of jst dispatch --once, ${agentsRun} agents (4 per sub-task)`,
);
console.log('round  ms      started  searches  commentReads  tracker calls (dispatch + agents)  all server requests');
for (const [i, r] of rows.slice(0, n + 1).entries())
  console.log(
    `${String(i + 1).padStart(5)}  ${r.ms.toFixed(0).padStart(6)}  ${String(r.started).padStart(7)}  ${String(r.searches).padStart(8)}  ${String(r.commentReads).padStart(12)}  ${String(r.tracker).padStart(33)}  ${String(r.all).padStart(19)}`,
  );
const show = (label, xs) =>
  console.log(
    `${label}: ${median(xs.map((r) => r.ms)).toFixed(0)} ms median of ${xs.length}; tracker calls per round ${[...new Set(xs.map((r) => r.tracker))].join('/')} (searches ${[...new Set(xs.map((r) => r.searches))].join('/')}, comment reads ${[...new Set(xs.map((r) => r.commentReads))].join('/')})`,
  );
show('idle round, 6 issues', idle);
show('idle round, 66 issues', idleMore);

await server.close();
rmSync(base, { recursive: true, force: true });
