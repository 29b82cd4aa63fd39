// Local services for the test and benchmark scripts and the test suite: a PostgreSQL database of
// one's own, and a free loopback port. Plain JavaScript so that node runs the scripts as they are;
// the test suite imports it through local-services.d.mts.
import { createServer } from 'node:net';
import pg from 'pg';

async function withClient(connectionString, work) {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Creates an empty database `<prefix>_…` on the server of `adminUrl`; `drop()` removes it, also
 * while connections to it are still open.
 */
export async function createTempDatabase(adminUrl, prefix) {
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  await withClient(adminUrl, (c) => c.query(`create database ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () => withClient(adminUrl, (c) => c.query(`drop database if exists ${name} with (force)`)).then(() => undefined),
  };
}

/** A loopback TCP port nothing listens on at this moment. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}
