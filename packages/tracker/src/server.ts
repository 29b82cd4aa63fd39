import { ReposRequiredError } from './repos-required.js';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { gitAccess } from './codehost/domain/access.js';
import { onRefsUpdated, recordPush } from './codehost/domain/pushes.js';
import { applyCodehostSeed } from './codehost/domain/apply-seed.js';
import { CodeHost } from './codehost/domain/host.js';
import type { GitRepos } from './codehost/domain/git-port.js';
import { pullsForIssueKey } from './codehost/domain/pulls.js';
import type { IssuePull } from './codehost/domain/views.js';
import { parseCodehostSeed, type CodehostSeed } from './codehost/domain/seed.js';
import { MergeConflictError, RefMovedError } from './codehost/git/errors.js';
import { createGitHttpHandler, parseGitPath } from './codehost/git/http-backend.js';
import { BareRepos } from './codehost/git/repos.js';
import { GitSlots } from './codehost/git/slots.js';
import { REST_DOCS } from './codehost/http/errors.js';
import { reviewPageRoutes } from './codehost/http/pages/routes.js';
import { mountGitFront } from './codehost/http/git-front.js';
import { DEFAULT_PUSH_LIMIT_MB } from './codehost/domain/limits.js';
import { codehostRoutes } from './codehost/http/routes.js';
import { HookAllow } from './codehost/hooks/allow.js';
import { branchUpdates, hostListener } from './codehost/hooks/listener.js';
import { DeliveryLoop } from './codehost/hooks/sender.js';
import { announce } from './codehost/domain/events.js';
import { checkTrackerLinks, trackerMover } from './integration.js';
import { graphqlRoutes } from './codehost/graphql/routes.js';
import { CodehostStore } from './codehost/store/store.js';
import { applySeed } from './domain/apply-seed.js';
import type { Seed } from './domain/seed.js';
import { Tracker } from './domain/tracker.js';
import { buildApp } from './http/app.js';
import { bodyIdleMessage, DEFAULT_BODY_IDLE_MS, watchBodyIdle } from './kit/body-idle.js';
import { openDb } from './store/open-db.js';
import { Store } from './store/store.js';
import type { TlsMaterial } from './tls/files.js';

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
  /**
   * The code host's bare repositories (ARCHITECTURE §14): `<repos>/<owner>/<repo>.git`. Default
   * `<dataDir>/repos` on SQLite; with `databaseUrl` there is no default (every process must see
   * the same folder): without it the code host is off, and a seed with a code-host section is refused.
   */
  repos?: string;
  /** Largest push in bytes (default 100 MiB; `serve --push-limit MB`). */
  pushLimit?: number;
  /** Git processes at once, all users (default 32; `serve --git-processes`). */
  gitProcesses?: number;
  /** Git processes at once for one user (default a quarter of the total; `serve --git-processes-per-user`). */
  gitProcessesPerUser?: number;
  /** How long the REST interface's and the pages' git work waits for a git slot before 503/429 (default 10 s; tests). */
  gitSlotWaitMs?: number;
  /** A request body that sends nothing this long is cut, 408 (default 30 s; `serve --body-idle-timeout`). */
  bodyIdleMs?: number;
  /** The seed's file name, for the errors of its code-host section. */
  seedFile?: string;
  /** Where webhooks may be delivered (`serve --hook-allow <cidr|host>[,…]`; default loopback). */
  hookAllow?: string;
  /** How long one delivery may take (default 10 s; tests). */
  hookTimeoutMs?: number;
  /** How often this process looks for deliveries another one queued (default 1 s). */
  hookPollMs?: number;
  /** false: this process queues deliveries but sends none (tests of a restart). */
  hookDeliveries?: boolean;
  /**
   * HTTPS on the same port for every interface (ARCHITECTURE §23): the server's certificate and key
   * in PEM (`loadTlsFiles` for `--tls-cert/--tls-key`, `localCertificates` for the local authority).
   */
  tls?: TlsMaterial;
}

export { ReposRequiredError };

/** The code host as the composition holds it: the domain's handle and the parts it was made of (for tests and tools). */
export interface RunningCodehost {
  /** What the routes, pages and git's access check are given. */
  host: CodeHost;
  store: CodehostStore;
  /** Null when it runs without a repository folder (or without a git fit for it). */
  git: GitRepos | null;
  /** The board's question, with this server's own address in `htmlUrl`. */
  pullsForIssueKey(key: string): Promise<IssuePull[]>;
}

export interface RunningServer {
  url: string;
  app: FastifyInstance;
  tracker: Tracker;
  store: Store;
  /** The embedded code host (src/codehost/); its `git` is null when it runs without a repository folder. */
  codehost: RunningCodehost;
  /** Stops accepting, finishes in-flight requests, closes the store. */
  close(): Promise<void>;
}

/** The 408 of an idle body in the shape of what was asked: git's plain text, GitHub's JSON, the tracker's ErrorCollection. */
function idleAnswer(req: IncomingMessage, idleMs: number): { type: string; body: string } {
  const message = bodyIdleMessage(idleMs);
  const url = req.url ?? '/';
  const path = url.split('?')[0]!;
  if (parseGitPath(path) !== null) return { type: 'text/plain; charset=utf-8', body: `${message}\n` };
  if (path === '/api/v3' || path.startsWith('/api/v3/') || path === '/api/graphql' || path.startsWith('/api/graphql/'))
    return { type: 'application/json; charset=utf-8', body: JSON.stringify({ message, documentation_url: REST_DOCS }) };
  return { type: 'application/json;charset=UTF-8', body: JSON.stringify({ errorMessages: [message], errors: {} }) };
}

/**
 * ARCHITECTURE §22: what happens on the code host becomes its webhooks' deliveries (sent by this
 * process's delivery loop, once `start` names the server's address) and the tracker's moves.
 */
async function wireEvents(codehost: CodeHost, tracker: Tracker, options: ServerOptions, allow: HookAllow, on: boolean) {
  let publicUrl = '';
  codehost.listener = hostListener(codehost, () => ({ web: publicUrl, api: `${publicUrl}/api/v3` }));
  codehost.mover = trackerMover(tracker);
  const timing = {
    ...(options.hookTimeoutMs !== undefined ? { timeoutMs: options.hookTimeoutMs } : {}),
    ...(options.hookPollMs !== undefined ? { pollMs: options.hookPollMs } : {}),
  };
  const deliveries = new DeliveryLoop(codehost, { allow, ...timing }, (e) => codehost.report(e));
  codehost.wake = () => deliveries.wake();
  // One source of ref updates (domain/pushes.ts): pushes, merges and pushes into the folder.
  onRefsUpdated(codehost, (host, repo, pusher, updates) => {
    const branches = branchUpdates(updates);
    return branches.length === 0 ? undefined : announce(host, { kind: 'refs', repo, pusher, updates: branches });
  });
  return {
    deliveries,
    start(url: string) {
      publicUrl = url;
      if (options.hookDeliveries !== false && on) deliveries.start();
    },
  };
}

/** The code host's seed is its own (ARCHITECTURE §14), checked (its "tracker" links too) before anything is opened. */
function checkedCodehostSeed(options: ServerOptions): CodehostSeed | undefined {
  const codehostSeed = options.seed?.codehost === undefined ? undefined : parseCodehostSeed(options.seed.codehost, options.seedFile);
  if (codehostSeed && options.seed) checkTrackerLinks(codehostSeed, options.seed, options.seedFile);
  return codehostSeed;
}

/** Opens the store, migrates, loads the seed and listens. Used by the CLI, the demo and tests. */
/** The URL the server answers at, from the address it listens on (an IPv6 host in brackets). */
function listeningUrl(app: FastifyInstance, options: ServerOptions): string {
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const host = options.host ?? '127.0.0.1';
  const shown = host.includes(':') ? `[${host}]` : host;
  return `${options.tls ? 'https' : 'http'}://${shown}:${port}`;
}

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  // Until the app (and its logger) exists, a failed checkpoint thread is reported on stderr.
  let checkpointFailed = (e: Error) => {
    process.stderr.write(`jst-tracker: ${e.message}; WAL checkpoints now run on the request thread.\n`);
  };
  const codehostSeed = checkedCodehostSeed(options);
  const hookAllow = HookAllow.parse(options.hookAllow);
  const reposDir = options.repos ?? (options.databaseUrl ? undefined : join(options.dataDir ?? '.jst-tracker', 'repos'));
  if (reposDir === undefined && codehostSeed) throw new ReposRequiredError();
  const db = openDb({
    databaseUrl: options.databaseUrl,
    dataDir: options.dataDir,
    poolSize: options.poolSize,
    onCheckpointError: (e) => checkpointFailed(e),
  });
  const store = new Store(db);
  try {
    await store.migrate();
    if (options.seed) await applySeed(store, options.seed);
    let repos = reposDir === undefined ? null : new BareRepos(reposDir);
    let off: string | undefined;
    if (repos) {
      // Merges need git 2.38. Asked for (--repos, a code-host seed), a missing or old git stops the
      // start; otherwise the tracker serves and the code host says why it is off.
      try {
        await repos.verifyGit();
      } catch (e) {
        if (options.repos !== undefined || codehostSeed) throw e;
        off = (e as Error).message;
        repos = null;
      }
    }
    const codehostStore = new CodehostStore(store.context);
    const codehost = await CodeHost.open({
      store: codehostStore,
      git: repos,
      gitErrors: { isConflict: (e) => e instanceof MergeConflictError, isRefMoved: (e) => e instanceof RefMovedError },
      offReason: off,
    });
    if (codehostSeed) await applyCodehostSeed(codehost, codehostSeed, options.seedFile);
    const tracker = new Tracker(store);
    await tracker.refreshSites();
    const events = await wireEvents(codehost, tracker, options, hookAllow, repos !== null);
    // The board's development panel asks the code host one question (the board never imports it),
    // with the address the board's page was asked at.
    // Only what a viewer the code host does not know may see: no title, no branch (docs/codehost.md).
    const pullsForIssue = repos
      ? async (key: string, baseUrl: string) =>
          (await pullsForIssueKey(codehost, key, baseUrl)).map(({ repo, number, state, merged }) => ({ repo, number, state, merged }))
      : undefined;
    const app = buildApp(tracker, {
      ...(pullsForIssue ? { pullsForIssue } : {}),
      logLevel: options.logLevel ?? 'silent',
      trustProxy: options.trustProxy ?? false,
      ...(options.readCacheBytes !== undefined ? { readCacheBytes: options.readCacheBytes } : {}),
      ...(options.logStream ? { logStream: options.logStream } : {}),
      ...(options.bodyLimit !== undefined ? { bodyLimit: options.bodyLimit } : {}),
      ...(options.tls ? { https: { cert: options.tls.cert, key: options.tls.key } } : {}),
    });
    // The code host on the same port: its REST interface under /api/v3 (GitHub Enterprise Server's
    // layout) and git over smart HTTP at /<owner>/<repo>.git, in front of Fastify's body parsing.
    // One cap over every git process of the server, each user's share of it (docs/limits.md "Git processes").
    const slots = new GitSlots({
      ...(options.gitProcesses !== undefined ? { total: options.gitProcesses } : {}),
      ...(options.gitProcessesPerUser !== undefined ? { perUser: options.gitProcessesPerUser } : {}),
      ...(options.gitSlotWaitMs !== undefined ? { waitMs: options.gitSlotWaitMs } : {}),
    });
    await app.register(codehostRoutes(codehost, slots), { prefix: '/api/v3' });
    await app.register(graphqlRoutes(codehost, slots), { prefix: '/api/graphql' });
    // A pull request's review page (its html_url) and merge button, under the board's headers
    // (without a repository folder they answer the code host's 503 page, as its REST interface does).
    await app.register(reviewPageRoutes(codehost, slots));
    if (repos) {
      const handle = createGitHttpHandler({
        repos,
        slots,
        pushLimitBytes: options.pushLimit ?? DEFAULT_PUSH_LIMIT_MB * 1024 * 1024,
        access: (owner, repo, credential, need) => gitAccess(codehost, credential === null ? null : credential.password, owner, repo, need),
        onPush: (owner, repo, login, updates) => recordPush(codehost, owner, repo, login, updates),
      });
      mountGitFront(app.server, { matches: (path) => parseGitPath(path) !== null, handle, onError: (e) => app.log.error({ err: e }, 'git request failed') });
    }
    // After every other listener: it watches each request's body whoever answers it.
    const bodyIdleMs = options.bodyIdleMs ?? DEFAULT_BODY_IDLE_MS;
    watchBodyIdle(app.server, { idleMs: bodyIdleMs, answer: (req) => idleAnswer(req, bodyIdleMs) });
    checkpointFailed = (e) => app.log.error({ err: e }, 'the WAL checkpoint thread failed; checkpoints now run on the request thread');
    codehost.report = (e) => app.log.error({ err: e }, 'a code host event failed');
    await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 0 });
    let closing: Promise<void> | undefined;
    const url = listeningUrl(app, options);
    events.start(url);
    return {
      url,
      app,
      tracker,
      store,
      codehost: { host: codehost, store: codehostStore, git: repos, pullsForIssueKey: (key) => pullsForIssueKey(codehost, key, url) },
      close: () =>
        (closing ??= events.deliveries
          .stop()
          .then(() => app.close())
          .then(() => repos?.close())
          .then(() => store.close())),
    };
  } catch (e) {
    await store.close().catch(() => undefined);
    throw e;
  }
}
