// `npm run bench:board`: what jst-tracker's board costs the server (ARCHITECTURE §12; target: the
// first render of a 200-issue project under 100 ms of server time). A fresh SQLite tracker with
// one project of 200 issues (40 parents with 4 sub-tasks each, spread over the four columns);
// then, over HTTP on loopback:
//   * the first render after start (cold: nothing prepared, nothing cached),
//   * N more renders of the board, of an issue page, and of the poll (304),
// each as the server's own time (its Server-Timing header) and as the client's wall time; and
// in-process, the board's read (domain) and its HTML (http) timed apart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseSeed, startServer } from '../packages/tracker/dist/index.js';
import { loadBoard } from '../packages/tracker/dist/domain/board.js';
import { boardPage } from '../packages/tracker/dist/http/board/board-view.js';

const N = Number(process.env.N ?? 50);
const EMAIL = 'bench@bench.test';
const TOKEN = 'bench-token-board';
const AUTH = `Basic ${Buffer.from(`${EMAIL}:${TOKEN}`).toString('base64')}`;

const dir = mkdtempSync(join(tmpdir(), 'jst-bench-board-'));
const seed = parseSeed(
  {
    sites: [
      {
        host: 'bench.atlassian.net',
        users: [{ email: EMAIL, displayName: 'Bench Admin', tokens: [{ token: TOKEN }] }],
        projects: [{ key: 'BIG', name: 'Two hundred issues', lead: EMAIL, workflow: 'kanban', members: [{ email: EMAIL, role: 'admin' }] }],
      },
    ],
  },
  'bench seed',
);
const server = await startServer({ port: 0, dataDir: join(dir, 'data'), seed });

const api = async (method, path, body) => {
  const res = await fetch(`${server.url}/rest/api/3${path}`, {
    method,
    headers: { Authorization: AUTH, 'Content-Type': 'application/json', Accept: 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.status === 204 ? undefined : res.json();
};

async function timed(path, headers = {}) {
  const t0 = performance.now();
  const res = await fetch(`${server.url}${path}`, { headers: { Authorization: AUTH, ...headers } });
  await res.arrayBuffer();
  const wall = performance.now() - t0;
  const app = Number(/app;dur=([\d.]+)/.exec(res.headers.get('server-timing') ?? '')?.[1]);
  return { status: res.status, wall, app, etag: res.headers.get('etag') };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];
const ms = (x) => `${x.toFixed(1)} ms`;

try {
  process.stderr.write('• creating 200 issues (40 parents × 4 sub-tasks) over the REST interface\n');
  const me = await api('GET', '/myself');
  let made = 0;
  for (let p = 0; p < 40; p++) {
    const parent = (
      await api('POST', '/issue', {
        fields: {
          project: { key: 'BIG' },
          issuetype: { name: 'Task' },
          summary: `Parent ${p}: a task with a summary of ordinary length`,
          assignee: { accountId: me.accountId },
        },
      })
    ).key;
    made++;
    for (let s = 0; s < 4; s++) {
      const key = (
        await api('POST', '/issue', {
          fields: {
            project: { key: 'BIG' },
            issuetype: { name: 'Subtask' },
            parent: { key: parent },
            summary: `Sub-task ${s} of ${p} <with markup & "quotes">`,
          },
        })
      ).key;
      made++;
      const to = made % 4;
      if (to > 0) {
        const list = (await api('GET', `/issue/${key}/transitions`)).transitions;
        await api('POST', `/issue/${key}/transitions`, {
          transition: { id: list.find((t) => t.to.name === ['To Do', 'In Progress', 'In Review', 'Done'][to]).id },
        });
      }
    }
  }

  // A fresh process's first board: restart the tracker over the same data.
  await server.close();
  const cold = await startServer({ port: 0, dataDir: join(dir, 'data') });
  Object.assign(server, { url: cold.url, close: cold.close });
  const first = await timed('/?project=BIG');
  if (first.status !== 200) throw new Error(`the board answered ${first.status}`);

  const rounds = async (path, headers) => {
    const r = [];
    for (let i = 0; i < N; i++) r.push(await timed(path, headers));
    return r;
  };
  const board = await rounds('/?project=BIG');
  const issue = await rounds('/browse/BIG-1');
  const etag = board.at(-1).etag ?? (await timed('/_board/version/BIG')).etag;
  const poll = await rounds('/_board/version/BIG', { 'If-None-Match': etag ?? '' });
  if (poll.some((r) => r.status !== 304)) throw new Error('the poll did not answer 304');

  // In process: the board's read and its HTML, timed apart.
  const site = (await cold.store.sites.list())[0];
  const user = await cold.store.users.byEmail(site.id, EMAIL);
  const caller = { site, user, baseUrl: cold.url };
  const reads = [];
  const renders = [];
  let model;
  for (let i = 0; i < N; i++) {
    const t0 = performance.now();
    model = await loadBoard(cold.tracker, caller, { projectKey: 'BIG' });
    const t1 = performance.now();
    const page = boardPage(model, user);
    renders.push(performance.now() - t1);
    reads.push(t1 - t0);
    if (!page.includes('BIG-200')) throw new Error('the board lacks BIG-200');
  }
  const cards = model.lanes.reduce((n, l) => n + [...l.cells.values()].reduce((m, c) => m + c.length, 0), 0);

  const row = (name, rs) => `| ${name} | ${ms(median(rs.map((r) => r.app)))} | ${ms(p95(rs.map((r) => r.app)))} | ${ms(median(rs.map((r) => r.wall)))} |`;
  process.stdout.write(
    [
      `Board of a ${cards}-issue project (SQLite, ${N} rounds each, one client on loopback, Node ${process.version}):`,
      '',
      '| request | server time median (Server-Timing) | p95 | client wall median |',
      '|---|---|---|---|',
      `| first render after start (cold) | ${ms(first.app)} | — | ${ms(first.wall)} |`,
      row('GET / (board, warm)', board),
      row('GET /browse/BIG-1 (issue page)', issue),
      row('GET /_board/version/BIG → 304 (the poll)', poll),
      '',
      `In process (no HTTP): read ${ms(median(reads))} median (loadBoard: search, statuses, people, sub-task progress), HTML ${ms(median(renders))} median (boardPage).`,
      '',
    ].join('\n'),
  );
} finally {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
