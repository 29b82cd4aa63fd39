// `npm run test:install` (CI runs it from a clean clone, .ci/run): the package tarballs install and
// run outside the workspace. Packs jst and jst-tracker (scripts/pack.mjs, into the clone's
// dist-pack/), installs both by running README.md's own install line (`npm install -g ./dist-pack/*.tgz`)
// through a shell from the clone's root with npm_config_prefix set to a temporary folder outside
// the repository (so no workspace node_modules can be found), and drives the installed commands
// with nothing of the repository on PATH:
//   jst --version / jst-tracker --version   print their package.json version
//   jst --help / jst-tracker --help          exit 0
//   jst-tracker serve --port 0 --data DIR    prints its ready line, serves the board's files, and
//                                            answers an authenticated GET /rest/api/3/myself of a seed user
//   jst raw, project list, issue create --markdown, jst mcp   each bundle of jst, against that server
//   nothing of the workspace (@jst/*) is installed, and jst installs no package at all.
// Needs the npm registry (jst-tracker's dependencies; better-sqlite3 takes this clone's binary of the
// same version as its prebuild, else fetches one or builds from source: localPrebuilds below). Uses
// the npm cache first (--prefer-offline).
// --keep leaves the scratch folder for a look; its path is printed.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = realpathSync(fileURLToPath(new URL('..', import.meta.url)));
const { values } = parseArgs({ options: { keep: { type: 'boolean' } } });
const version = (dir) => JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')).version;

let failures = 0;
const ok = (text) => process.stdout.write(`ok - ${text}\n`);
const fail = (text) => {
  failures += 1;
  process.stdout.write(`not ok - ${text}\n`);
};
const check = (cond, text, detail = '') => (cond ? ok(text) : fail(detail ? `${text}\n    ${detail.replace(/\n/g, '\n    ')}` : text));

const scratch = realpathSync(mkdtempSync(join(tmpdir(), 'jst-install-')));
const inside = (dir, parent) => dir === parent || dir.startsWith(parent + sep);
if (inside(scratch, root)) {
  process.stderr.write(`test-install: the scratch folder ${scratch} is inside the repository ${root}; set TMPDIR to a folder outside it\n`);
  process.exit(2);
}
// A node_modules in any folder above the scratch one would be searched by Node's resolution.
for (let d = scratch; d !== dirname(d); d = dirname(d)) {
  if (existsSync(join(dirname(d), 'node_modules'))) {
    process.stderr.write(
      `test-install: ${join(dirname(d), 'node_modules')} is above the scratch folder; set TMPDIR to a folder with no node_modules above it\n`,
    );
    process.exit(2);
  }
}
const prefix = join(scratch, 'prefix');
const bin = join(prefix, 'bin');
let server;
const cleanup = () => {
  if (server && server.exitCode === null) server.kill('SIGKILL');
  if (values.keep) process.stdout.write(`# scratch folder kept: ${scratch}\n`);
  else rmSync(scratch, { recursive: true, force: true });
};
process.on('exit', cleanup);

// The installed commands see the scratch bin and Node, nothing of the repository.
const env = {
  PATH: [bin, dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(':'),
  HOME: join(scratch, 'home'),
  XDG_CACHE_HOME: join(scratch, 'cache'),
  NO_COLOR: '1',
  LANG: 'C.UTF-8',
};
mkdirSync(env.HOME);

/** Runs an installed command (found on the scratch PATH) to its end. */
function run(cmd, args, opts = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd ?? scratch, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c) => {
      stdout += c;
    });
    child.stderr.setEncoding('utf8').on('data', (c) => {
      stderr += c;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(opts.input ?? '');
  });
}
/**
 * better-sqlite3, jst-tracker's one native dependency, fetches a prebuilt binary from GitHub and
 * compiles SQLite from source when it cannot: on machines that reach only npm's registry (CI's) that
 * is ~90 s of this test, a compile `npm ci` in this clone has just done for the same version. So the
 * clone's own binary is offered as that version's local prebuild (prebuild-install's
 * `npm_config_better_sqlite3_local_prebuilds`, the file name it would download), which
 * prebuild-install unpacks and loads as it would a download; when npm picks another version, or the
 * Node.js ABI differs, the name does not match and it compiles as before. npm warns that it does
 * not know the setting ("Unknown env config"): it is prebuild-install's, read from the environment
 * npm passes to the install script. Measured on 2026-11-28: the install 99 s → 8 s. Returns the
 * folder, or null (nothing to offer; JST_TEST_INSTALL_FROM_SOURCE=1 offers nothing).
 */
function localPrebuilds() {
  if (process.env.JST_TEST_INSTALL_FROM_SOURCE === '1') return null;
  const pkgDir = join(root, 'node_modules', 'better-sqlite3');
  const binary = join(pkgDir, 'build', 'Release', 'better_sqlite3.node');
  if (!existsSync(binary)) return null;
  const { version } = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
  const musl = process.platform === 'linux' && !process.report.getReport().header.glibcVersionRuntime;
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}${musl ? 'musl' : ''}-${process.arch}.tar.gz`;
  const dir = join(scratch, 'prebuilds');
  mkdirSync(dir);
  const tar = spawnSync('tar', ['-czf', join(dir, name), '-C', pkgDir, 'build/Release/better_sqlite3.node'], { encoding: 'utf8' });
  if (tar.status !== 0) {
    process.stdout.write(`# no local prebuild of better-sqlite3 (tar: ${(tar.stderr || String(tar.error)).trim()}); it compiles from source\n`);
    return null;
  }
  process.stdout.write(`# better-sqlite3 ${version}: this clone's binary offered as its prebuild (${name})\n`);
  return dir;
}

const show = (r) => `exit ${r.code}\nstdout: ${r.stdout.slice(0, 2000)}\nstderr: ${r.stderr.slice(0, 2000)}`;

try {
  // --- pack and install, as README.md says: `npm run pack` into the clone's dist-pack/, then the
  // README's own install line, read out of README.md and run through a shell from the clone's root,
  // so the line a newcomer pastes is the line this proves. The scratch prefix and the quiet flags come
  // from npm's environment settings (npm_config_*), which leave the line itself untouched.
  process.stdout.write(`# packing into ${join(root, 'dist-pack')} (npm run pack)\n`);
  const tarballs = execFileSync(process.execPath, [join(root, 'scripts/pack.mjs')], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  })
    .trim()
    .split('\n');
  check(tarballs.length === 2, `npm run pack wrote two tarballs (${tarballs.map((t) => relative(root, t)).join(', ')})`);
  const readmeLines = readFileSync(join(root, 'README.md'), 'utf8')
    .split('\n')
    .filter((l) => /^npm install -g .*\.tgz/.test(l));
  if (readmeLines.length !== 1) throw new Error(`README.md has ${readmeLines.length} lines starting "npm install -g … .tgz"; this test runs exactly one`);
  const readmeLine = readmeLines[0];
  process.stdout.write(`# from ${root}, with npm_config_prefix=${prefix}: ${readmeLine}\n`);
  const prebuilds = localPrebuilds();
  const started = Date.now();
  // allow_scripts: npm 11 asks before running an install script (better-sqlite3 builds or fetches
  // its binding), as README.md says; older npm ignores the setting and runs it.
  const install = spawnSync('sh', ['-c', readmeLine], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      npm_config_prefix: prefix,
      npm_config_prefer_offline: 'true',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
      npm_config_allow_scripts: 'better-sqlite3',
      npm_config_loglevel: 'warn',
      ...(prebuilds === null ? {} : { npm_config_better_sqlite3_local_prebuilds: prebuilds }),
    },
  });
  process.stderr.write(install.stdout + install.stderr);
  if (install.status !== 0) throw new Error(`README.md's "${readmeLine}" exited ${install.status ?? install.signal} (its output is above, on stderr)`);
  ok(`README.md's install line installs both tarballs (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  // The root package.json's "overrides" do not reach an installed package: what it resolves must suit Node 20 by itself.
  const badEngine = install.stderr
    .split('\n')
    .filter((l) => l.includes('EBADENGINE'))
    .join('\n');
  check(badEngine === '', `every installed package supports Node.js ${process.version} (no EBADENGINE)`, badEngine);

  const modules = join(prefix, 'lib', 'node_modules');
  check(existsSync(join(bin, 'jst')) && existsSync(join(bin, 'jst-tracker')), 'jst and jst-tracker are in the prefix bin/ (on PATH)');
  check(!existsSync(join(modules, 'jst', 'node_modules')), 'jst installs no package: its bundles carry everything');
  const workspaceCopies = [join(modules, '@jst'), join(modules, 'jst-tracker', 'node_modules', '@jst')].filter(existsSync);
  check(workspaceCopies.length === 0, 'no workspace library (@jst/*) is installed: they are inside the bundles', workspaceCopies.join(', '));

  // --- versions and help
  for (const [cmd, dir] of [
    ['jst', 'packages/jst'],
    ['jst-tracker', 'packages/tracker'],
  ]) {
    const v = await run(cmd, ['--version']);
    check(v.code === 0 && v.stdout === `${version(dir)}\n`, `${cmd} --version prints ${version(dir)} (its package.json version)`, show(v));
    const h = await run(cmd, ['--help']);
    check(h.code === 0 && /Usage/i.test(h.stdout), `${cmd} --help exits 0 with the usage`, show(h));
  }

  // --- the installed server, seeded
  const seed = {
    sites: [
      {
        host: 'install.atlassian.net',
        users: [{ email: 'assigner@install.test', displayName: 'Ada Assigner', tokens: [{ token: 'tok-install-assigner-4c1d' }] }],
        projects: [
          {
            key: 'INS',
            name: 'Install check',
            lead: 'assigner@install.test',
            workflow: 'kanban',
            members: [{ email: 'assigner@install.test', role: 'admin' }],
          },
        ],
      },
    ],
  };
  writeFileSync(join(scratch, 'seed.json'), JSON.stringify(seed));
  server = spawn('jst-tracker', ['serve', '--port', '0', '--data', join(scratch, 'data'), '--seed', join(scratch, 'seed.json')], {
    cwd: scratch,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let serverErr = '';
  server.stderr.setEncoding('utf8').on('data', (c) => {
    serverErr += c;
  });
  const url = await new Promise((resolve) => {
    let out = '';
    const timer = setTimeout(() => resolve(undefined), 30_000);
    server.stdout.setEncoding('utf8').on('data', (c) => {
      out += c;
      const m = /^jst-tracker listening on (http:\/\/127\.0\.0\.1:\d+)\n/m.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    server.on('exit', () => {
      clearTimeout(timer);
      resolve(undefined);
    });
  });
  check(url !== undefined, `jst-tracker serve --port 0 prints its ready line${url ? ` (${url})` : ''}`, `stderr: ${serverErr.slice(0, 2000)}`);
  if (url === undefined) throw new Error('the installed jst-tracker did not start');

  const auth = `Basic ${Buffer.from('assigner@install.test:tok-install-assigner-4c1d').toString('base64')}`;
  const me = await fetch(`${url}/rest/api/3/myself`, { headers: { authorization: auth } });
  const meBody = await me.text();
  check(
    me.status === 200 && JSON.parse(meBody).emailAddress === 'assigner@install.test',
    'GET /rest/api/3/myself with a seed token answers 200 with that user',
    `${me.status} ${meBody.slice(0, 500)}`,
  );
  const anon = await fetch(`${url}/rest/api/3/myself`);
  check(anon.status === 401, 'GET /rest/api/3/myself without credentials answers 401', String(anon.status));
  const css = await fetch(`${url}/_board/assets/board.css`);
  const cssBody = await css.text();
  check(
    css.status === 200 && cssBody === readFileSync(join(root, 'packages/tracker/board-assets/board.css'), 'utf8'),
    "the board's files (board-assets/) are served from the installed package",
    `${css.status}`,
  );

  // --- the installed jst against it: each of its bundles (raw: the fast path; project list: the
  // program; --markdown: the Markdown parser; mcp: the MCP server)
  const work = join(scratch, 'work');
  mkdirSync(join(work, '.jst'), { recursive: true });
  writeFileSync(
    join(work, '.jst', 'team.env'),
    [
      'DEFAULT_BASE_BRANCH=development',
      'PRODUCTION_BRANCH=main',
      'PROJECT_KEY=INS',
      'STATUS_TODO=To Do',
      'STATUS_IN_PROGRESS=In Progress',
      'STATUS_IN_REVIEW=In Review',
      'STATUS_DONE=Done',
    ].join('\n') + '\n',
  );
  writeFileSync(
    join(work, '.jst', 'local.env'),
    [
      `TRACKER_ACCOUNT_URL=${new URL(url).host}`,
      `TRACKER_GATEWAY_URL=${url}`,
      `WORKTREES_DIR=${scratch}`,
      'TRACKER_ASSIGNER_EMAIL=assigner@install.test',
      'TRACKER_ASSIGNER_TOKEN=tok-install-assigner-4c1d',
    ].join('\n') + '\n',
    { mode: 0o600 },
  );
  const raw = await run('jst', ['--role', 'assigner', 'raw', 'GET', '/myself'], { cwd: work });
  check(raw.code === 0 && raw.stdout.includes('assigner@install.test'), 'jst --role assigner raw GET /myself reaches the installed tracker', show(raw));
  const list = await run('jst', ['--role', 'assigner', 'project', 'list'], { cwd: work });
  check(list.code === 0 && list.stdout.includes('INS'), 'jst --role assigner project list names the seed project', show(list));
  writeFileSync(join(work, 'scope.md'), '# Scope\n\n* one **bold** point\n');
  const created = await run(
    'jst',
    ['--role', 'assigner', 'issue', 'create', '--type', 'Task', '--summary', 'Installed', '--description-file', 'scope.md', '--markdown', '--json'],
    { cwd: work },
  );
  const key = /"key"\s*:\s*"(INS-\d+)"/.exec(created.stdout)?.[1];
  check(created.code === 0 && key !== undefined, 'jst issue create --markdown (the Markdown bundle) creates an issue', show(created));
  if (key) {
    const issue = await fetch(`${url}/rest/api/3/issue/${key}?fields=description`, { headers: { authorization: auth } });
    const body = await issue.text();
    check(
      issue.status === 200 && body.includes('"strong"') && body.includes('"heading"'),
      `${key}'s description is the Markdown as ADF (a heading, a strong mark)`,
      body.slice(0, 500),
    );
  }
  const mcp = spawn('jst', ['mcp', '--role', 'assigner'], { cwd: work, env, stdio: ['pipe', 'pipe', 'pipe'] });
  const mcpAnswer = await new Promise((resolve) => {
    let out = '';
    const timer = setTimeout(() => resolve(out), 20_000);
    mcp.stdout.setEncoding('utf8').on('data', (c) => {
      out += c;
      if (out.includes('\n')) {
        clearTimeout(timer);
        resolve(out);
      }
    });
    mcp.on('exit', () => {
      clearTimeout(timer);
      resolve(out);
    });
    mcp.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test-install', version: '0' } } })}\n`,
    );
  });
  mcp.kill('SIGTERM');
  check(/"serverInfo"/.test(mcpAnswer), 'jst mcp (the MCP bundle) answers initialize on stdio', mcpAnswer.slice(0, 500));

  // --- stop
  server.kill('SIGTERM');
  const code = await new Promise((resolve) => (server.exitCode !== null ? resolve(server.exitCode) : server.on('exit', (c) => resolve(c))));
  check(code === 0, 'jst-tracker exits 0 on SIGTERM', `exit ${code}; stderr: ${serverErr.slice(0, 1000)}`);
  check(readdirSync(join(scratch, 'data')).length > 0, 'the SQLite data folder was written under --data');
} catch (e) {
  fail(`test-install stopped: ${e instanceof Error ? e.message : String(e)}`);
}

process.stdout.write(failures === 0 ? '# the tarballs install and run outside the workspace\n' : `# ${failures} check(s) failed\n`);
process.exitCode = failures === 0 ? 0 : 1;
