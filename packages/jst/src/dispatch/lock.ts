import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { usage } from '../core/errors.js';
import { alive } from './dispatch-journal.js';

/**
 * One `jst dispatch` per checkout (ARCHITECTURE §15): `.jst/dispatch/dispatch.lock`, created with
 * O_EXCL (only one process can create it), holding the pid and start time of the dispatch that
 * holds it. A lock whose pid is gone is stale: it is removed and taken again. Two dispatches would
 * otherwise read the same journal, start two agents for one issue and round, and lose one's update.
 */
export const LOCK_FILE = 'dispatch.lock';

export interface DispatchLock {
  file: string;
  release(): void;
}

interface Holder {
  pid: number;
  startedAt: string;
}

function holderOf(file: string): Holder | null {
  try {
    const h = JSON.parse(readFileSync(file, 'utf8')) as Partial<Holder>;
    return typeof h.pid === 'number' && Number.isInteger(h.pid) && h.pid > 0
      ? { pid: h.pid, startedAt: typeof h.startedAt === 'string' ? h.startedAt : '?' }
      : null;
  } catch {
    return null;
  }
}

export function takeLock(jstDir: string): DispatchLock {
  const dir = join(jstDir, 'dispatch');
  const file = join(dir, LOCK_FILE);
  mkdirSync(dir, { recursive: true });
  for (let tries = 0; ; tries += 1) {
    let fd: number;
    try {
      fd = openSync(file, 'wx', 0o600);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || tries > 0) throw e;
      const holder = holderOf(file);
      // A lock being written this instant has no pid yet: that dispatch is alive.
      if (holder === null || alive(holder.pid)) {
        throw usage(
          'DISPATCH_LOCKED',
          `another jst dispatch runs in this checkout: ${file} is held by pid ${holder?.pid ?? '(being written)'}${holder ? ` since ${holder.startedAt}` : ''}`,
          'Wait for it to end (or stop it with Ctrl-C); a lock whose process is gone is taken over on its own',
        );
      }
      rmSync(file, { force: true });
      continue;
    }
    writeSync(fd, `${JSON.stringify({ pid: process.pid, startedAt: new Date().toISOString() })}\n`);
    closeSync(fd);
    return {
      file,
      release: () => {
        // Only our own lock: a lock taken over after ours was judged stale is not ours to remove.
        if (holderOf(file)?.pid === process.pid) rmSync(file, { force: true });
      },
    };
  }
}
