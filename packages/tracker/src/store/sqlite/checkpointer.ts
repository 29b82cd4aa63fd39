import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * SQLite's WAL checkpoints, run on a thread of their own.
 *
 * A commit in WAL mode appends the changed pages to the -wal file; a checkpoint copies them back
 * into the database file and syncs it. Left to SQLite, the commit that crosses 1,000 pages of WAL
 * runs the whole checkpoint itself, on the request thread: measured on 100,000 issues, creates cost
 * ~200 µs of SQLite time each with those checkpoints and ~115 µs without, and every few dozen
 * creates one request waits for a whole checkpoint and its fsync (POST /issue p99 5 ms at one
 * connection, p50 0.4 ms). Here a worker thread with its own connection runs a PASSIVE checkpoint
 * (it never blocks a reader or the writer) every `everyMs`, which copies nearly everything. The
 * store's connection keeps SQLite's own checkpoint at `BACKSTOP_PAGES`: under a steady stream of
 * commits the thread never catches up with the last frame, and only a checkpoint between two commits
 * lets the next one start the WAL over; by then the thread has copied all but the last moment's
 * pages, so that checkpoint is short. If the thread fails, the store goes back to SQLite's default.
 * Durability does not change: a commit is as durable as before (WAL, synchronous = NORMAL).
 */
export const BACKSTOP_PAGES = 4_000;
/** The -wal file is cut back to this size when it starts over (it is not shrunk otherwise). */
export const WAL_SIZE_LIMIT = 32 * 1024 * 1024;

/** The worker's whole program (an eval'd CommonJS script: the package ships no separate file for it). */
const PROGRAM = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 1000');
// A checkpoint copies frames from the WAL to the file; it needs next to no page cache.
db.pragma('cache_size = -256');
const tick = () => {
  // BUSY: another connection (another process's thread, or the backstop) is checkpointing already.
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch (e) { if (!e || e.code !== 'SQLITE_BUSY') parentPort.postMessage({ error: String(e && e.message || e) }); }
};
const timer = setInterval(tick, workerData.everyMs);
parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  try { tick(); db.close(); } finally { parentPort.close(); }
});
`;

export interface Checkpointer {
  /** Runs a last checkpoint, closes the worker's connection and ends the thread. */
  stop(): Promise<void>;
}

/**
 * Starts the checkpoint thread for the SQLite file. `onFailure` is told once if the thread fails
 * (the store then falls back to SQLite's own checkpoints on the request thread).
 */
export function startCheckpointer(file: string, onFailure: (error: Error) => void, everyMs = 100): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  // A small heap: the thread allocates next to nothing, and its memory counts in the server's RSS.
  const worker = new Worker(PROGRAM, {
    eval: true,
    workerData: { file, driver, everyMs },
    resourceLimits: { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 1, stackSizeMb: 2 },
  });
  // The thread must not keep a process alive that is otherwise done (tests, a CLI closing).
  worker.unref();
  let failed = false;
  const fail = (error: Error) => {
    if (failed) return;
    failed = true;
    onFailure(error);
  };
  worker.on('error', fail);
  worker.on('message', (m: { error?: string }) => {
    if (m.error) fail(new Error(`WAL checkpoint failed: ${m.error}`));
  });
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    async stop() {
      worker.postMessage('stop');
      const timeout = setTimeout(() => void worker.terminate(), 5_000);
      await exited;
      clearTimeout(timeout);
    },
  };
}
