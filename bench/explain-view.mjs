// EXPLAIN (ANALYZE, BUFFERS) of the uncached GET /issue statement on PostgreSQL (one round trip:
// the issue, its project and role, its first comments and their total, its sub-tasks and parent),
// over the bench's dataset in a database of its own. Run from the root after a build:
//   N=20000 node bench/explain-view.mjs        (N issues; BENCH_DATABASE_URL: the admin URL)
// Prints the statement as the driver sent it and its plan after six runs of the prepared statement.
import pg from 'pg';
import { createTempDatabase } from '../scripts/lib/local-services.mjs';
import { authHeader, CALLER, CLOUD_ID, HOST } from './lib/dataset.mjs';
import { loadDataset } from './lib/load-data.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
const ISSUES = Number(process.env.N ?? 20000);
const KEY = process.env.KEY ?? 'PA-7';
const db = await createTempDatabase(process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres', 'jst_explain');
try {
  await loadDataset({ trackerDir: `${ROOT}packages/tracker`, databaseUrl: db.url, issues: ISSUES });
  const { startServer } = await import(`${ROOT}packages/tracker/dist/index.js`);
  const seen = [];
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (config, values, cb) {
    const text = typeof config === 'string' ? config : config?.text;
    if (typeof text === 'string' && text.includes('p_subtasks')) seen.push({ text, values: typeof config === 'string' ? values : config.values });
    return query.call(this, config, values, cb);
  };
  const server = await startServer({ databaseUrl: db.url, port: 0, host: '127.0.0.1', readCacheBytes: 0, logLevel: 'warn' });
  const url = `http://127.0.0.1:${server.app.server.address().port}/ex/jira/${CLOUD_ID}/rest/api/3/issue/${KEY}?fields=summary,description,issuetype,status,parent,subtasks,comment`;
  const res = await fetch(url, { headers: { authorization: authHeader(CALLER), host: HOST } });
  pg.Client.prototype.query = query;
  if (res.status !== 200 || seen.length === 0) throw new Error(`GET ${KEY}: ${res.status}, ${seen.length} view statements seen`);
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  const { text, values } = seen[0];
  const args = values.map((v) => (typeof v === 'string' ? `'${v.replace(/'/g, "''")}'` : String(v))).join(', ');
  await client.query(`prepare view as ${text}`);
  for (let i = 0; i < 6; i++) await client.query(`execute view(${args})`);
  const plan = await client.query(`explain (analyze, buffers, costs off) execute view(${args})`);
  console.log(`${text}\n-- parameters: ${args}\n`);
  console.log(plan.rows.map((r) => r['QUERY PLAN']).join('\n'));
  await client.end();
  await server.close();
} finally {
  await db.drop();
}
process.exit(0);
