#!/usr/bin/env node
// Issue 14's hostile probes against a jst-tracker binary, with status, time and peak RSS:
//   flood   a viewer posts 1 MB comments to one issue, then the issue is read with its comments
//   many    an issue with 5,000 small comments: GET issue (comment field), the comment list, a search
//   race    DELETE an issue while comments, sub-tasks, transitions, assignments and edits race it
//
//   node bench/probes.mjs [--tracker path/to/bin/jst-tracker.js] [--only flood,many,race]
//                         [--flood-count 100] [--rounds 20]
// Run it against this tree (default) and against another one (e.g. main built in /tmp) to compare.
// PostgreSQL (race over 4 processes) is used when reachable at JST_TEST_DATABASE_URL or
// postgres://postgres@127.0.0.1:5432/postgres.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createTempDatabase } from '../scripts/lib/local-services.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const { values } = parseArgs({
  options: {
    tracker: { type: 'string', default: join(ROOT, 'packages/tracker/bin/jst-tracker.js') },
    only: { type: 'string', default: 'flood,many,race' },
    'flood-count': { type: 'string', default: '100' },
    rounds: { type: 'string', default: '20' },
  },
});
const BIN = resolve(values.tracker);
const ADMIN_URL = process.env.JST_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const CLOUD_ID = '0b5e6a8c-1d2f-4e3a-9b7c-6d5e4f3a2b1c';
const PEOPLE = { assigner: 'admin', executor: 'member', viewer: 'viewer' };
const token = (who) => `probe-${who}-token-0001`;
const SEED = {
  sites: [
    {
      host: 'acme.atlassian.net',
      cloudId: CLOUD_ID,
      users: Object.keys(PEOPLE).map((who) => ({ email: `${who}@acme.test`, tokens: [{ token: token(who) }] })),
      projects: [
        { key: 'ABC', name: 'Alpha', workflow: 'kanban', members: Object.entries(PEOPLE).map(([who, role]) => ({ email: `${who}@acme.test`, role })) },
      ],
    },
  ],
};

const tmp = mkdtempSync(join(tmpdir(), 'jst-probes-'));
const seedFile = join(tmp, 'seed.json');
writeFileSync(seedFile, JSON.stringify(SEED));
const adf = (text) => ({ type: 'doc', version: 1, content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] });

/** Starts the tracker; resolves with its API base and pid once the ready line is out. */
function start(args) {
  return new Promise((resolveStart, reject) => {
    const proc = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    proc.stderr.on('data', (d) => {
      err += d;
    });
    proc.stdout.on('data', (d) => {
      out += d;
      const m = /jst-tracker listening on (http:\/\/\S+)/.exec(out);
      if (m) resolveStart({ proc, api: `${m[1]}/ex/jira/${CLOUD_ID}/rest/api/3`, stderr: () => err });
    });
    proc.on('exit', (code) => reject(new Error(`tracker exited ${code}: ${err.slice(-2000)}`)));
  });
}
const stop = async (t) => {
  t.proc.removeAllListeners('exit');
  t.proc.kill('SIGTERM');
  await new Promise((r) => t.proc.once('close', r));
};
/** Peak resident set of a process so far, in MB (Linux VmHWM). */
const peakMb = (t) => Math.round(Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${t.proc.pid}/status`, 'utf8'))[1]) / 1024);

async function call(api, who, method, path, body) {
  const began = performance.now();
  const res = await fetch(`${api}${path}`, {
    method,
    headers: {
      Accept: 'application/json',
      Authorization: `Basic ${Buffer.from(`${who}@acme.test:${token(who)}`).toString('base64')}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, ms: Math.round(performance.now() - began), bytes: text.length, json: () => JSON.parse(text), text };
}
async function pooled(n, limit, work) {
  const out = new Array(n);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, limit) }, async () => {
      while (next < n) {
        const i = next++;
        out[i] = await work(i);
      }
    }),
  );
  return out;
}
const tally = (statuses) =>
  Object.entries(statuses.reduce((a, s) => ({ ...a, [s]: (a[s] ?? 0) + 1 }), {}))
    .map(([s, n]) => `${s}×${n}`)
    .join(' ');
const newTask = (summary) => ({ fields: { project: { key: 'ABC' }, issuetype: { name: 'Task' }, summary } });
const row = (probe, what, r, extra = '') =>
  console.log(
    `${probe.padEnd(6)} ${what.padEnd(48)} ${String(r.status).padEnd(34)} ${String(r.ms).padStart(7)} ms ${String(r.mb ?? '').padStart(6)} MB peak ${extra}`,
  );

async function flood() {
  const t = await start(['--data', join(tmp, 'flood'), '--seed', seedFile]);
  try {
    const key = (await call(t.api, 'assigner', 'POST', '/issue', newTask('flooded'))).json().key;
    // A 1 MB comment: just under the 1 MiB body limit both trees had.
    const body = JSON.stringify({ body: adf('x'.repeat(1_000_000)) });
    const n = Number(values['flood-count']);
    const began = performance.now();
    const posts = await pooled(n, 4, () => call(t.api, 'viewer', 'POST', `/issue/${key}/comment`, body));
    row('flood', `${n} × POST 1 MB comment (viewer)`, { status: tally(posts.map((p) => p.status)), ms: Math.round(performance.now() - began), mb: peakMb(t) });
    for (const [what, path, method, payload] of [
      ['GET issue ?fields=comment', `/issue/${key}?fields=comment`, 'GET'],
      ['GET …/comment?maxResults=5000', `/issue/${key}/comment?maxResults=5000`, 'GET'],
      ['POST /search/jql fields=comment', '/search/jql', 'POST', { jql: 'project = ABC', fields: ['comment'] }],
    ]) {
      const r = await call(t.api, 'assigner', method, path, payload);
      row('flood', what, { ...r, mb: peakMb(t) }, `${(r.bytes / 1e6).toFixed(1)} MB reply`);
    }
    const other = await call(t.api, 'assigner', 'GET', '/myself');
    row('flood', 'an unrelated GET /myself afterwards', { ...other, mb: peakMb(t) });
  } finally {
    await stop(t);
  }
}

async function many() {
  const t = await start(['--data', join(tmp, 'many'), '--seed', seedFile]);
  try {
    const key = (await call(t.api, 'assigner', 'POST', '/issue', newTask('many comments'))).json().key;
    const began = performance.now();
    const posts = await pooled(5_001, 16, (i) => call(t.api, 'viewer', 'POST', `/issue/${key}/comment`, { body: adf(`comment number ${i}`) }));
    row('many', '5,001 × POST small comment', { status: tally(posts.map((p) => p.status)), ms: Math.round(performance.now() - began), mb: peakMb(t) });
    for (const [what, path, method, payload] of [
      ['GET issue ?fields=comment', `/issue/${key}?fields=comment`, 'GET'],
      ['GET …/comment?maxResults=5000', `/issue/${key}/comment?maxResults=5000`, 'GET'],
      ['POST /search/jql fields=comment', '/search/jql', 'POST', { jql: 'project = ABC', fields: ['comment'] }],
    ]) {
      const r = await call(t.api, 'assigner', method, path, payload);
      const count = r.status === 200 ? (r.json().fields?.comment ?? r.json().issues?.[0]?.fields.comment ?? r.json()).comments.length : '-';
      row('many', what, { ...r, mb: peakMb(t) }, `${count} comments, ${(r.bytes / 1e6).toFixed(2)} MB reply`);
    }
  } finally {
    await stop(t);
  }
}

async function raceOn(name, args, processes) {
  const first = await start([...args, '--seed', seedFile]);
  const trackers = [first, ...(await Promise.all(Array.from({ length: processes - 1 }, () => start(args))))];
  const at = (i) => trackers[i % trackers.length].api;
  try {
    const executor = (await call(at(0), 'executor', 'GET', '/myself')).json().accountId;
    const statuses = [];
    const began = performance.now();
    for (let round = 0; round < Number(values.rounds); round++) {
      const parent = (await call(at(round), 'assigner', 'POST', '/issue', newTask(`parent ${round}`))).json().key;
      const sub = { fields: { project: { key: 'ABC' }, issuetype: { name: 'Subtask' }, summary: 'child', parent: { key: parent } } };
      await call(at(round + 1), 'assigner', 'POST', '/issue', sub);
      const transition = (await call(at(round), 'executor', 'GET', `/issue/${parent}/transitions`))
        .json()
        .transitions.find((t) => t.to.name === 'In Progress').id;
      const jitter = () => new Promise((r) => setTimeout(r, Math.random() * 4));
      const answers = await Promise.all(
        [
          () => call(at(round), 'assigner', 'DELETE', `/issue/${parent}?deleteSubtasks=true`),
          () => call(at(round + 1), 'viewer', 'POST', `/issue/${parent}/comment`, { body: adf('racing') }),
          () => call(at(round + 2), 'executor', 'POST', '/issue', sub),
          () => call(at(round + 3), 'executor', 'POST', `/issue/${parent}/transitions`, { transition: { id: transition } }),
          () => call(at(round + 1), 'assigner', 'PUT', `/issue/${parent}/assignee`, { accountId: executor }),
          () => call(at(round + 2), 'executor', 'PUT', `/issue/${parent}`, { fields: { summary: 'edited' } }),
        ].map(async (send) => {
          await jitter();
          return send();
        }),
      );
      statuses.push(...answers.map((a) => a.status));
    }
    const mb = Math.max(...trackers.map(peakMb));
    row('race', `${name}: ${values.rounds} rounds × 6 requests`, { status: tally(statuses), ms: Math.round(performance.now() - began), mb });
  } finally {
    await Promise.all(trackers.map(stop));
  }
}

async function race() {
  await raceOn('SQLite ×2 processes', ['--data', join(tmp, 'race')], 2);
  const probe = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await probe.connect();
    await probe.end();
  } catch {
    console.log('race   PostgreSQL not reachable: skipped');
    return;
  }
  for (const processes of [1, 4]) {
    const db = await createTempDatabase(ADMIN_URL, 'jst_probe');
    try {
      await raceOn(`PostgreSQL ×${processes} processes`, ['--database-url', db.url], processes);
    } finally {
      await db.drop();
    }
  }
}

console.log(`tracker: ${BIN}`);
console.log(`${'probe'.padEnd(6)} ${'what'.padEnd(48)} ${'statuses'.padEnd(34)} ${'time'.padStart(10)} ${'RSS'.padStart(14)}`);
try {
  const only = values.only.split(',');
  if (only.includes('flood')) await flood();
  if (only.includes('many')) await many();
  if (only.includes('race')) await race();
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
