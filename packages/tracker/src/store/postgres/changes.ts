import pg from 'pg';
import type { ChangeFeed } from '../db.js';

/** The channel every commit that changed a table notifies (migration 0008's triggers). */
export const CHANGES_CHANNEL = 'jst_changes';

/** The feed's connection as pg_stat_activity names it (application_name). */
export const FEED_APPLICATION = 'jst-tracker changes';

/** How long to wait before listening again after the connection was lost, growing to the last. */
const RETRY_MS = [50, 200, 1000, 5000];

/**
 * Commits by any process over one PostgreSQL database, as this process learns of them: a
 * connection of its own that LISTENs on CHANGES_CHANNEL, which every transaction that wrote a
 * table NOTIFYs (statement triggers, migration 0008; PostgreSQL sends a notification at commit,
 * once per transaction and channel).
 *
 * What a cache built on it may trust (http/issue-read-cache.ts):
 * * `version()` moves on every notification, when the connection is lost and when it listens
 *   again (notifications sent while it was gone are lost, so everything kept before is dropped).
 * * `synced()` settles after a statement sent on this connection AFTER it was called has
 *   answered: PostgreSQL sends a listening session every notification committed before that
 *   statement began ahead of the statement's ReadyForQuery, and the driver emits them in order, so
 *   by then `version()` counts every commit answered before the call. A write answered in another
 *   process before a read arrived here is therefore seen by that read. It says false when the
 *   connection is down or is lost meanwhile: then nothing may be served from what was kept.
 * Callers that arrive while a statement is in flight share the next one: one round trip of
 * `select 1` serves every read that waited for it.
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
  /** Notifications received, connections lost and statements sent, for tests and the benchmark's report. */
  readonly counts = { notifications: 0, losses: 0, probes: 0 };

  constructor(
    private readonly databaseUrl: string,
    private readonly onError: (error: Error) => void,
  ) {
    this.connect();
  }

  version(): number {
    return this.generation;
  }

  get healthy(): boolean {
    return this.listening;
  }

  synced(): Promise<boolean> {
    if (!this.listening) return Promise.resolve(false);
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      if (!this.inFlight) this.probe();
    });
  }

  private probe(): void {
    const client = this.client;
    const callers = this.waiting;
    this.waiting = [];
    if (!client || !this.listening) return settle(callers, false);
    this.inFlight = true;
    this.counts.probes++;
    client.query('select 1').then(
      // Only an answer on the session still listening counts (one lost meanwhile may have missed some).
      () => this.probed(callers, this.client === client && this.listening),
      () => this.probed(callers, false),
    );
  }

  private probed(callers: ((synced: boolean) => void)[], synced: boolean): void {
    this.inFlight = false;
    settle(callers, synced);
    if (this.waiting.length > 0) this.probe();
  }

  private connect(): void {
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.databaseUrl, application_name: FEED_APPLICATION });
    this.client = client;
    client.on('notification', () => {
      if (this.client !== client) return;
      this.counts.notifications++;
      this.generation++;
    });
    client.on('error', (e) => this.lost(client, e));
    client.on('end', () => this.lost(client, undefined));
    client
      .connect()
      .then(() => client.query(`listen ${CHANGES_CHANNEL}`))
      .then(
        () => {
          if (this.client !== client || this.closed) return;
          // Whatever was committed before now is in the database; what was kept before may not be.
          this.generation++;
          this.listening = true;
          this.retries = 0;
        },
        (e: unknown) => this.lost(client, e as Error),
      );
  }

  private lost(client: pg.Client, error: Error | undefined): void {
    if (this.client !== client) return;
    this.client = null;
    this.listening = false;
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
    this.generation++;
    settle(this.waiting.splice(0), false);
    if (client) await client.end().catch(() => undefined);
  }
}

function settle(callers: ((synced: boolean) => void)[], synced: boolean): void {
  for (const resolve of callers) resolve(synced);
}
