import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
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

const MOVE_AWAY = 'Nothing was started. Move it away to start over: dispatch may then start an agent a second time for an issue and round it listed';

/** The journal on disk; a missing file is an empty journal, an unreadable one a stop (never silently reset). */
export function readJournal(file: string): JournalFile {
  if (!existsSync(file)) return { version: 1, agents: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw usage('DISPATCH_JOURNAL', `${file} is not valid JSON (${(e as Error).message})`, MOVE_AWAY);
  }
  const agents = (parsed as { agents?: unknown }).agents;
  if (typeof parsed !== 'object' || parsed === null || typeof agents !== 'object' || agents === null || Array.isArray(agents)) {
    throw usage('DISPATCH_JOURNAL', `${file} has no "agents" object`, MOVE_AWAY);
  }
  const logs = resolve(dirname(file), 'dispatch');
  for (const [id, entry] of Object.entries(agents as Record<string, unknown>)) {
    const bad = entryProblem(id, entry, logs);
    if (bad) throw usage('DISPATCH_JOURNAL', `${file}: the entry "${id}" ${bad}`, MOVE_AWAY);
  }
  return { version: 1, agents: agents as Record<string, Entry> };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const nullOr = (v: unknown, t: 'string' | 'number') => v === null || typeof v === t;

/**
 * What is wrong with one journal entry, or null (ARCHITECTURE §15): the shape dispatch writes, its id
 * `KEY#round`, and a log under `.jst/dispatch/` (dispatch appends to it: a log path elsewhere would
 * let whoever edits the journal have dispatch write to any file).
 */
function entryProblem(id: string, e: unknown, logs: string): string | null {
  if (!isObject(e)) return `is ${e === null ? 'null' : typeof e}, not an object`;
  if (typeof e.key !== 'string' || !Number.isInteger(e.round) || entryId(e.key, e.round as number) !== id)
    return 'has no "key" and whole "round" matching its name (KEY#round)';
  if (e.role !== 'executor' && e.role !== 'reviewer') return 'has a "role" that is neither executor nor reviewer';
  if (typeof e.handOff !== 'string' || typeof e.worktree !== 'string') return 'has no "handOff" or "worktree" string';
  if (typeof e.log !== 'string' || !isAbsolute(e.log) || dirname(resolve(e.log)) !== logs) return `has a "log" outside ${logs}`;
  if (!Array.isArray(e.attempts)) return 'has no "attempts" list';
  for (const [i, a] of e.attempts.entries()) {
    if (!isObject(a) || typeof a.startedAt !== 'string' || !nullOr(a.pid, 'number') || !nullOr(a.endedAt, 'string') || !nullOr(a.exitCode, 'number'))
      return `has an attempt (${i + 1}) that is not { startedAt, pid, endedAt, exitCode }`;
  }
  return null;
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
