// Calibration: the least work any faithful `GET /issue/{key}` and `POST /issue` can do, on a copy of
// the tracker's own SQLite file (the bench dataset, same schema and indexes), to show what the
// `GET /issue ≥ 60 %` and `POST /issue ≥ 30 %` targets allow. Bare node:http
// (no framework), authentication by one Map lookup of the Authorization header (verified at start,
// not per request), one joined statement (issue + project + the caller's role) and one for the
// comments, both compiled once and run synchronously, and a JSON body that splices the stored ADF
// text in without parsing it. No sub-tasks, status, issue type or user lookups, no field selection,
// no `self` links, no error shapes, no logging: everything here is a strict subset of the tracker's
// work for the executor's read, so its ratio is an upper bound on what the tracker can reach.
// The create: JSON.parse of the body, the project and the caller's role in one statement, then one
// transaction that advances the project's key counter and inserts the row (the tracker's seven
// indexes on issues maintained by SQLite); no validation of the body beyond what the insert needs,
// no ADF check, no assignee, no reply beyond {id, key}.
// With a fifth argument `group`, creates that arrive in one turn of the event loop are committed
// together at its end (each in a savepoint of its own, answered after the commit): a group commit,
// the floor of what batching can do.
// Usage: node floor-read.mjs SQLITE_FILE AUTH_HEADER CALLER_EMAIL SITE_HOST [group] (the file is copied
// first: the creates must not change the dataset the tracker is measured on)
import { copyFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import Database from 'better-sqlite3';

const [source, authHeader, email, host, mode] = process.argv.slice(2);
const GROUP = mode === 'group';
const file = `${source}.floor-copy${GROUP ? '-group' : ''}`;
copyFileSync(source, file);
const db = new Database(file, { fileMustExist: true });
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
const site = db.prepare('select id from sites where host = ?').get(host);
const caller = db.prepare('select id from users where site_id = ? and email = ?').get(site.id, email);
const users = new Map([[authHeader, caller.id]]);
const byKey = db.prepare(`select i.id, i.key, i.summary, i.description, i.issue_type, i.created_at, i.updated_at, m.role
  from issues i join projects p on p.id = i.project_id
  left join members m on m.project_id = p.id and m.user_id = ?
  where p.site_id = ? and p.key = ? and i.number = ?`);
const commentsOf = db.prepare('select id, author_id, body, created_at from comments where issue_id = ? order by id');
const projectOf = db.prepare(
  'select p.id, m.role from projects p left join members m on m.project_id = p.id and m.user_id = ? where p.site_id = ? and p.key = ?',
);
const todo = db.prepare("select id from statuses where site_id = ? and name = 'To Do'").get(site.id).id;
const nextNumber = db.prepare('update projects set issue_counter = issue_counter + 1 where id = ? returning issue_counter');
const insert =
  db.prepare(`insert into issues (project_id, number, key, issue_type, summary, description, status_id, reporter_id, creator_id, created_at, updated_at, version)
  values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1)`);
const create = db.transaction((project, key, fields, user) => {
  const number = nextNumber.get(project.id).issue_counter;
  const now = new Date().toISOString();
  const { lastInsertRowid } = insert.run(
    project.id,
    number,
    `${key}-${number}`,
    fields.issuetype.name,
    fields.summary,
    fields.description === undefined ? null : JSON.stringify(fields.description),
    todo,
    user,
    user,
    now,
    now,
  );
  return { id: String(lastInsertRowid), key: `${key}-${number}` };
});

let pending = [];
const createAll = db.transaction((batch) =>
  batch.map((c) => {
    try {
      return create(c.project, c.key, c.fields, c.user);
    } catch (e) {
      return e;
    }
  }),
);
function flush() {
  const batch = pending;
  pending = [];
  const created = createAll(batch);
  batch.forEach((c, i) =>
    created[i] instanceof Error ? send(c.res, 500, '{"errorMessages":["failed"],"errors":{}}') : send(c.res, 201, JSON.stringify(created[i])),
  );
}

const send = (res, status, body) => {
  res.writeHead(status, { 'content-type': 'application/json;charset=UTF-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
};
const server = createServer((req, res) => {
  const user = users.get(req.headers.authorization);
  if (user === undefined) {
    req.resume();
    return send(res, 401, '{"errorMessages":["unauthorized"],"errors":{}}');
  }
  if (req.method === 'POST') {
    let body = '';
    req
      .setEncoding('utf8')
      .on('data', (c) => {
        body += c;
      })
      .on('end', () => {
        const { fields } = JSON.parse(body);
        const project = projectOf.get(user, site.id, fields.project.key);
        if (!project || project.role === null) return send(res, 404, '{"errorMessages":["not found"],"errors":{}}');
        if (!GROUP) return send(res, 201, JSON.stringify(create(project, fields.project.key, fields, user)));
        pending.push({ res, project, key: fields.project.key, fields, user });
        if (pending.length === 1) setImmediate(flush);
      });
    return;
  }
  req.resume();
  const m = /\/issue\/([A-Z]+)-(\d+)/.exec(req.url);
  const row = m && byKey.get(user, site.id, m[1], Number(m[2]));
  if (!row || row.role === null) return send(res, 404, '{"errorMessages":["not found"],"errors":{}}');
  const comments = commentsOf.all(row.id).map((c) => `{"id":"${c.id}","author":${c.author_id},"body":${c.body},"created":"${c.created_at}"}`);
  send(
    res,
    200,
    `{"id":"${row.id}","key":"${row.key}","fields":{"summary":${JSON.stringify(row.summary)},"issuetype":"${row.issue_type}",` +
      `"description":${row.description ?? 'null'},"created":"${row.created_at}","updated":"${row.updated_at}","comment":{"comments":[${comments.join(',')}]}}}`,
  );
});
server.keepAliveTimeout = 72_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`floor ${GROUP ? 'group ' : ''}read listening on http://127.0.0.1:${server.address().port}\n`));
process.on('SIGTERM', () =>
  server.close(() => {
    db.close();
    for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
    process.exit(0);
  }),
);
