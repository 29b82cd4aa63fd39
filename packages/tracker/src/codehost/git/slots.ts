/**
 * The git processes the server runs at once (docs/limits.md "Git processes"): a total, so many
 * clones cannot exhaust the machine, and a share of it per user, so one account (a reader
 * trickling bodies into `git-upload-pack`, or asking for many pages at once) cannot take every
 * slot from the others. A slot is taken before a process starts and given back when it ends.
 */
export interface GitSlotLimits {
  /** Git processes at once, all users together (`serve --git-processes`). */
  total: number;
  /** Git processes at once for one user (`serve --git-processes-per-user`). */
  perUser: number;
}

/** 32 at once; a quarter of them per user. */
export const DEFAULT_GIT_PROCESSES = 32;
export const defaultPerUser = (total: number): number => Math.max(1, Math.floor(total / 4));

/** Why a slot was not given: every slot is taken, or this user holds their share. */
export type SlotRefusal = 'busy' | 'user_busy';

export class GitSlots {
  private running = 0;
  private readonly byUser = new Map<string, number>();
  readonly limits: GitSlotLimits;

  constructor(limits: Partial<GitSlotLimits> = {}) {
    const total = limits.total ?? DEFAULT_GIT_PROCESSES;
    this.limits = { total, perUser: Math.min(total, limits.perUser ?? defaultPerUser(total)) };
  }

  /** A slot for `user` (a login, or a key for the unauthenticated), with its release; or why not. */
  take(user: string): (() => void) | SlotRefusal {
    const mine = this.byUser.get(user) ?? 0;
    if (this.running >= this.limits.total) return 'busy';
    if (mine >= this.limits.perUser) return 'user_busy';
    this.running += 1;
    this.byUser.set(user, mine + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running -= 1;
      const left = (this.byUser.get(user) ?? 1) - 1;
      if (left <= 0) this.byUser.delete(user);
      else this.byUser.set(user, left);
    };
  }

  /** Runs `work` in a slot of `user`'s, throwing `GitSlotsFull` when none is free. */
  async run<T>(user: string, work: () => Promise<T>): Promise<T> {
    const release = this.take(user);
    if (typeof release === 'string') throw new GitSlotsFull(release, this.limits);
    try {
      return await work();
    } finally {
      release();
    }
  }

  /** Processes running now (for tests and the bench). */
  get inUse(): number {
    return this.running;
  }
}

/** No slot was free: the request is answered 503 (busy) or 429 (this user's share is taken). */
export class GitSlotsFull extends Error {
  constructor(
    readonly reason: SlotRefusal,
    readonly limits: GitSlotLimits,
  ) {
    super(slotRefusalMessage(reason, limits));
  }
}

export function slotRefusalMessage(reason: SlotRefusal, limits: GitSlotLimits): string {
  return reason === 'busy'
    ? 'The code host is busy with other git requests: retry in a moment.'
    : `You have ${limits.perUser} git requests running, the most one user may at once (jst-tracker's --git-processes-per-user): retry when one has ended.`;
}
