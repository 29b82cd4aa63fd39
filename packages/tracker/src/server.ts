import type { FastifyInstance } from 'fastify';
import { applySeed } from './domain/apply-seed.js';
import type { Seed } from './domain/seed.js';
import { Tracker } from './domain/tracker.js';
import { buildApp } from './http/app.js';
import { openDb } from './store/db.js';
import { Store } from './store/store.js';

export interface ServerOptions {
  host?: string;
  port?: number;
  dataDir?: string;
  databaseUrl?: string;
  seed?: Seed;
  logLevel?: string;
  /** Where log lines go (default stderr: stdout carries only the ready line). */
  logStream?: { write(line: string): void };
  trustProxy?: boolean;
  poolSize?: number;
  /** Bytes of repeated `GET /issue` replies kept (SQLite only; 0 = off; default 8 MiB). */
  readCacheBytes?: number;
  /** Largest request body in bytes (default 1 MiB, domain/limits.ts). */
  bodyLimit?: number;
}

export interface RunningServer {
  url: string;
  app: FastifyInstance;
  tracker: Tracker;
  store: Store;
  /** Stops accepting, finishes in-flight requests, closes the store. */
  close(): Promise<void>;
}

/** Opens the store, migrates, loads the seed and listens. Used by the CLI, the demo and tests. */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  // Until the app (and its logger) exists, a failed checkpoint thread is reported on stderr.
  let checkpointFailed = (e: Error) => { process.stderr.write(`jst-tracker: ${e.message}; WAL checkpoints now run on the request thread.\n`); };
  const store = new Store(openDb({
    databaseUrl: options.databaseUrl, dataDir: options.dataDir, poolSize: options.poolSize,
    onCheckpointError: (e) => checkpointFailed(e),
  }));
  try {
    await store.migrate();
    if (options.seed) await applySeed(store, options.seed);
    const tracker = new Tracker(store);
    await tracker.refreshSites();
    const app = buildApp(tracker, { logLevel: options.logLevel ?? 'silent', trustProxy: options.trustProxy ?? false, ...(options.readCacheBytes !== undefined ? { readCacheBytes: options.readCacheBytes } : {}), ...(options.logStream ? { logStream: options.logStream } : {}), ...(options.bodyLimit !== undefined ? { bodyLimit: options.bodyLimit } : {}) });
    checkpointFailed = (e) => app.log.error({ err: e }, 'the WAL checkpoint thread failed; checkpoints now run on the request thread');
    await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 0 });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : options.port;
    const host = options.host ?? '127.0.0.1';
    const shown = host.includes(':') ? `[${host}]` : host;
    let closing: Promise<void> | undefined;
    return {
      url: `http://${shown}:${port}`,
      app,
      tracker,
      store,
      close: () => (closing ??= app.close().then(() => store.close())),
    };
  } catch (e) {
    await store.close().catch(() => undefined);
    throw e;
  }
}
