import pg from 'pg';
import type { ChangeFeed, FeedOptions } from '../db.js';
import { WriteSyncs } from './write-syncs.js';
import {
  ACKS_CHANNEL,
  ACKS_PER_NOTIFY,
  ALONE_MS,
  CHANGES_CHANNEL,
  CONNECTING_APPLICATION,
  FEED_APPLICATION,
  LEASE_MS,
  PEERS_STATEMENT,
  SYNC_CHANNEL,
  SYNC_STATEMENT,
  SYNC_TIMEOUT_MS,
} from './feed-protocol.js';

/** How long to wait before listening again after the connection was lost, growing to the last. */
const RETRY_MS = [50, 200, 1000, 5000];

/** Runs one statement on a connection of the pool (the one the write committed on), prepared there under `name`. */
export type RunStatement = (name: string, text: string, values: unknown[]) => Promise<{ rows: unknown[] }>;

/**
 * Commits by any process over one PostgreSQL database, as this process learns of them: a
 * connection of its own that LISTENs on CHANGES_CHANNEL, which every transaction that wrote a
 * table NOTIFYs (statement triggers, migration 0008; PostgreSQL sends a notification at commit,
 * once per transaction and channel).
 *
 * What a cache built on it may trust (http/issue-read-cache.ts):
 * * `version()` moves on every notification, when the connection is lost and when it listens
 *   again (notifications sent while it was gone are lost, so everything kept before is dropped).
 * * `synced()` settles true once every commit answered before the call counts in `version()`, and
 *   false when the connection is down or is lost meanwhile: then nothing may be served from what
 *   was kept. It settles at once while the feed holds a lease (`fresh`), otherwise after a
 *   statement sent on this connection AFTER it was called has answered: PostgreSQL sends a
 *   listening session every notification committed before that statement began ahead of the
 *   statement's ReadyForQuery, and the driver emits them in order.
 *
 * The lease. Every statement answered on this connection (a probe `select 1`, an acknowledgement)
 * proves that every commit made before it was SENT has been seen; `proofAt` is when the last one
 * was sent. While now − proofAt < LEASE_MS a kept reply is served without a round trip, and past
 * LEASE_MS / 2 a probe is sent in the background (one at a time), so a busy cache renews its lease
 * before it runs out. What makes that safe is the writers' side (`afterWrite`, called by the pool
 * after every commit that wrote, before the write returns and so before its HTTP answer): the
 * writer moves its own feed's version, NOTIFYs SYNC_CHANNEL and waits until every other feed
 * listed in pg_stat_activity under FEED_APPLICATION has acknowledged on ACKS_CHANNEL, or
 * SYNC_TIMEOUT_MS. Notifications reach a
 * session in commit order, so a feed that acknowledges has already counted the write. Now take a
 * read that arrives here after a write's answer:
 * * if this feed acknowledged the write, it had counted it: the kept reply is dropped;
 * * if not (stalled, or listed too late), the writer answered no sooner than SYNC_TIMEOUT_MS after
 *   its commit. Had the proof been sent after the commit, this feed would have counted the write;
 *   so it was sent before the commit, more than SYNC_TIMEOUT_MS > LEASE_MS ago: the lease has run
 *   out and the read waits for a fresh statement, after which the write counts.
 * A feed's connection takes the name FEED_APPLICATION only after its LISTENs answered, and a proof
 * counts only when its statement was sent after the `SET application_name` (so it ran after it): a
 * writer that did not list the feed committed before the name was set, hence before any proof the
 * lease rests on, and that proof has counted the write.
 * A process alone. The feed lists the other feeds on its own connection (`refreshPeers`, kept
 * fresh while writes come); a write whose process found none less than ALONE_MS before answers
 * without a statement. A feed whose name was set after that list was read counts its proofs only
 * from ALONE_MS after its `SET application_name` answered (`namedAt`; its first probe waits till
 * then): that proof was sent more than ALONE_MS after the list was read, so after the write's
 * commit, and it has counted the write.
 * Durations are taken on each process's monotonic clock (performance.now()); no two clocks are compared.
 */
export class PostgresChangeFeed implements ChangeFeed {
  private client: pg.Client | null = null;
  private listening = false;
  private generation = 0;
  private closed = false;
  private retries = 0;
  private timer: NodeJS.Timeout | null = null;
  /** The callers waiting for a statement not yet sent (it goes once the one in flight answers). */
  private waiting: ((synced: boolean) => void)[] = [];
  private inFlight = false;
  /** When the last statement answered on the listening connection was sent (performance.now()); -Infinity: none yet. */
  private proofAt = -Infinity;
  /**
   * When the connection's `SET application_name` (the name writers list) was sent: a statement sent
   * before it may have run before the name was set, so it proves nothing a writer could rely on.
   */
  private namedSince = Infinity;
  /**
   * When the `SET application_name` answered: a proof counts only when sent ALONE_MS after it, so
   * a writer that found no other feed less than ALONE_MS before its commit (`peers`) cannot have
   * missed this one (see the class).
   */
  private namedAt = Infinity;
  /** The other feeds as last listed (null: not known), and when that list was asked (sent). */
  private peers: number[] | null = null;
  private peersAskedAt = -Infinity;
  private peersInFlight = false;
  /** Tokens to acknowledge, sent once the acknowledgement in flight (if any) has answered. */
  private acks: string[] = [];
  private acking = false;
  /** This process's writes waiting for acknowledgements (write-syncs.ts). */
  private readonly writes = new WriteSyncs();
  /** Writes waiting for the connection to listen (a feed just opened). */
  private untilListening: (() => void)[] = [];
  private readonly leaseMs: number;
  private readonly syncTimeoutMs: number;
  /**
   * Notifications received, connections lost, probes sent, acknowledgements sent (one per token),
   * writes that asked for acknowledgements and those that waited the whole SYNC_TIMEOUT_MS, writes
   * that answered at once because the process knew itself alone (`alone`), for tests and the
   * benchmark's report.
   */
  readonly counts = { notifications: 0, losses: 0, probes: 0, acks: 0, syncs: 0, timeouts: 0, alone: 0 };

  constructor(
    private readonly databaseUrl: string,
    private readonly onError: (error: Error) => void,
    options: FeedOptions = {},
  ) {
    this.leaseMs = options.leaseMs ?? LEASE_MS;
    this.syncTimeoutMs = options.syncTimeoutMs ?? SYNC_TIMEOUT_MS;
    this.connect();
  }

  version(): number {
    return this.generation;
  }

  get healthy(): boolean {
    return this.listening;
  }

  /**
   * True while the lease holds (see the class): every commit answered before now counts in
   * `version()`. Past half the lease it sends a probe in the background, so a busy cache keeps it.
   */
  fresh(): boolean {
    if (!this.listening) return false;
    const age = performance.now() - this.proofAt;
    if (age >= this.leaseMs) return false;
    if (age > this.leaseMs / 2 && !this.inFlight) this.probe();
    return true;
  }

  synced(): Promise<boolean> {
    if (!this.listening) return Promise.resolve(false);
    if (this.fresh()) return Promise.resolve(true);
    // The lease has run out: a statement sent from now on (the one in flight was sent before).
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      if (!this.inFlight) this.probe();
    });
  }

  /**
   * After a commit that wrote, before the write returns: moves this feed's version (so this
   * process's cache drops what it kept), asks every other listening feed to acknowledge, on the
   * connection the write committed on (`run`), and waits for them, SYNC_TIMEOUT_MS after the
   * commit at most. Never throws: whatever fails, it waits the timeout out.
   */
  async afterWrite(run: RunStatement): Promise<void> {
    const deadline = performance.now() + this.syncTimeoutMs;
    // This process's own feed need not answer: what this process kept before the commit goes now
    // (a reply rendered before this moment and kept after it is refused: IssueReadCache.keep).
    this.generation++;
    if (this.closed) return;
    // Alone on the database, as asked less than a lease ago: no feed can have missed this commit.
    const now = performance.now();
    if (this.listening && this.peers?.length === 0 && now - this.peersAskedAt < ALONE_MS) {
      this.counts.alone++;
      if (now - this.peersAskedAt > ALONE_MS / 2) this.refreshPeers();
      return;
    }
    this.counts.syncs++;
    if (this.listening) this.refreshPeers();
    // Connecting (a feed just opened): the acknowledgements can be heard in a moment.
    if (!this.listening && this.client) await this.listeningBy(deadline);
    if (this.closed) return;
    // Not listening, no acknowledgement can be heard: if any other feed is listed, its lease runs out instead.
    const own = this.listening && this.client ? backendPid(this.client) : undefined;
    const token = this.writes.open();
    try {
      const askedAt = performance.now();
      const { rows } = await run('jst_sync', SYNC_STATEMENT, [token, FEED_APPLICATION, own ?? 0]);
      const pids = (rows[0] as { pids: number[] | null }).pids ?? [];
      if (own !== undefined && this.listening && askedAt > this.peersAskedAt) {
        this.peers = pids;
        this.peersAskedAt = askedAt;
      }
      if (this.writes.expect(token, pids)) return;
      if (!(await this.writes.wait(token, deadline))) this.counts.timeouts++;
    } catch {
      if (!(await this.writes.wait(null, deadline))) this.counts.timeouts++;
    } finally {
      this.writes.close(token);
    }
  }

  private listeningBy(deadline: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, Math.max(0, deadline - performance.now()));
      this.untilListening.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  private probe(): void {
    const client = this.client;
    // A feed named a moment ago proves nothing before ALONE_MS after it (`proved`): its probe waits until then.
    const early = this.namedAt + ALONE_MS - performance.now();
    if (client && this.listening && early > 0) {
      this.inFlight = true;
      setTimeout(() => {
        this.inFlight = false;
        this.probe();
      }, Math.ceil(early)).unref();
      return;
    }
    const callers = this.waiting;
    this.waiting = [];
    if (!client || !this.listening) return settle(callers, false);
    this.inFlight = true;
    this.counts.probes++;
    const sentAt = performance.now();
    client.query('select 1').then(
      // Only an answer on the session still listening counts (one lost meanwhile may have missed some).
      () => this.probed(callers, this.proved(client, sentAt)),
      () => this.probed(callers, false),
    );
  }

  private probed(callers: ((synced: boolean) => void)[], synced: boolean): void {
    this.inFlight = false;
    settle(callers, synced);
    if (this.waiting.length > 0) this.probe();
  }

  /** Lists the other feeds on this connection (one question at a time); its answer is a proof too. */
  private refreshPeers(): void {
    const client = this.client;
    if (!client || !this.listening || this.peersInFlight) return;
    this.peersInFlight = true;
    const sentAt = performance.now();
    client.query({ name: 'jst_peers', text: PEERS_STATEMENT, values: [FEED_APPLICATION] }).then(
      ({ rows }) => {
        if (this.client !== client) return;
        this.peersInFlight = false;
        if (!this.listening || sentAt <= this.peersAskedAt) return;
        this.peers = (rows[0] as { pids: number[] | null }).pids ?? [];
        this.peersAskedAt = sentAt;
        this.proved(client, sentAt);
      },
      () => {
        if (this.client === client) this.peersInFlight = false;
      },
    );
  }

  /**
   * A statement sent at `sentAt` answered on `client`: the lease starts there, if that is still the
   * listening connection and the statement was sent ALONE_MS after the feed took its name (`namedAt`).
   */
  private proved(client: pg.Client, sentAt: number): boolean {
    if (this.client !== client || !this.listening || sentAt < this.namedSince || sentAt < this.namedAt + ALONE_MS) return false;
    if (sentAt > this.proofAt) this.proofAt = sentAt;
    return true;
  }

  /**
   * Acknowledges the writes' tokens on this connection. Called in the order notifications arrive,
   * so every commit notified before them has been counted already.
   */
  protected acknowledge(tokens: string[]): void {
    this.acks.push(...tokens);
    this.sendAcks();
  }

  private sendAcks(): void {
    const client = this.client;
    if (this.acking || !client || this.acks.length === 0) return;
    const tokens = this.acks.splice(0, ACKS_PER_NOTIFY);
    this.acking = true;
    this.counts.acks += tokens.length;
    const sentAt = performance.now();
    client.query(`select pg_notify('${ACKS_CHANNEL}', $1)`, [`${backendPid(client)} ${tokens.join(' ')}`]).then(
      () => {
        this.proved(client, sentAt);
        this.acked(client);
      },
      () => this.acked(client),
    );
  }

  private acked(client: pg.Client): void {
    if (this.client !== client) return;
    this.acking = false;
    this.sendAcks();
  }

  private connect(): void {
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.databaseUrl, application_name: CONNECTING_APPLICATION });
    this.client = client;
    client.on('notification', (message) => {
      if (this.client !== client) return;
      if (message.channel === CHANGES_CHANNEL) {
        this.counts.notifications++;
        this.generation++;
      } else if (message.channel === SYNC_CHANNEL) {
        // This process's own writes are not waiting for it (afterWrite).
        if (message.payload && !this.writes.isOwn(message.payload)) this.acknowledge([message.payload]);
      } else if (message.channel === ACKS_CHANNEL) {
        if (message.payload) this.writes.heard(message.payload);
      }
    });
    client.on('error', (e) => this.lost(client, e));
    client.on('end', () => this.lost(client, undefined));
    client
      .connect()
      .then(() => client.query(`listen ${CHANGES_CHANNEL}; listen ${SYNC_CHANNEL}; listen ${ACKS_CHANNEL}`))
      // Named a feed (so writers wait for it) only now that it listens; acknowledgements are
      // notifications, which need not wait for the disk.
      .then(() => {
        if (this.client === client) this.namedSince = performance.now();
        return client.query(`set application_name = '${FEED_APPLICATION}'; set synchronous_commit = off`);
      })
      .then(
        () => {
          if (this.client !== client || this.closed) return;
          this.namedAt = performance.now();
          // Whatever was committed before now is in the database; what was kept before may not be.
          this.generation++;
          this.listening = true;
          this.retries = 0;
          for (const wake of this.untilListening.splice(0)) wake();
        },
        (e: unknown) => this.lost(client, e as Error),
      );
  }

  private lost(client: pg.Client, error: Error | undefined): void {
    if (this.client !== client) return;
    this.client = null;
    this.listening = false;
    this.proofAt = -Infinity;
    this.namedSince = Infinity;
    this.namedAt = Infinity;
    this.peers = null;
    this.peersAskedAt = -Infinity;
    this.peersInFlight = false;
    this.acks = [];
    this.acking = false;
    this.generation++;
    this.counts.losses++;
    settle(this.waiting.splice(0), false);
    client.removeAllListeners('notification');
    client.end().catch(() => undefined);
    if (this.closed) return;
    if (error) this.onError(error);
    const delay = RETRY_MS[Math.min(this.retries++, RETRY_MS.length - 1)]!;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.connect();
    }, delay);
    this.timer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    const client = this.client;
    this.client = null;
    this.listening = false;
    this.proofAt = -Infinity;
    this.generation++;
    settle(this.waiting.splice(0), false);
    // Closing: the writes still waiting answer now (the server has stopped taking requests).
    for (const wake of this.untilListening.splice(0)) wake();
    this.writes.releaseAll();
    if (client) await client.end().catch(() => undefined);
  }
}

/** The connection's backend process id, as pg_stat_activity lists it (the driver keeps it from BackendKeyData; its types omit it). */
function backendPid(client: pg.Client): number {
  return (client as unknown as { processID: number }).processID;
}

function settle(callers: ((synced: boolean) => void)[], synced: boolean): void {
  for (const resolve of callers) resolve(synced);
}
