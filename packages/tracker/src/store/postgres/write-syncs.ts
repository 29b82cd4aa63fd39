import { randomBytes } from 'node:crypto';

/** A write's acknowledgement question: the feeds to wait for, once listed, and those heard so far. */
interface Sync {
  expected: Set<number> | null;
  acked: Set<number>;
  done: (() => void) | null;
}

/**
 * The writers' side of the change feed (changes.ts, `afterWrite`): this process's writes waiting
 * for the other feeds' acknowledgements, by token. A token is `<pid>.<random>.<n>`, so a feed knows
 * its own process's writes (`isOwn`) and acknowledges only the others'.
 */
export class WriteSyncs {
  private readonly syncs = new Map<string, Sync>();
  private readonly prefix = `${process.pid}.${randomBytes(6).toString('hex')}.`;
  private sequence = 0;

  /** A new write's token, waiting from now on (acknowledgements heard before its list count). */
  open(): string {
    const token = `${this.prefix}${++this.sequence}`;
    this.syncs.set(token, { expected: null, acked: new Set(), done: null });
    return token;
  }

  /** Whether `token` is one of this process's writes. */
  isOwn(token: string): boolean {
    return token.startsWith(this.prefix);
  }

  /** The feeds the write listed after its commit: true when every one of them has acknowledged already. */
  expect(token: string, pids: number[]): boolean {
    const sync = this.syncs.get(token);
    if (!sync) return true;
    sync.expected = new Set(pids.filter((pid) => !sync.acked.has(pid)));
    return sync.expected.size === 0;
  }

  /**
   * Settles at `deadline` (performance.now()) with false, or sooner with true once every feed the
   * write `token` expects has acknowledged. Without a token, it only waits the deadline out.
   */
  wait(token: string | null, deadline: number): Promise<boolean> {
    const sync = token === null ? undefined : this.syncs.get(token);
    return new Promise((resolve) => {
      const timer = setTimeout(
        () => {
          if (sync) sync.done = null;
          resolve(false);
        },
        Math.max(0, deadline - performance.now()),
      );
      if (sync)
        sync.done = () => {
          clearTimeout(timer);
          resolve(true);
        };
    });
  }

  /** The write `token` answers: it waits no more. */
  close(token: string): void {
    this.syncs.delete(token);
  }

  /** Acknowledgements heard, of this process's writes or another's: `<pid> <token> …`. */
  heard(payload: string): void {
    const [pid, ...tokens] = payload.split(' ');
    const feed = Number(pid);
    for (const token of tokens) {
      const sync = this.syncs.get(token);
      if (!sync) continue;
      sync.acked.add(feed);
      if (!sync.expected) continue;
      sync.expected.delete(feed);
      if (sync.expected.size === 0) sync.done?.();
    }
  }

  /** Every write still waiting answers now (the feed is closing). */
  releaseAll(): void {
    for (const sync of this.syncs.values()) sync.done?.();
  }
}
