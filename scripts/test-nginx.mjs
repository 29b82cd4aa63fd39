#!/usr/bin/env node
// Tests docs/nginx/jst-tracker.conf for real: nginx (installed with apt-get when missing) in front of
// two `jst-tracker serve --trust-proxy` processes over one PostgreSQL database, all on loopback
// ports in a temporary folder. Sends requests through nginx and checks what docs/deploy.md promises:
// creates spread over both processes with unique keys, read back through either; `self` links carry
// the host and scheme the client used (also over TLS); keep-alive to the processes; the 1 MiB body
// limit answered in the vendor's shape; a process that dies is routed around. Tears everything down.
//
// Usage (from the repository root, after `npm run build`): node scripts/test-nginx.mjs
// Environment: JST_TEST_DATABASE_URL (admin URL of the PostgreSQL server; default
// postgres://postgres@127.0.0.1:5432/postgres), NGINX (the nginx binary; default: from PATH).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTempDatabase, freePort, spawnUntilReady, stopProcess } from './lib/local-services.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'packages/tracker/bin/jst-tracker.js');
const CONF = join(ROOT, 'docs/nginx/jst-tracker.conf');
const ADMIN_URL = process.env.JST_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const CLOUD_ID = '5f0c1d2e-3a4b-4c5d-8e6f-7a8b9c0d1e2f';
const USERS = {
  admin: { email: 'assigner@acme.test', token: 'nginx-test-admin-token' },
  member: { email: 'executor@acme.test', token: 'nginx-test-member-token' },
};
const CREATES = 40;

const dir = mkdtempSync(join(tmpdir(), 'jst-nginx-'));
const children = [];
let database;
let passed = 0;

const say = (line) => process.stdout.write(`${line}\n`);
function check(ok, what, detail = '') {
  if (!ok) throw new Error(`FAILED: ${what}${detail ? `\n  ${detail}` : ''}`);
  passed++;
  say(`  ok  ${what}`);
}

// --- set-up -------------------------------------------------------------------------------------

function nginxBinary() {
  if (process.env.NGINX) return process.env.NGINX;
  const found = spawnSync('sh', ['-c', 'command -v nginx || ls /usr/sbin/nginx 2>/dev/null'], { encoding: 'utf8' }).stdout.trim().split('\n')[0];
  if (found) return found;
  say('nginx is not installed: apt-get update && apt-get install -y nginx-light (or nginx)');
  const run = (args) => {
    const r = spawnSync('apt-get', args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    return r.status === 0;
  };
  if (!run(['update'])) throw new Error('apt-get update failed; install nginx and run again (or set NGINX=/path/to/nginx).');
  if (!run(['install', '-y', '--no-install-recommends', 'nginx-light']) && !run(['install', '-y', '--no-install-recommends', 'nginx'])) {
    throw new Error('apt-get install nginx failed; install nginx and run again (or set NGINX=/path/to/nginx).');
  }
  // A package install may start a system nginx on port 80; this test never uses it.
  return existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx';
}

async function startTracker(port, seedFile, name) {
  const started = spawnUntilReady(
    process.execPath,
    [BIN, 'serve', '--host', '127.0.0.1', '--port', String(port), '--database-url', database.url, '--seed', seedFile, '--trust-proxy'],
    /jst-tracker listening on/,
    { name, cwd: ROOT, timeoutMs: 30_000 },
  );
  const tracker = { name, port, proc: started.proc };
  children.push(tracker);
  await started.ready;
  return tracker;
}

/**
 * The documented file, run as it is: only its ports (upstream servers, listen) are rewritten, and a
 * TLS listener with a throw-away certificate is added to check X-Forwarded-Proto.
 */
function nginxConfig({ listen, tlsListen, upstreams, cert, key }) {
  let conf = readFileSync(CONF, 'utf8');
  const servers = conf.match(/^\s*server 127\.0\.0\.1:\d+ .*;$/gm);
  if (!servers || servers.length !== 2) throw new Error('docs/nginx/jst-tracker.conf: expected two upstream server lines');
  servers.forEach((line, i) => {
    conf = conf.replace(line, line.replace(/127\.0\.0\.1:\d+/, `127.0.0.1:${upstreams[i]}`));
  });
  if (!/^\s*listen 127\.0\.0\.1:8080;$/m.test(conf)) throw new Error('docs/nginx/jst-tracker.conf: expected "listen 127.0.0.1:8080;"');
  conf = conf.replace(
    /^(\s*)listen 127\.0\.0\.1:8080;$/m,
    `$1listen 127.0.0.1:${listen};\n$1listen 127.0.0.1:${tlsListen} ssl;\n$1ssl_certificate ${cert};\n$1ssl_certificate_key ${key};`,
  );
  writeFileSync(join(dir, 'jst-tracker.conf'), conf);
  const asRoot = process.getuid?.() === 0;
  writeFileSync(
    join(dir, 'nginx.conf'),
    `${asRoot ? 'user nobody nogroup;\n' : ''}worker_processes 1;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
events { worker_connections 512; }
http {
    log_format upstream '$request_method $uri $status $upstream_addr';
    access_log ${join(dir, 'access.log')} upstream;
    client_body_temp_path ${join(dir, 'client_body')};
    proxy_temp_path ${join(dir, 'proxy')};
    fastcgi_temp_path ${join(dir, 'fastcgi')};
    uwsgi_temp_path ${join(dir, 'uwsgi')};
    scgi_temp_path ${join(dir, 'scgi')};
    include ${join(dir, 'jst-tracker.conf')};
}
`,
  );
}

// --- requests -----------------------------------------------------------------------------------

const basic = ({ email, token }) => `Basic ${Buffer.from(`${email}:${token}`).toString('base64')}`;

async function call(base, method, path, { who = USERS.member, body, raw } = {}) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      accept: 'application/json',
      authorization: basic(who),
      ...(body !== undefined || raw !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
  const text = await res.text();
  let json;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text, headers: res.headers };
}

/** curl for the TLS listener (a throw-away self-signed certificate: -k). */
function curlJson(url, who) {
  const out = execFileSync('curl', ['-sk', '-u', `${who.email}:${who.token}`, url], { encoding: 'utf8' });
  return JSON.parse(out);
}

function upstreamsInLog(uriPrefix) {
  const lines = readFileSync(join(dir, 'access.log'), 'utf8')
    .split('\n')
    .filter((l) => l.includes(uriPrefix));
  return new Set(lines.map((l) => l.split(' ').at(-1)));
}

async function pooled(n, limit, work) {
  const out = new Array(n);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < n) {
        const i = next++;
        out[i] = await work(i);
      }
    }),
  );
  return out;
}

// --- main ---------------------------------------------------------------------------------------

async function main() {
  if (!existsSync(join(ROOT, 'packages/tracker/dist/cli.js'))) throw new Error('packages/tracker is not built: run `npm run build` first.');
  const nginx = nginxBinary();
  say(
    `nginx: ${execFileSync(nginx, ['-v'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }) || spawnSync(nginx, ['-v'], { encoding: 'utf8' }).stderr.trim()}`,
  );
  database = await createTempDatabase(ADMIN_URL, 'jst_nginx');

  const seedFile = join(dir, 'seed.json');
  writeFileSync(
    seedFile,
    JSON.stringify({
      sites: [
        {
          host: 'acme.atlassian.net',
          cloudId: CLOUD_ID,
          users: Object.values(USERS).map((u) => ({ email: u.email, displayName: u.email.split('@')[0], tokens: [{ token: u.token }] })),
          projects: [
            {
              key: 'ABC',
              name: 'Alpha',
              lead: USERS.admin.email,
              members: [
                { email: USERS.admin.email, role: 'admin' },
                { email: USERS.member.email, role: 'member' },
              ],
              workflow: 'kanban',
            },
          ],
        },
      ],
    }),
  );
  const [p1, p2, listen, tlsListen] = [await freePort(), await freePort(), await freePort(), await freePort()];
  // Both processes load the same seed at once, as a deployment's processes do on start.
  const trackers = await Promise.all([startTracker(p1, seedFile, 'tracker-1'), startTracker(p2, seedFile, 'tracker-2')]);
  say(`jst-tracker processes on 127.0.0.1:${p1} and 127.0.0.1:${p2}, PostgreSQL database ${new URL(database.url).pathname.slice(1)}`);

  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')],
    { stdio: 'ignore' },
  );
  for (const sub of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, sub));
  nginxConfig({ listen, tlsListen, upstreams: [p1, p2], cert: join(dir, 'cert.pem'), key: join(dir, 'key.pem') });
  const test = spawnSync(nginx, ['-t', '-p', dir, '-c', join(dir, 'nginx.conf')], { encoding: 'utf8' });
  check(test.status === 0, 'nginx -t accepts docs/nginx/jst-tracker.conf', test.stderr);
  const started = spawnSync(nginx, ['-p', dir, '-c', join(dir, 'nginx.conf')], { encoding: 'utf8' });
  if (started.status !== 0) throw new Error(`nginx did not start:\n${started.stderr}`);
  const front = `http://127.0.0.1:${listen}`;
  const site = `${front}/rest/api/3`;
  const gateway = `${front}/ex/jira/${CLOUD_ID}/rest/api/3`;
  say(`nginx on ${front} (and https://127.0.0.1:${tlsListen})`);

  const health = await fetch(`${front}/healthz`);
  check(health.status === 200 && (await health.json()).deploymentType === 'Cloud', 'GET /healthz answers 200 through nginx');

  // Creates through nginx, several in flight at once, as a team's clients make them.
  const created = await pooled(CREATES, 8, (i) =>
    call(gateway, 'POST', '/issue', {
      body: { fields: { project: { key: 'ABC' }, issuetype: { name: 'Task' }, summary: `Through nginx ${i}` } },
    }),
  );
  check(
    created.every((r) => r.status === 201),
    `${CREATES} × POST /issue through nginx answer 201`,
    created
      .filter((r) => r.status !== 201)
      .map((r) => `${r.status} ${r.text}`)
      .join('\n  '),
  );
  const keys = created.map((r) => r.json.key).sort((a, b) => Number(a.split('-')[1]) - Number(b.split('-')[1]));
  check(
    new Set(keys).size === CREATES && keys.every((k, i) => k === `ABC-${i + 1}`),
    `the keys are exactly ABC-1..ABC-${CREATES}: unique across both processes`,
    keys.join(' '),
  );
  const served = upstreamsInLog('/issue');
  check(served.has(`127.0.0.1:${p1}`) && served.has(`127.0.0.1:${p2}`), 'nginx spread the creates over both processes', [...served].join(', '));
  check(
    created.every((r) => r.json.self.startsWith(`${gateway}/issue/`)),
    "`self` of each created issue names nginx's address and the gateway path, not a process's",
    created[0].json.self,
  );

  // Reads through nginx (either process answers) see every write.
  const reads = await pooled(CREATES, 8, (i) => call(site, 'GET', `/issue/${keys[i]}?fields=summary,status`));
  check(
    reads.every((r, i) => r.status === 200 && r.json.key === keys[i] && r.json.fields.status.name === 'To Do'),
    `each of the ${CREATES} issues reads back through nginx`,
  );
  check(
    reads.every((r) => r.json.self.startsWith(`${site}/issue/`) && r.json.fields.status.self.startsWith(`${site}/status/`)),
    '`self` links of a read use the forwarded host (site form)',
    reads[0].json.self,
  );

  // A write through one process, a read through the other: no process keeps state of its own.
  const direct = (port) => `http://127.0.0.1:${port}/rest/api/3`;
  const moved = await call(direct(p1), 'POST', `/issue/${keys[0]}/transitions`, { body: { transition: { id: '21' } } });
  const seen = await call(direct(p2), 'GET', `/issue/${keys[0]}?fields=status`);
  check(moved.status === 204 && seen.json.fields.status.name === 'In Progress', 'a transition made on one process is read on the other at once');
  check(
    seen.json.self.startsWith(`http://127.0.0.1:${p2}/`),
    'without proxy headers, a process names its own address (so the links above came from X-Forwarded-*)',
    seen.json.self,
  );

  const tls = curlJson(`https://127.0.0.1:${tlsListen}/rest/api/3/issue/${keys[1]}?fields=status`, USERS.member);
  check(
    tls.self.startsWith(`https://127.0.0.1:${tlsListen}/rest/api/3/issue/`),
    '`self` links over TLS say https and the TLS port (X-Forwarded-Proto, X-Forwarded-Host)',
    tls.self,
  );

  // Keep-alive to the processes: after the traffic, nginx still holds connections open to them.
  const held = spawnSync('ss', ['-Htn', 'state', 'established', `( dport = :${p1} or dport = :${p2} )`], { encoding: 'utf8' });
  const open = held.status === 0 ? held.stdout.split('\n').filter((l) => l.trim() !== '').length : -1;
  if (open >= 0) check(open >= 1 && open <= 2 * 32, `nginx keeps idle keep-alive connections to the processes (${open} open)`);

  // The 1 MiB body limit: a larger body is refused by nginx in the vendor's shape; one within the
  // limit reaches the tracker (whose own 400 for the over-long summary proves it got there).
  const big = await call(gateway, 'POST', '/issue', { raw: JSON.stringify({ fields: { summary: 'x'.repeat(1024 * 1024) } }) });
  check(
    big.status === 413 && Array.isArray(big.json?.errorMessages) && big.json.errors && typeof big.json.errors === 'object',
    'a body over 1 MiB: 413 with an ErrorCollection',
    `${big.status} ${big.text.slice(0, 200)}`,
  );
  const fits = await call(gateway, 'POST', '/issue', {
    raw: JSON.stringify({ fields: { project: { key: 'ABC' }, issuetype: { name: 'Task' }, summary: 'y'.repeat(1024 * 1024 - 200) } }),
  });
  check(
    fits.status === 400 && fits.json?.errors?.summary !== undefined,
    'a body just under 1 MiB passes nginx and is judged by the tracker (400 on summary)',
    `${fits.status} ${fits.text.slice(0, 200)}`,
  );

  // One process goes away (a crash, a restart): nginx routes around it.
  await stopProcess(trackers[1].proc);
  const after = await pooled(20, 4, (i) => call(site, 'GET', `/issue/${keys[i % CREATES]}?fields=summary`));
  check(
    after.every((r) => r.status === 200),
    'with one process stopped, 20 reads through nginx still answer 200',
    after.map((r) => r.status).join(' '),
  );
  const more = await call(site, 'POST', '/issue', {
    body: { fields: { project: { key: 'ABC' }, issuetype: { name: 'Task' }, summary: 'After the failover' } },
  });
  check(
    more.status === 201 && more.json.key === `ABC-${CREATES + 1}`,
    `a create after the failover gets the next key (ABC-${CREATES + 1})`,
    `${more.status} ${more.text.slice(0, 200)}`,
  );

  spawnSync(nginx, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-s', 'quit']);
  say(`\nPASS: ${passed} checks (nginx ${listen}/${tlsListen} → jst-tracker ${p1}, ${p2} → PostgreSQL)`);
}

async function teardown() {
  const pidFile = join(dir, 'nginx.pid');
  if (existsSync(pidFile)) {
    try {
      process.kill(Number(readFileSync(pidFile, 'utf8').trim()), 'SIGQUIT');
    } catch {
      /* already gone */
    }
    for (let i = 0; i < 50 && existsSync(pidFile); i++) await new Promise((r) => setTimeout(r, 100));
  }
  await Promise.all(children.map((c) => stopProcess(c.proc)));
  if (database) await database.drop().catch((e) => say(`could not drop the test database: ${e.message}`));
  rmSync(dir, { recursive: true, force: true });
}

main().then(teardown, async (e) => {
  process.stderr.write(`${e.stack ?? e}\n`);
  const errorLog = join(dir, 'error.log');
  if (existsSync(errorLog)) process.stderr.write(`nginx error log:\n${readFileSync(errorLog, 'utf8')}\n`);
  await teardown();
  process.exitCode = 1;
});
