import type BetterSqlite3 from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { RunNow } from '../db.js';
import type { Database } from '../schema.js';

interface Queued {
  work: (run: RunNow) => unknown;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}
type Outcome = { value?: unknown; error?: unknown; failed: boolean };

/**
 * Group commit on the one SQLite connection (Db.grouped). Work queued in one turn of the event
 * loop is run at the end of it, when the connection is free, in one transaction: one BEGIN and one
 * COMMIT (one WAL append) for the group instead of one per request, and no waiting in between,
 * since every statement runs synchronously.
 *
 * A group is first run as it is, with no savepoints: a SAVEPOINT and a RELEASE per piece cost
 * about a sixth of a create's SQLite time, and a piece nearly never fails (its request was checked
 * before it was queued). When one does fail, the whole transaction is rolled back and the group
 * runs again, each piece in a savepoint of its own, so the failure undoes only its own piece.
 * Pieces only run statements, so running one twice against the same rows gives the same result.
 */
export class GroupCommit {
  private queue: Queued[] = [];
  private scheduled = false;
  private readonly plain: (batch: Queued[]) => unknown[];
  private readonly isolated: (batch: Queued[]) => Outcome[];

  constructor(
    private readonly database: BetterSqlite3.Database,
    private readonly kysely: Kysely<Database>,
    private readonly run: RunNow,
  ) {
    this.plain = database.transaction((batch: Queued[]) =>
      batch.map((item) => {
        try {
          return item.work(this.run);
        } catch (error) {
          throw new PieceFailed(error);
        }
      }),
    );
    const piece = database.transaction((item: Queued) => item.work(this.run));
    this.isolated = database.transaction((batch: Queued[]) =>
      batch.map((item) => {
        try {
          return { value: piece(item), failed: false };
        } catch (error) {
          return { error, failed: true };
        }
      }),
    );
  }

  /** Runs the group: the outcome of each piece; throws when BEGIN or COMMIT failed (nothing written). */
  private runGroup(batch: Queued[]): Outcome[] {
    try {
      return this.plain(batch).map((value) => ({ value, failed: false }));
    } catch (error) {
      if (!(error instanceof PieceFailed)) throw error;
      // One piece alone: its failure is its outcome, and nothing else was in the transaction.
      if (batch.length === 1) return [{ error: error.error, failed: true }];
      return this.isolated(batch);
    }
  }

  /** The work queued so far; what is queued from now on waits for the next flush. */
  private take(): Queued[] {
    const batch = this.queue;
    this.queue = [];
    this.scheduled = false;
    return batch;
  }

  private commit(): void {
    const batch = this.take();
    let results: Outcome[];
    try {
      results = this.runGroup(batch);
    } catch (error) {
      // The COMMIT (or BEGIN) failed: nothing of the group was written.
      for (const item of batch) item.reject(error);
      return;
    }
    results.forEach((r, i) => (r.failed ? batch[i]!.reject(r.error) : batch[i]!.resolve(r.value)));
  }

  add<T>(work: (run: RunNow) => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    // No transaction open on the connection: nothing can run between the group's statements
    // (they are synchronous), so the group runs at once. Otherwise it waits in Kysely's queue for
    // the transaction in progress to finish; work queued meanwhile joins it.
    if (!this.database.inTransaction) {
      this.commit();
      return;
    }
    try {
      await this.kysely.connection().execute(async () => this.commit());
    } catch (error) {
      // The connection could not be had (the store is closing): refuse what waits.
      for (const item of this.take()) item.reject(error);
    }
  }
}

/** A piece of a group failed (with `error`): the group is rolled back and run again with savepoints. */
class PieceFailed extends Error {
  constructor(readonly error: unknown) {
    super('a piece of the group failed');
  }
}
