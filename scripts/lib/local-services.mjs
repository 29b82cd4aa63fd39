// Local services for the test and benchmark scripts and the test suite: a PostgreSQL database of
// one's own, a free loopback port, and server processes started and stopped. Plain JavaScript so that node runs the scripts as they are;
// the test suite imports it through local-services.d.mts.
import { spawn } from 'node:child_process';
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
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/**
 * Starts a server process and waits for its ready line. `ready` resolves with the match of
 * `readyLine` in what it printed (stdout); it rejects, naming the process and quoting all it
 * printed, when the process exits first or does not get there within `timeoutMs` (it is then
 * killed). `output` keeps everything printed on stdout and stderr; `exited` settles on exit.
 */
export function spawnUntilReady(command, args, readyLine, { name = command, cwd, env, timeoutMs = 30_000 } = {}) {
  const proc = spawn(command, args, { cwd, env: env ? { ...process.env, ...env } : process.env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = [];
  const exited = new Promise((resolve) => proc.once('exit', () => resolve()));
  const ready = new Promise((resolve, reject) => {
    let started = false;
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`${name} did not start within ${timeoutMs / 1000} s:\n${output.join('')}`));
    }, timeoutMs);
    proc.stderr.on('data', (d) => output.push(String(d)));
    proc.stdout.on('data', (d) => {
      output.push(String(d));
      const match = started ? null : readyLine.exec(output.join(''));
      if (match) {
        started = true;
        clearTimeout(timer);
        resolve(match);
      }
    });
    proc.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (!started) reject(new Error(`${name} exited (${code ?? signal}) before it was ready:\n${output.join('')}`));
    });
  });
  return { proc, output, exited, ready };
}

/** SIGTERM, then SIGKILL if the process still runs after `graceMs`; resolves when it has exited. */
export function stopProcess(proc, graceMs = 5_000) {
  return new Promise((resolve) => {
    if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
    const kill = setTimeout(() => proc.kill('SIGKILL'), graceMs);
    proc.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    proc.kill('SIGTERM');
  });
}
