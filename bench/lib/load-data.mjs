// Bulk loader: the schema and the seed go through the tracker's own store (migrations, applySeed),
// the 100,000 issues and their comments through plain SQL in large batches (one transaction on
// SQLite, unnest() batches on PostgreSQL), then the project counters are moved past the loaded keys.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { benchSeed, generate, HOST, PROJECTS, userEmail } from './dataset.mjs';

const ISSUE_COLUMNS = [
  'id',
  'project_id',
  'number',
  'key',
  'issue_type',
  'summary',
  'description',
  'status_id',
  'parent_id',
  'assignee_id',
  'reporter_id',
  'creator_id',
  'created_at',
  'updated_at',
  'version',
];
const COMMENT_COLUMNS = ['id', 'issue_id', 'author_id', 'body', 'created_at', 'updated_at'];
const PG_TYPES = {
  id: 'int',
  project_id: 'int',
  number: 'int',
  key: 'text',
  issue_type: 'text',
  summary: 'text',
  description: 'text',
  status_id: 'int',
  parent_id: 'int',
  assignee_id: 'int',
  reporter_id: 'int',
  creator_id: 'int',
  created_at: 'text',
  updated_at: 'text',
  version: 'int',
  issue_id: 'int',
  author_id: 'int',
  body: 'text',
};

/**
 * Creates the schema and seed through the store of the tracker being measured (`trackerDir`, whose
 * dist/ has been built) and returns the row ids the generator needs.
 */
async function prepare(trackerDir, dbOptions) {
  const { applySeed, openDb, parseSeed, Store } = await import(pathToFileURL(join(trackerDir, 'dist/index.js')).href);
  const store = new Store(openDb(dbOptions));
  try {
    await store.migrate();
    await applySeed(store, parseSeed(benchSeed()));
    // The ids are read with plain queries, not the store's own reads, so that any build's store loads the data.
    const k = store.kysely;
    const site = await k.selectFrom('sites').select('id').where('host', '=', HOST).executeTakeFirstOrThrow();
    const byEmail = new Map((await k.selectFrom('users').select(['id', 'email']).where('site_id', '=', site.id).execute()).map((u) => [u.email, u.id]));
    const users = [];
    for (let i = 0; byEmail.has(userEmail(i).toLowerCase()); i++) users.push(byEmail.get(userEmail(i).toLowerCase()));
    const statuses = await k.selectFrom('statuses').select(['id', 'name']).where('site_id', '=', site.id).execute();
    const statusIds = Object.fromEntries(statuses.map((s) => [s.name, s.id]));
    const projects = await k.selectFrom('projects').select(['id', 'key']).where('site_id', '=', site.id).where('key', 'in', PROJECTS).execute();
    const projectIds = Object.fromEntries(projects.map((p) => [p.key, p.id]));
    return { userIds: users, statusIds, projectIds };
  } finally {
    await store.close();
  }
}

/** Loads the dataset; returns { issues, comments, seconds }. The store must be empty of issues. */
export async function loadDataset({ trackerDir, dataDir, databaseUrl, issues }) {
  const t0 = performance.now();
  const ids = await prepare(trackerDir, { dataDir, databaseUrl });
  const rows = generate({ issues, ...ids });
  const counts = databaseUrl ? await loadPostgres(databaseUrl, rows) : loadSqlite(join(dataDir, 'tracker.sqlite'), rows);
  return { ...counts, seconds: (performance.now() - t0) / 1000 };
}

function loadSqlite(file, rows) {
  const db = new BetterSqlite3(file);
  db.pragma('journal_mode = WAL');
  const insertIssue = db.prepare(`insert into issues (${ISSUE_COLUMNS.join(', ')}) values (${ISSUE_COLUMNS.map((c) => `@${c}`).join(', ')})`);
  const insertComment = db.prepare(`insert into comments (${COMMENT_COLUMNS.join(', ')}) values (${COMMENT_COLUMNS.map((c) => `@${c}`).join(', ')})`);
  let issues = 0;
  let comments = 0;
  db.transaction(() => {
    for (const { issue, comments: list } of rows) {
      insertIssue.run(issue);
      issues++;
      for (const c of list) {
        insertComment.run(c);
        comments++;
      }
    }
    db.prepare('update projects set issue_counter = (select coalesce(max(number), 0) from issues where issues.project_id = projects.id)').run();
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return { issues, comments };
}

async function loadPostgres(url, rows) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const insert = (table, columns, batch) =>
    client.query(
      `insert into ${table} (${columns.join(', ')}) select * from unnest(${columns.map((c, i) => `$${i + 1}::${PG_TYPES[c]}[]`).join(', ')})`,
      columns.map((c) => batch.map((r) => r[c])),
    );
  let issues = 0;
  let comments = 0;
  try {
    await client.query('begin');
    let issueBatch = [];
    let commentBatch = [];
    for (const { issue, comments: list } of rows) {
      issueBatch.push(issue);
      commentBatch.push(...list);
      if (issueBatch.length === 5000) {
        await insert('issues', ISSUE_COLUMNS, issueBatch);
        await insert('comments', COMMENT_COLUMNS, commentBatch);
        issues += issueBatch.length;
        comments += commentBatch.length;
        issueBatch = [];
        commentBatch = [];
      }
    }
    if (issueBatch.length > 0) {
      await insert('issues', ISSUE_COLUMNS, issueBatch);
      if (commentBatch.length > 0) await insert('comments', COMMENT_COLUMNS, commentBatch);
      issues += issueBatch.length;
      comments += commentBatch.length;
    }
    await client.query('update projects set issue_counter = (select coalesce(max(number), 0) from issues where issues.project_id = projects.id)');
    // Rows were loaded with explicit ids: move the sequences past them, as the tracker's inserts expect.
    await client.query(`select setval(pg_get_serial_sequence('issues', 'id'), (select max(id) from issues))`);
    await client.query(`select setval(pg_get_serial_sequence('comments', 'id'), greatest(1, (select coalesce(max(id), 0) from comments)))`);
    await client.query('commit');
    // What autovacuum would do on its own within a minute of a load this size.
    await client.query('vacuum analyze');
  } finally {
    await client.end();
  }
  return { issues, comments };
}
