import { AsyncLocalStorage } from 'node:async_hooks';

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
  /** How long the REST interface's and the pages' git work waits for a slot (default 10 s). */
  waitMs: number;
}

/** 32 at once; a quarter of them per user. */
export const DEFAULT_GIT_PROCESSES = 32;
export const defaultPerUser = (total: number): number => Math.max(1, Math.floor(total / 4));

/** How long the REST interface's and the pages' git work waits for a slot before it is refused. */
export const GIT_SLOT_WAIT_MS = 10_000;

interface Waiter {
  user: string;
  give(release: () => void): void;
}

/** Why a slot was not given: every slot is taken, or this user holds their share. */
export type SlotRefusal = 'busy' | 'user_busy';

export class GitSlots {
  private running = 0;
  private readonly byUser = new Map<string, number>();
  private readonly waiters = new Set<Waiter>();
  readonly limits: GitSlotLimits;

  constructor(limits: Partial<GitSlotLimits> = {}) {
    const total = limits.total ?? DEFAULT_GIT_PROCESSES;
    this.limits = { total, perUser: Math.min(total, limits.perUser ?? defaultPerUser(total)), waitMs: limits.waitMs ?? GIT_SLOT_WAIT_MS };
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
      if (this.waiters.size > 0) this.wake();
    };
  }

  /**
   * Runs `work` in a slot of `user`'s, waiting up to `limits.waitMs` for one to be free (the REST
   * interface's and the pages' git work: a user's burst of requests queues behind its own share),
   * then throwing `GitSlotsFull`.
   */
  async run<T>(user: string, work: () => Promise<T>): Promise<T> {
    const release = await this.wait(user, this.limits.waitMs);
    try {
      return await work();
    } finally {
      release();
    }
  }

  private wait(user: string, waitMs: number): Promise<() => void> {
    const got = this.take(user);
    if (typeof got !== 'string') return Promise.resolve(got);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        user,
        give: (release) => {
          clearTimeout(timer);
          resolve(release);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        const again = this.take(user);
        if (typeof again === 'string') reject(new GitSlotsFull(again, this.limits));
        else resolve(again);
      }, waitMs);
      this.waiters.add(waiter);
    });
  }

  /** After a release: the first waiters a slot can now be given to. */
  private wake(): void {
    for (const waiter of this.waiters) {
      const release = this.take(waiter.user);
      if (typeof release === 'string') {
        if (release === 'busy') return;
        continue;
      }
      this.waiters.delete(waiter);
      waiter.give(release);
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

/** Whose git work this is: the server's slots and the signed-in login (set once known). */
interface GitCaller {
  slots: GitSlots;
  login: string;
}

const callers = new AsyncLocalStorage<GitCaller>();

/**
 * Runs a request's handler as a git caller: every git process it starts (../git/run.ts) takes a
 * slot of `slots` for the login set with `setGitCallerLogin` (anonymous until then). Work outside
 * such a handler (the seed, a merge's bookkeeping started by the server) is not counted.
 */
export function runAsGitCaller<T>(slots: GitSlots, login: string, work: () => T): T {
  return callers.run({ slots, login }, work);
}

/** Names the signed-in user of the git caller running now (a page signs its viewer in inside its handler). */
export function setGitCallerLogin(login: string): void {
  const caller = callers.getStore();
  if (caller !== undefined) caller.login = login;
}

/** Runs one git process's `work` in a slot of the current caller's, or as it is outside a caller. */
export function inGitSlot<T>(work: () => Promise<T>): Promise<T> {
  const caller = callers.getStore();
  return caller === undefined ? work() : caller.slots.run(caller.login, work);
}
