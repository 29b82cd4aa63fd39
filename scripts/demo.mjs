// `npm start` (README; docs/architecture.md §3, §14 "The demo"): the main job on the embedded default.
// Starts jst-tracker (tracker and code host) on a loopback port with SQLite, seeds a demo site and a
// code-host repository, clones it, writes .jst/, runs a multistep `jst plan`, then takes the first
// sub-task through phases 2 and 3 — start, a commit, note, pr, changes requested, a fix, pr again,
// approval, the merge on the code host and done — printing each command before it runs it. It leaves
// the other sub-tasks to the person with next commands that run as pasted, and keeps the server
// running until Ctrl-C (`npm start -- --once` exits after the demo, printing first the command that
// starts the server again). `npm start -- --tls` serves it over HTTPS with a local certificate
// authority (ARCHITECTURE §23), which gh needs, and prints how gh reaches it. `npm start -- --dispatch` runs
// `jst dispatch` rounds with scripted agents after the plan instead (scripts/demo/dispatch.mjs).
// Demo tokens are generated once into a 0600 file and never printed; a rerun keeps the same port
// when it is free, so the worktrees of an earlier run keep working.
import { execFile, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { localCertificates, parseSeed, startServer } from '../packages/tracker/dist/index.js';
import { demoCredentials, demoSeed, rememberPort, ROLES, CODEHOST_LOGIN, DEMO_REPO } from './demo/setup.mjs';
import { shq, planFileFor, nextSteps, serverAgain } from './demo/text.mjs';
import { dispatchRounds, writeAgents } from './demo/dispatch.mjs';

const root = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');
const { values } = parseArgs({ options: { once: { type: 'boolean' }, dir: { type: 'string' }, dispatch: { type: 'boolean' }, tls: { type: 'boolean' } } });
const home = resolve(values.dir ?? join(root, '.jst-tracker', 'demo'));
const JST_BIN = join(root, 'packages/jst/bin/jst.cjs');
const dataDir = join(home, 'data');

// --tls: the local authority under <data>/tls/ (made once, kept). Node reads NODE_EXTRA_CA_CERTS only
// at start, so the demo runs itself again with it: its own calls and every jst it starts trust it,
// and git too (GIT_SSL_CAINFO, which outranks http.sslCAInfo and what the machine exports).
const tls = values.tls ? localCertificates(dataDir) : undefined;
if (tls && process.env.NODE_EXTRA_CA_CERTS !== tls.caFile) {
  const trust = { NODE_EXTRA_CA_CERTS: tls.caFile, GIT_SSL_CAINFO: tls.caFile };
  const again = spawn(process.execPath, process.argv.slice(1), { stdio: 'inherit', env: { ...process.env, ...trust } });
  const forward = (signal) => again.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  again.on('close', (code) => process.exit(code ?? 1));
  await new Promise(() => undefined);
}

const say = (text) => process.stderr.write(`${text}\n`);
const step = (text) => say(`• ${text}`);
const gitEnv = { ...process.env, GIT_TERMINAL_PROMPT: '0', ...(tls ? { GIT_SSL_CAINFO: tls.caFile } : {}) };
const git = (cwd, ...args) =>
  execFileSync('git', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: gitEnv })
    .toString()
    .trim();
// git that talks to the code host runs beside the event loop: the server answering it is this process.
const gitNet = (cwd, ...args) =>
  new Promise((resolveRun, reject) => {
    execFile('git', args, { cwd, env: gitEnv, timeout: 120_000 }, (error, stdout, stderr) =>
      error ? reject(new Error(`git ${args[0]} failed: ${String(stderr).trim().slice(0, 500)}`)) : resolveRun(String(stdout).trim()),
    );
  });

/** Shows a command as the person would type it, from `cwd`, then runs it with its output shown. */
async function run(cwd, label, file, args, { check = true } = {}) {
  say(`\n$ ${label}`);
  const code = await new Promise((done) => {
    const child = spawn(file, args, { cwd, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, FORCE_COLOR: undefined } });
    child.on('close', done);
  });
  if (check && code !== 0) throw new Error(`${label} exited with ${code} (in ${cwd})`);
  return code;
}
const jst = (cwd, ...args) => run(cwd, `jst ${args.map(shq).join(' ')}`, process.execPath, [JST_BIN, ...args]);
function commit(cwd, file, text, message) {
  say(`\n$ printf … > ${file} && git add ${file} && git commit -m ${shq(message)}`);
  writeFileSync(join(cwd, file), text);
  git(cwd, 'add', file);
  git(cwd, 'commit', '-q', '-m', message);
}

mkdirSync(home, { recursive: true });
const envFile = join(home, 'demo.env');
const cred = demoCredentials(envFile);

step('starting jst-tracker (tracker and code host, SQLite) on a loopback port');
const seed = parseSeed(demoSeed(cred), 'demo seed');
const serverOptions = { dataDir, seed, logLevel: 'warn', ...(tls ? { tls } : {}) };
const server = await startServer({ port: cred.port, ...serverOptions }).catch((e) =>
  e?.code === 'EADDRINUSE' && cred.port !== 0 ? startServer({ port: 0, ...serverOptions }) : Promise.reject(e),
);
const port = Number(new URL(server.url).port);
if (port !== cred.port) {
  if (cred.port !== 0) say(`  (port ${cred.port} of the last run is taken: the worktrees of earlier runs name that port)`);
  rememberPort(envFile, port);
}
const codehostApi = `${server.url}/api/v3`;
const originUrl = `${server.url}/${DEMO_REPO.owner}/${DEMO_REPO.name}.git`;

// git reaches the code host with the demo token through git's own credential store (a 0600 file):
// the token is in no remote URL, no command line and no output.
const credentialFile = join(home, 'git-credentials');
writeFileSync(credentialFile, `${new URL(server.url).protocol}//x-access-token:${cred.codehostToken}@${new URL(server.url).host}\n`, { mode: 0o600 });
const helper = `store --file=${credentialFile}`;

// A fresh clone per run plans new work from the repository's development branch as it is now.
const runDir = join(home, 'runs', new Date().toISOString().replace(/[:.]/g, '-'));
const repo = join(runDir, 'repo');
const worktrees = join(runDir, 'worktrees');
mkdirSync(worktrees, { recursive: true });
step(`cloning ${originUrl} into ${repo}`);
await gitNet(home, '-c', `credential.helper=${helper}`, 'clone', '-q', originUrl, repo);
git(repo, 'config', 'credential.helper', helper);
// The person's own git in the clone and its worktrees trusts the local authority too.
if (tls) git(repo, 'config', 'http.sslCAInfo', tls.caFile);
git(repo, 'config', 'user.name', 'Demo');
git(repo, 'config', 'user.email', 'demo@demo.test');
const teamEnv =
  [
    'DEFAULT_BASE_BRANCH=development',
    'PRODUCTION_BRANCH=main',
    'PROJECT_KEY=DEMO',
    'STATUS_TODO=To Do',
    'STATUS_IN_PROGRESS=In Progress',
    'STATUS_IN_REVIEW=In Review',
    'STATUS_DONE=Done',
  ].join('\n') + '\n';
if ((await gitNet(repo, 'ls-remote', '--heads', 'origin', 'development')) === '') {
  step('the code-host repository is empty: making development and main with the shared jst settings');
  git(repo, 'checkout', '-q', '-b', 'development');
  writeFileSync(join(repo, 'README.md'), '# Demo project\n');
  mkdirSync(join(repo, '.jst'));
  writeFileSync(join(repo, '.jst', 'team.env'), teamEnv);
  writeFileSync(join(repo, '.jst', '.gitignore'), 'local.env\ncloud-id.json\nplan-journal*\ndispatch/\ndispatch-journal.json*\n');
  git(repo, 'add', 'README.md', '.jst/team.env', '.jst/.gitignore');
  git(repo, 'commit', '-q', '-m', 'Initial commit with the shared jst settings');
  git(repo, 'branch', 'main');
  await gitNet(repo, 'push', '-q', '-u', 'origin', 'development', 'main');
} else {
  git(repo, 'checkout', '-q', 'development');
  mkdirSync(join(repo, '.jst'), { recursive: true });
}

step('writing .jst/local.env (0600: tokens, the tracker and the code host)');
writeFileSync(
  join(repo, '.jst', 'local.env'),
  [
    `WORKTREES_DIR=${worktrees}`,
    `TRACKER_ACCOUNT_URL=${new URL(server.url).host}`,
    `TRACKER_GATEWAY_URL=${server.url}`,
    ...ROLES.flatMap((r) => [`TRACKER_${r.toUpperCase()}_EMAIL=${cred.email(r)}`, `TRACKER_${r.toUpperCase()}_TOKEN=${cred.token(r)}`]),
    `CODEHOST_API_URL=${codehostApi}`,
    `CODEHOST_PAT_TOKEN=${cred.codehostToken}`,
    `CODEHOST_EXECUTOR_TOKEN=${cred.codehostRoleToken('executor')}`,
    `CODEHOST_REVIEWER_TOKEN=${cred.codehostRoleToken('reviewer')}`,
    ...(tls ? [`CODEHOST_CA_FILE=${tls.caFile}`] : []),
  ].join('\n') + '\n',
  { mode: 0o600 },
);

const planFile = join(runDir, 'plan.json');
writeFileSync(planFile, JSON.stringify(planFileFor(), null, 2));

let failed;
let dispatched;
let first;
let subtasks = [];
try {
  say('\n— Phase 1, the assigner: plan the request into a parent, three sub-tasks and their worktrees');
  await jst(repo, 'plan', '--plan', planFile);
  const made = readdirSync(worktrees)
    .map((d) => ({ key: /^worktree-(.+)$/.exec(d)?.[1], dir: join(worktrees, d) }))
    .filter((w) => w.key)
    .sort((a, b) => Number(a.key.split('-')[1]) - Number(b.key.split('-')[1]));
  const [parent, ...rest] = made;
  subtasks = rest;
  if (!parent || subtasks.length === 0) throw new Error(`the plan made no sub-task worktrees in ${worktrees}`);
  if (values.dispatch) {
    // In the repository's git directory: the one folder beside its worktree a sandboxed agent sees (docs/dispatch.md).
    const agents = writeAgents(join(repo, '.git', 'demo-agents'), JST_BIN);
    say(`\n— Phases 2 and 3 by jst dispatch: scripted agents (${agents.executor}, ${agents.reviewer}) take every sub-task to approval`);
    const doc = await dispatchRounds({ repo, jstBin: JST_BIN, agents, keys: subtasks.map((t) => t.key), say });
    dispatched = doc.waiting.filter((w) => w.command).map((w) => `  cd ${shq(repo)} && ${w.command}`);
  } else {
    first = subtasks[0];
    const A = first.key;

    say(`\n— Phase 2, the executor: ${A} in its worktree`);
    say(`$ cd ${first.dir}`);
    await jst(first.dir, 'start');
    commit(first.dir, 'csv.js', 'export const toCsv = (rows) => rows.map((r) => r.join(",")).join("\\n");\n', `${A}: serialise rows to CSV`);
    await jst(first.dir, 'note', 'serialiser written; quoting still to do');
    await jst(first.dir, 'pr');

    say(`\n— Phase 3, the reviewer (in the main checkout): asks for a change`);
    say(`$ cd ${repo}`);
    await jst(repo, 'review', A);
    await jst(repo, 'review', A, '--request-changes', '--summary', 'Quote values that hold commas or quotes (RFC 4180)');

    say(`\n— Back to the executor: the review is shown by jst start, fixed, and the pull request updated`);
    say(`$ cd ${first.dir}`);
    await jst(first.dir, 'start');
    commit(
      first.dir,
      'csv.js',
      'const cell = (v) => (/[",\\n]/.test(String(v)) ? `"${String(v).replace(/"/g, \'""\')}"` : String(v));\nexport const toCsv = (rows) => rows.map((r) => r.map(cell).join(",")).join("\\r\\n");\n',
      `${A}: quote values (RFC 4180)`,
    );
    await jst(first.dir, 'pr');

    say(
      `\n— The reviewer approves and merges the pull request on the code host; the merge moves ${A} to Done (the seed's "tracker".onMerge), and jst done finds it there`,
    );
    say(`$ cd ${repo}`);
    await jst(repo, 'review', A, '--approve', '--summary', 'Quoting follows RFC 4180; thanks');
    const pull = await mergePullOf(first.dir);
    first.pullUrl = pull.html_url;
    await jst(repo, 'done', A, '--yes', A);
  }
} catch (e) {
  failed = e;
}

const jstHere = `export PATH=${shq(join(root, 'node_modules', '.bin'))}:"$PATH"${tls ? ` NODE_EXTRA_CA_CERTS=${shq(tls.caFile)} GIT_SSL_CAINFO=${shq(tls.caFile)}` : ''}`;
const ghHost = new URL(server.url).host;
// gh needs HTTPS, GH_HOST with the port, and -R with the port (gh drops the port of a git remote).
const ghLines = tls
  ? [
      `  gh             SSL_CERT_FILE=${shq(tls.caFile)} GH_HOST=${ghHost}; export SSL_CERT_FILE GH_HOST`,
      `                 (set -a; . ${shq(envFile)}; printf '%s\\n' "$DEMO_CODEHOST_TOKEN") | gh auth login --with-token`,
      `                 gh pr list -R ${ghHost}/${DEMO_REPO.owner}/${DEMO_REPO.name} --state all   (gh pr view, review, merge and gh api work as well)`,
    ]
  : ['  gh             needs HTTPS: npm start -- --tls serves the demo over it and prints how gh reaches it'];
process.stdout.write(
  [
    '',
    'Where everything is:',
    `  tracker        ${server.url}   (Jira REST v3 under /rest/api/3)`,
    `  board          ${server.url}/   (web page: sign in with an e-mail and its token from the credentials file)`,
    `  code host      ${codehostApi}   (GitHub REST shape; git: ${originUrl})`,
    `  repository     ${server.url}/${DEMO_REPO.owner}/${DEMO_REPO.name}   (its pages: branches, pull requests at …/pulls; the code-host sign-in below)`,
    ...(first?.pullUrl
      ? [`  pull request   ${first.pullUrl}   (sign in as ${CODEHOST_LOGIN} with DEMO_CODEHOST_TOKEN from the credentials file as the password)`]
      : []),
    `  tracker data   ${server.store.location}`,
    `  credentials    ${envFile}   (mode 0600, never printed)`,
    ...(tls ? [`  trust          ${tls.caFile}   (the local certificate authority: NODE_EXTRA_CA_CERTS for jst, http.sslCAInfo for git)`] : []),
    ...ghLines,
    `  checkout       ${repo}`,
    `  worktrees      ${worktrees}`,
    '',
    ...(failed
      ? []
      : dispatched
        ? [
            ...(values.once
              ? [
                  'Every sub-task is approved and waits for you (dispatch never runs done).',
                  ...serverAgain({ jstHere, port, dataDir, tls: Boolean(tls) }),
                  'Then, as the reviewer, paste these lines into another terminal, in order, once it is running:',
                ]
              : ['Every sub-task is approved and waits for you (dispatch never runs done); as the reviewer:']),
            `  ${jstHere}`,
            ...dispatched,
            `The agents' output: ${join(repo, '.jst', 'dispatch')}`,
            '',
          ]
        : nextSteps({ once: values.once, jstHere, repo, next: subtasks[1], done: first?.key, port, dataDir, tls: Boolean(tls) })),
  ].join('\n') + '\n',
);

async function mergePullOf(worktree) {
  const branch = git(worktree, 'rev-parse', '--abbrev-ref', 'HEAD');
  // The reviewer merges what it approved (its own code-host account).
  const headers = { Authorization: `Bearer ${cred.codehostRoleToken('reviewer')}`, Accept: 'application/vnd.github+json', 'User-Agent': 'jst-demo' };
  const base = `${codehostApi}/repos/${DEMO_REPO.owner}/${DEMO_REPO.name}`;
  const list = await (await fetch(`${base}/pulls?head=${encodeURIComponent(`${DEMO_REPO.owner}:${branch}`)}&state=open`, { headers })).json();
  const pull = Array.isArray(list) ? list[0] : undefined;
  if (!pull || typeof pull.number !== 'number') throw new Error(`no open pull request for ${branch} on the code host`);
  // Two lines that work as pasted into a fresh shell: the first loads the token from the 0600 file
  // (never printed), the second is the Merge button of the pull request's page.
  say(`\n$ set -a; . ${shq(envFile)}; set +a   # the demo's tokens, DEMO_CODEHOST_REVIEWER_TOKEN among them, into this shell`);
  say(
    `$ curl -sS -X PUT -H "Authorization: Bearer $DEMO_CODEHOST_REVIEWER_TOKEN" -H 'Content-Type: application/json' -d '{"merge_method":"merge"}' ${base}/pulls/${pull.number}/merge   # the Merge button of ${pull.html_url}`,
  );
  const res = await fetch(`${base}/pulls/${pull.number}/merge`, {
    method: 'PUT',
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: JSON.stringify({ merge_method: 'merge' }),
  });
  const answer = await res.json().catch(() => ({}));
  if (res.status !== 200 || answer.merged !== true)
    throw new Error(`merging pull request #${pull.number} answered HTTP ${res.status}: ${answer.message ?? ''}`);
  say(`${answer.message} (${String(answer.sha).slice(0, 12)})`);
  return pull;
}

if (failed) process.stderr.write(`\njst-tracker demo stopped: ${failed.message}\n`);
if (values.once || failed) {
  await server.close();
  process.exitCode = failed ? 1 : 0;
} else {
  process.stdout.write('jst-tracker keeps running; press Ctrl-C to stop.\n');
  await new Promise((done) => {
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
  await server.close();
}
