// Calibration: what a straightforward Fastify + better-sqlite3 service reaches on this machine,
// the yardstick the targets were set against ("a naive SQLite read route about 50% of bare
// node:http, a naive insert route about 25%"). GET /items/:key reads one row by a unique key,
// POST /items inserts one; no authentication, no permission check, no framework tuning.
// Usage: node naive-sqlite.mjs DIR (a fresh folder; 100,000 rows are made at start).
import { join } from 'node:path';
import Database from 'better-sqlite3';
import Fastify from 'fastify';

const db = new Database(join(process.argv[2], 'naive.sqlite'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.exec(
  'create table if not exists items (id integer primary key, key text not null unique, summary text not null, description text, created_at text not null)',
);
const insert = db.prepare('insert into items (key, summary, description, created_at) values (?, ?, ?, ?)');
if (db.prepare('select count(*) as n from items').get().n === 0) {
  db.transaction(() => {
    for (let i = 1; i <= 100_000; i++) insert.run(`PA-${i}`, `Item ${i}`, `A description of item ${i}.`, new Date().toISOString());
  })();
}
const byKey = db.prepare('select * from items where key = ?');

const app = Fastify({ logger: false });
app.get('/items/:key', async (request, reply) => {
  const row = byKey.get(request.params.key);
  return row ?? reply.code(404).send({ error: 'not found' });
});
app.post('/items', async (request, reply) => {
  const { summary } = request.body;
  const { lastInsertRowid } = insert.run(`N-${Date.now()}-${Math.random()}`, summary, null, new Date().toISOString());
  return reply.code(201).send({ id: String(lastInsertRowid) });
});
await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`naive sqlite listening on http://127.0.0.1:${app.server.address().port}\n`);
process.on(
  'SIGTERM',
  () =>
    void app.close().then(() => {
      db.close();
      process.exit(0);
    }),
);
