import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeJsonAtomic } from '@jst/protocol';
import { usage } from '../core/errors.js';
import type { HandOff } from './find.js';

/**
 * `.jst/dispatch-journal.json` (ARCHITECTURE §15): every agent dispatch starts, recorded before it
 * starts, keyed by issue and round. Written whole to a temporary file, fsynced and renamed over the
 * old one (@jst/protocol), so a dispatch killed at any point leaves either the previous journal or
 * the new one, never half.
 */
export interface Attempt {
  startedAt: string;
  /** Set right after the process is spawned; null = dispatch stopped before it knew (outcome unknown). */
  pid: number | null;
  endedAt: string | null;
  /** null while running, or when the dispatch that started it stopped first (outcome unknown). */
  exitCode: number | null;
}

export interface Entry {
  key: string;
  round: number;
  role: 'executor' | 'reviewer';
  handOff: HandOff;
  worktree: string;
  log: string;
  attempts: Attempt[];
}

export interface JournalFile {
  version: 1;
  agents: Record<string, Entry>;
}

export const JOURNAL_FILE = 'dispatch-journal.json';
/** An agent that fails is started once more on a later round, then left for the person. */
export const MAX_ATTEMPTS = 2;

export const entryId = (key: string, round: number) => `${key}#${round}`;

export class Journal {
  private data: JournalFile;
  constructor(
    readonly file: string,
    private readonly write: boolean,
  ) {
    this.data = readJournal(file);
  }

  get(key: string, round: number): Entry | undefined {
    return this.data.agents[entryId(key, round)];
  }

  entries(): Entry[] {
    return Object.values(this.data.agents);
  }

  /** Records an attempt as started (pid unknown yet), on disk, before the process exists. */
  begin(e: Omit<Entry, 'attempts'>): Attempt {
    const id = entryId(e.key, e.round);
    const entry = this.data.agents[id] ?? { ...e, attempts: [] };
    const attempt: Attempt = { startedAt: new Date().toISOString(), pid: null, endedAt: null, exitCode: null };
    entry.attempts.push(attempt);
    this.data.agents[id] = entry;
    this.save();
    return attempt;
  }

  update(): void {
    this.save();
  }

  private save(): void {
    if (!this.write) return;
    writeJsonAtomic(this.file, this.data);
  }
}

/** The journal on disk; a missing file is an empty journal, an unreadable one a stop (never silently reset). */
export function readJournal(file: string): JournalFile {
  if (!existsSync(file)) return { version: 1, agents: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw usage(
      'DISPATCH_JOURNAL',
      `${file} is not valid JSON (${(e as Error).message})`,
      'Nothing was started. Move it away to start over: dispatch may then start an agent a second time for an issue and round it listed',
    );
  }
  const agents = (parsed as { agents?: unknown }).agents;
  if (typeof parsed !== 'object' || parsed === null || typeof agents !== 'object' || agents === null) {
    throw usage(
      'DISPATCH_JOURNAL',
      `${file} has no "agents" object`,
      'Nothing was started. Move it away to start over: dispatch may then start an agent a second time for an issue and round it listed',
    );
  }
  return { version: 1, agents: agents as Record<string, Entry> };
}

export const journalPath = (jstDir: string) => join(jstDir, JOURNAL_FILE);

/**
 * Whether a process lives (signal 0 checks without sending anything). On Linux an exited process
 * nobody has reaped yet (a zombie, e.g. an orphaned agent under an init that does not reap) is gone.
 */
export function alive(pid: number | null): boolean {
  if (pid === null) return false;
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  if (process.platform !== 'linux') return true;
  try {
    return !/^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

export type AttemptState = 'running' | 'succeeded' | 'failed' | 'unknown';

/** An attempt as a later round sees it: a process that is gone without a recorded exit is "unknown" (counted as failed). */
export function stateOf(a: Attempt, ownRunning: boolean): AttemptState {
  if (a.exitCode !== null) return a.exitCode === 0 ? 'succeeded' : 'failed';
  if (ownRunning || alive(a.pid)) return 'running';
  return 'unknown';
}
