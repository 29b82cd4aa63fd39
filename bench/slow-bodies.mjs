#!/usr/bin/env node
// Slow and stalled request bodies against a jst-tracker binary, by an account with read access only
// (docs/limits.md "Git processes", "Idle request body"):
//   readers  the reader trickles 32 git-upload-pack bodies (a byte every 2 s); the writer's
//            `git ls-remote` (5 runs) before and while they trickle
//   stalled  200 unauthenticated POSTs to /api/v3 that send 900 KB of a 1 MB body and stall: the
//            server's RSS and how many of the connections it still holds, at 2 s, 12 s and 40 s
//   pages    60 concurrent review-page views by the reader; the tracker's GET /myself (5 calls) idle
//            and while they run
//
//   node bench/slow-bodies.mjs [--tracker path/to/bin/jst-tracker.js] [--only readers,stalled,pages]
// Run it against this tree (default) and against another one (a build of main) to compare.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { rssMiB } from './lib/procstat.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const { values } = parseArgs({
  options: {
    tracker: { type: 'string', default: join(ROOT, 'packages/tracker/bin/jst-tracker.js') },
    only: { type: 'string', default: 'readers,stalled,pages' },
  },
});
const BIN = resolve(values.tracker);
const ONLY = new Set(values.only.split(','));
const CLOUD_ID = '0b5e6a8c-1d2f-4e3a-9b7c-6d5e4f3a2b1c';
const TRACKER_TOKEN = 'bench-viewer-token-0001';
const WRITER = 'bench-ch-writer-0a1b2c3d';
const READER = 'bench-ch-reader-4e5f6a7b';
const SEED = {
  sites: [
    {
      host: 'acme.atlassian.net',
      cloudId: CLOUD_ID,
      users: [{ email: 'viewer@acme.test', tokens: [{ token: TRACKER_TOKEN }] }],
      projects: [{ key: 'ABC', name: 'Alpha', workflow: 'kanban', members: [{ email: 'viewer@acme.test', role: 'admin' }] }],
    },
  ],
  codehost: {
    users: [
      { login: 'writer', tokens: [{ token: WRITER }] },
      { login: 'reader', tokens: [{ token: READER }] },
    ],
    repos: [
      {
        owner: 'acme',
        name: 'app',
        defaultBranch: 'main',
        collaborators: [
          { login: 'writer', permission: 'write' },
          { login: 'reader', permission: 'read' },
        ],
      },
    ],
  },
};

const tmp = mkdtempSync(join(tmpdir(), 'jst-slow-bodies-'));
const seedFile = join(tmp, 'seed.json');
writeFileSync(seedFile, JSON.stringify(SEED));
const GIT_ENV = { PATH: process.env.PATH, HOME: tmp, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function start() {
  return new Promise((resolveStart, reject) => {
    const proc = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--data', join(tmp, 'data'), '--seed', seedFile], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    proc.stderr.on('data', (d) => (err += d));
    proc.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolveStart({ proc, url: m[1] });
    });
    proc.on('exit', (code) => reject(new Error(`tracker exited ${code}: ${err.slice(-2000)}`)));
  });
}

function git(cwd, ...args) {
  return new Promise((res) => {
    const began = performance.now();
    const child = spawn('git', ['-c', 'credential.helper=', '-c', 'user.name=B', '-c', 'user.email=b@x', ...args], { cwd, env: GIT_ENV });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.resume();
    child.on('close', (code) => res({ code, ms: Math.round(performance.now() - began), stderr }));
  });
}
const remote = (url, token) => `${url.replace('http://', `http://x:${token}@`)}/acme/app.git`;
const basic = (user, token) => `Basic ${Buffer.from(`${user}:${token}`).toString('base64')}`;

async function prepare(url) {
  const work = join(tmp, 'work');
  await git(tmp, 'clone', '--quiet', remote(url, WRITER), work);
  await git(work, 'checkout', '--quiet', '-b', 'main');
  for (let i = 0; i < 20; i++) writeFileSync(join(work, `f${i}.txt`), `file ${i}\n`.repeat(200));
  await git(work, 'add', '.');
  await git(work, 'commit', '--quiet', '-m', 'initial');
  await git(work, 'push', '--quiet', 'origin', 'main');
  await git(work, 'checkout', '--quiet', '-b', 'feature/ABC-1-bench');
  for (let i = 0; i < 20; i++) writeFileSync(join(work, `f${i}.txt`), `changed ${i}\n`.repeat(200));
  await git(work, 'commit', '--quiet', '-am', 'change');
  await git(work, 'push', '--quiet', 'origin', 'feature/ABC-1-bench');
  const res = await fetch(`${url}/api/v3/repos/acme/app/pulls`, {
    method: 'POST',
    headers: { authorization: `Bearer ${WRITER}`, 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'bench', head: 'feature/ABC-1-bench', base: 'main' }),
  });
  if (res.status !== 201) throw new Error(`creating the pull request answered ${res.status}`);
}

/** A raw connection that sends a request's head and `first` bytes of its body; `closed` once the server lets go. */
function rawBody(url, path, headers, first) {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  const state = { socket, closed: false, status: null };
  socket.on('data', (d) => {
    state.status ??= Number(/^HTTP\/1\.1 (\d{3})/.exec(d.toString('latin1'))?.[1] ?? 0);
  });
  socket.on('error', () => {});
  socket.on('close', () => (state.closed = true));
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n${Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('')}\r\n`,
  );
  if (first.length > 0) socket.write(first);
  return state;
}

async function readers(url) {
  const before = [];
  for (let i = 0; i < 5; i++) before.push(await git(tmp, 'ls-remote', remote(url, WRITER)));
  const open = Array.from({ length: 32 }, () =>
    rawBody(
      url,
      '/acme/app.git/git-upload-pack',
      { Authorization: basic('x', READER), 'Content-Type': 'application/x-git-upload-pack-request', 'Transfer-Encoding': 'chunked' },
      '9\r\n0032want \r\n',
    ),
  );
  const trickle = setInterval(() => {
    for (const s of open) if (!s.closed) s.socket.write('1\r\n0\r\n');
  }, 2000);
  await sleep(1500);
  const during = [];
  for (let i = 0; i < 5; i++) during.push(await git(tmp, 'ls-remote', remote(url, WRITER)));
  const refused = open.filter((s) => s.status === 429).length;
  const held = open.filter((s) => s.status === null && !s.closed).length;
  clearInterval(trickle);
  for (const s of open) s.socket.destroy();
  const show = (runs) =>
    `${runs.filter((r) => r.code === 0).length}/5 ok, median ${median(runs.map((r) => r.ms))} ms${runs.some((r) => r.code !== 0) ? ` (failed: ${/error: [^\n]*/.exec(runs.find((r) => r.code !== 0).stderr)?.[0] ?? 'exit'})` : ''}`;
  console.log(`| readers | writer's ls-remote, idle | ${show(before)} |`);
  console.log(`| readers | writer's ls-remote, 32 trickling reader bodies | ${show(during)}; reader's bodies: ${held} held, ${refused} answered 429 |`);
  await sleep(500);
}

async function stalled(url, pid) {
  const rss0 = rssMiB(pid);
  const chunk = Buffer.alloc(900 * 1024, 0x20);
  const open = [];
  for (let i = 0; i < 200; i++) {
    open.push(rawBody(url, '/api/v3/repos/acme/app/pulls', { 'Content-Type': 'application/json', 'Content-Length': String(1024 * 1024) }, chunk));
    if (i % 20 === 19) await sleep(50);
  }
  const began = performance.now();
  const at = async (s) => {
    await sleep(s * 1000 - (performance.now() - began));
    const answered = open.filter((o) => o.status !== null).length;
    console.log(
      `| stalled | 200 unauthenticated 900 KB-of-1 MB bodies to /api/v3, at ${s} s | RSS ${Math.round(rssMiB(pid))} MiB (idle ${Math.round(rss0)}); connections held ${open.filter((o) => !o.closed).length}; answered ${answered} (${[...new Set(open.map((o) => o.status).filter((x) => x !== null))].join(', ') || 'none'}) |`,
    );
  };
  await at(2);
  await at(12);
  await at(40);
  for (const o of open) o.socket.destroy();
}

async function pages(url) {
  const myself = async () => {
    const began = performance.now();
    const res = await fetch(`${url}/ex/jira/${CLOUD_ID}/rest/api/3/myself`, { headers: { authorization: basic('viewer@acme.test', TRACKER_TOKEN) } });
    await res.text();
    return { status: res.status, ms: performance.now() - began };
  };
  const idle = [];
  for (let i = 0; i < 5; i++) idle.push(await myself());
  const began = performance.now();
  const views = Array.from({ length: 60 }, () =>
    fetch(`${url}/acme/app/pull/1`, { headers: { authorization: basic('x', READER) } }).then(async (r) => {
      await r.arrayBuffer();
      return r.status;
    }),
  );
  await sleep(100);
  const during = [];
  for (let i = 0; i < 5; i++) {
    during.push(await myself());
    await sleep(200);
  }
  const statuses = await Promise.all(views);
  const wall = Math.round(performance.now() - began);
  const tally = Object.entries(statuses.reduce((a, s) => ({ ...a, [s]: (a[s] ?? 0) + 1 }), {}))
    .map(([s, n]) => `${s}×${n}`)
    .join(' ');
  const show = (runs) =>
    `${runs.filter((r) => r.status === 200).length}/5 ok, median ${median(runs.map((r) => r.ms)).toFixed(1)} ms, max ${Math.max(...runs.map((r) => r.ms)).toFixed(1)} ms`;
  console.log(`| pages | tracker's GET /myself, idle | ${show(idle)} |`);
  console.log(
    `| pages | tracker's GET /myself, 60 concurrent review-page views by the reader | ${show(during)}; the views: ${tally}, all done in ${wall} ms |`,
  );
}

const t = await start();
try {
  await prepare(t.url);
  console.log(`\n${BIN}\n\n| probe | what | result |\n|---|---|---|`);
  if (ONLY.has('readers')) await readers(t.url);
  if (ONLY.has('pages')) await pages(t.url);
  if (ONLY.has('stalled')) await stalled(t.url, t.proc.pid);
} finally {
  t.proc.removeAllListeners('exit');
  t.proc.kill('SIGTERM');
  await new Promise((r) => t.proc.once('close', r));
  rmSync(tmp, { recursive: true, force: true });
}
