// Times one `issue_view` tool call over one `jst mcp --role executor` session (the SDK's own Client over
// stdio) against the embedded tracker (SQLite), next to one `jst issue view KEY --json` process per call.
// Run: npm run build && node bench/mcp.mjs   (CALLS=500, SPAWNS=10 by default)
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { parseSeed, startServer } from '../packages/tracker/dist/index.js';

const CALLS = Number(process.env.CALLS ?? 500);
const SPAWNS = Number(process.env.SPAWNS ?? 10);
const root = fileURLToPath(new URL('..', import.meta.url));
const jst = process.env.JST_BIN ?? join(root, 'packages/jst/bin/jst.cjs'); // JST_BIN: another build's, for a before/after
const base = mkdtempSync(join(tmpdir(), 'jst-mcp-bench-'));
const email = 'e@bench.test';
const token = 'bench-token';
// The other roles' accounts (the executor's session finds them by e-mail, as it does on a real site).
const others = { ASSIGNER: { email: 'a@bench.test', token: 'bench-token-a' }, REVIEWER: { email: 'r@bench.test', token: 'bench-token-r' } };
const server = await startServer({
  port: 0,
  dataDir: join(base, 'data'),
  seed: parseSeed({
    sites: [
      {
        host: 'bench.atlassian.net',
        users: [{ email, tokens: [{ token }] }, ...Object.values(others).map((u) => ({ email: u.email, tokens: [{ token: u.token }] }))],
        projects: [
          { key: 'BEN', name: 'Bench', members: [{ email, role: 'admin' }, ...Object.values(others).map((u) => ({ email: u.email, role: 'member' }))] },
        ],
      },
    ],
  }),
});

const auth = `Basic ${Buffer.from(`${email}:${token}`).toString('base64')}`;
const created = await fetch(`${server.url}/rest/api/3/issue`, {
  method: 'POST',
  headers: { Authorization: auth, 'Content-Type': 'application/json' },
  body: JSON.stringify({ fields: { project: { key: 'BEN' }, issuetype: { name: 'Task' }, summary: 'Bench issue' } }),
});
const { key } = await created.json();
// ARCHITECTURE §13's sizing case: a one-page description and five comments, read with issue_view's defaults.
const page = Array.from({ length: 40 }, (_, i) => `Line ${i + 1} of the description: the export must keep the order of the visible rows.`);
const long = await fetch(`${server.url}/rest/api/3/issue`, {
  method: 'POST',
  headers: { Authorization: auth, 'Content-Type': 'application/json' },
  body: JSON.stringify({
    fields: {
      project: { key: 'BEN' },
      issuetype: { name: 'Task' },
      summary: 'A one-page issue',
      description: { type: 'doc', version: 1, content: page.map((text) => ({ type: 'paragraph', content: [{ type: 'text', text }] })) },
    },
  }),
});
const { key: longKey } = await long.json();
for (let i = 1; i <= 5; i++) {
  await fetch(`${server.url}/rest/api/3/issue/${longKey}/comment`, {
    method: 'POST',
    headers: { Authorization: auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      body: {
        type: 'doc',
        version: 1,
        content: [{ type: 'paragraph', content: [{ type: 'text', text: `Comment ${i}: ${'a thought about the export, '.repeat(12)}` }] }],
      },
    }),
  });
}
// A parent with two sub-tasks and the markers a plan and a review leave on it, each from its role's
// account: issue_view resolves whose they are (ARCHITECTURE §11) before it lists them.
const as = (u) => `Basic ${Buffer.from(`${u.email}:${u.token}`).toString('base64')}`;
const doc = (text) => ({ type: 'doc', version: 1, content: text.split('\n').map((t) => ({ type: 'paragraph', content: [{ type: 'text', text: t }] })) });
const post = async (who, path, body) => {
  const r = await fetch(`${server.url}/rest/api/3${path}`, {
    method: 'POST',
    headers: { Authorization: as(who), 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (r.status !== 201) throw new Error(`POST ${path}: ${r.status} ${await r.text()}`);
  return r.json();
};
const me = { email, token };
const { key: parentKey } = await post(others.ASSIGNER, '/issue', {
  fields: { project: { key: 'BEN' }, issuetype: { name: 'Task' }, summary: 'A planned parent' },
});
for (const n of [1, 2])
  await post(others.ASSIGNER, '/issue', {
    fields: { project: { key: 'BEN' }, issuetype: { name: 'Subtask' }, parent: { key: parentKey }, summary: `Step ${n}` },
  });
await post(others.ASSIGNER, `/issue/${parentKey}/comment`, { body: doc(`PR target branch: development Worktree: ${base}/parent`) });
await post(others.ASSIGNER, `/issue/${parentKey}/comment`, { body: doc('Assignment report\nTwo sub-tasks, one branch each.') });
await post(me, `/issue/${parentKey}/comment`, { body: doc('Task memory\nThe export keeps the visible order.') });
await post(me, `/issue/${parentKey}/comment`, { body: doc('Run report\nPull request: http://example.test/pull/1') });
await post(others.REVIEWER, `/issue/${parentKey}/comment`, { body: doc('Review tally\n2 of 2 sub-tasks approved') });
await post(others.REVIEWER, `/issue/${parentKey}/comment`, { body: doc('APPROVED — ships') });
const { cloudId } = await (await fetch(`${server.url}/_edge/tenant_info`)).json();

// A repository, as where an agent runs jst mcp (the server looks for .jst/ up to its root).
const dir = join(base, 'checkout');
mkdirSync(join(dir, '.jst'), { recursive: true });
await promisify(execFile)('git', ['init', '--quiet', dir]);
writeFileSync(join(dir, '.jst', 'team.env'), 'DEFAULT_BASE_BRANCH=development\nPRODUCTION_BRANCH=main\nPROJECT_KEY=BEN\n');
writeFileSync(
  join(dir, '.jst', 'local.env'),
  [
    `WORKTREES_DIR=${base}`,
    `TRACKER_ACCOUNT_URL=${new URL(server.url).host}`,
    `TRACKER_GATEWAY_URL=${server.url}`,
    `TRACKER_EXECUTOR_EMAIL=${email}`,
    `TRACKER_EXECUTOR_TOKEN=${token}`,
    ...Object.entries(others).flatMap(([r, u]) => [`TRACKER_${r}_EMAIL=${u.email}`, `TRACKER_${r}_TOKEN=${u.token}`]),
  ].join('\n') + '\n',
  { mode: 0o600 },
);

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * p))];
};

const client = new Client({ name: 'bench', version: '1.0.0' });
const started = process.hrtime.bigint();
await client.connect(
  new StdioClientTransport({
    command: process.execPath,
    args: [...(process.env.MCP_PROF ? ['--cpu-prof', '--cpu-prof-dir=' + process.env.MCP_PROF] : []), jst, 'mcp', '--role', 'executor'],
    cwd: dir,
    env: { ...process.env, NO_COLOR: '1' },
    stderr: 'ignore',
  }),
);
const startMs = Number(process.hrtime.bigint() - started) / 1e6;
const call = () => client.callTool({ name: 'issue_view', arguments: { key, fields: 'summary,status' } });
for (let i = 0; i < 50; i++) await call(); // warm: JIT, the pooled connection, the cloudId cache
const times = [];
for (let i = 0; i < CALLS; i++) {
  const t0 = process.hrtime.bigint();
  const r = await call();
  times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  if (r.isError) throw new Error(r.content[0].text);
}
// The default issue_view (short text + small object) of the one-page issue, and the raw one for comparison.
const size = (r) => Buffer.byteLength(r.content[0].text) + Buffer.byteLength(JSON.stringify(r.structuredContent ?? {}));
const viewDefault = () => client.callTool({ name: 'issue_view', arguments: { key: longKey } });
for (let i = 0; i < 50; i++) await viewDefault();
const defaults = [];
let defaultBytes = 0;
for (let i = 0; i < CALLS; i++) {
  const t0 = process.hrtime.bigint();
  const r = await viewDefault();
  defaults.push(Number(process.hrtime.bigint() - t0) / 1e6);
  if (r.isError) throw new Error(r.content[0].text);
  defaultBytes = size(r);
}
const rawBytes = size(await client.callTool({ name: 'issue_view', arguments: { key: longKey, raw: true } }));
// The default issue_view of the parent with markers from each role.
const viewParent = () => client.callTool({ name: 'issue_view', arguments: { key: parentKey } });
const first = await viewParent();
const listed = first.structuredContent?.markers?.length ?? 0;
if (first.isError || listed !== 6) throw new Error(`the parent's issue_view listed ${listed} markers, not 6: ${first.content[0].text}`);
for (let i = 0; i < 50; i++) await viewParent();
const parents = [];
for (let i = 0; i < CALLS; i++) {
  const t0 = process.hrtime.bigint();
  const r = await viewParent();
  parents.push(Number(process.hrtime.bigint() - t0) / 1e6);
  if (r.isError) throw new Error(r.content[0].text);
}
const pings = [];
for (let i = 0; i < CALLS; i++) {
  const t0 = process.hrtime.bigint();
  await client.ping();
  pings.push(Number(process.hrtime.bigint() - t0) / 1e6);
}
await client.close();
const gets = [];
for (let i = 0; i < CALLS; i++) {
  const t0 = process.hrtime.bigint();
  await (await fetch(`${server.url}/ex/jira/${cloudId}/rest/api/3/issue/${key}?fields=summary,status`, { headers: { Authorization: auth } })).json();
  gets.push(Number(process.hrtime.bigint() - t0) / 1e6);
}

const spawns = [];
for (let i = 0; i < SPAWNS; i++) {
  const t0 = process.hrtime.bigint();
  // Asynchronous: the tracker answers from this same process.
  await promisify(execFile)(process.execPath, [jst, '--role', 'executor', 'issue', 'view', key, '--fields', 'summary,status', '--json'], { cwd: dir });
  spawns.push(Number(process.hrtime.bigint() - t0) / 1e6);
}
await server.close();
rmSync(base, { recursive: true, force: true });

const f = (x) => x.toFixed(2);
console.log(`node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'})`);
console.log(
  `issue_view over one jst mcp session: median ${f(median(times))} ms, p90 ${f(pct(times, 0.9))} ms, p99 ${f(pct(times, 0.99))} ms (${CALLS} calls after 50 warm-up)`,
);
console.log(
  `default issue_view of a one-page issue with five comments: median ${f(median(defaults))} ms, p90 ${f(pct(defaults, 0.9))} ms; ${defaultBytes} bytes (text + structured; raw: true ${rawBytes} bytes)`,
);
console.log(
  `default issue_view of a parent with 2 sub-tasks and 6 markers from the three roles' accounts: median ${f(median(parents))} ms, p90 ${f(pct(parents, 0.9))} ms`,
);
console.log(
  `  of which: the stdio round trip alone (ping) median ${f(median(pings))} ms; the tracker's GET /issue alone (fetch, this process) median ${f(median(gets))} ms`,
);
console.log(`session start (spawn jst mcp → initialize answered): ${f(startMs)} ms`);
console.log(`jst issue view --json, one process per call: median ${f(median(spawns))} ms (${SPAWNS} runs)`);
