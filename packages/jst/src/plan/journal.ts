import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync, rmSync, openSync, fsyncSync, closeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { JstError } from '../config/index.js';

/** What the journal knows about one step of a run. */
export interface StepRecord { state: 'started' | 'done'; result?: Record<string, string> }

export interface JournalData {
  runId: string;
  /** A hash of the settled plan: a rerun must be the same plan to resume it. */
  planHash: string;
  startedAt: string;
  /** The settled plan, so a rerun can finish the run without asking the questions again. */
  plan: unknown;
  steps: Record<string, StepRecord>;
}

export const JOURNAL_FILE = 'plan-journal.json';

/**
 * The plan journal under `.jst/` (issue 6 "Safety"): every step is recorded before and after it
 * runs, written atomically (temp file, fsync, rename), so a run killed at any point can be finished
 * by a rerun. Removed when the run completes.
 */
export class Journal {
  private constructor(readonly file: string, private data: JournalData, private readonly onWrite?: () => void) {}

  /** The unfinished run recorded under `.jst/`, if any. */
  static pending(jstDir: string): JournalData | null {
    const file = join(jstDir, JOURNAL_FILE);
    if (!existsSync(file)) return null;
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as JournalData;
    } catch {
      throw new JstError({ code: 'JOURNAL', problem: `the plan journal ${file} is unreadable`, hint: 'Check what the interrupted run created (issues, branches, worktrees), then delete the file and rerun' });
    }
  }

  /** Resumes the recorded run for this plan, or starts a new one; another plan's unfinished run is a stop. */
  static open(jstDir: string, runId: string, planHash: string, plan: unknown, onWrite?: () => void): { journal: Journal; resumed: boolean } {
    const file = join(jstDir, JOURNAL_FILE);
    const data = Journal.pending(jstDir);
    if (data) {
      if (data.planHash !== planHash) {
        throw new JstError({ code: 'JOURNAL', problem: `an unfinished plan run (${data.runId}, started ${data.startedAt}) is recorded in ${file} for a different request`, hint: 'Rerun jst plan with no request (or the same one) to finish it, or delete the file to abandon it (what it created stays)' });
      }
      return { journal: new Journal(file, data, onWrite), resumed: true };
    }
    return { journal: new Journal(file, { runId, planHash, startedAt: new Date().toISOString(), plan, steps: {} }, onWrite), resumed: false };
  }

  get runId(): string { return this.data.runId; }

  get(step: string): StepRecord | undefined { return this.data.steps[step]; }

  started(step: string): void { this.data.steps[step] = { state: 'started' }; this.flush(); }

  done(step: string, result: Record<string, string> = {}): void { this.data.steps[step] = { state: 'done', result }; this.flush(); }

  /** The run finished: nothing is left to resume. */
  finish(): void { rmSync(this.file, { force: true }); }

  private flush(): void {
    mkdirSync(dirname(this.file), { recursive: true });
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(this.data, null, 2)}\n`);
    const fd = openSync(tmp, 'r');
    try { fsyncSync(fd); } finally { closeSync(fd); }
    renameSync(tmp, this.file);
    this.onWrite?.();
  }
}

/** Where completed plans are remembered (matched by `plan-journal*` in `.jst/.gitignore`, never copied into a worktree). */
export const LEDGER_FILE = 'plan-journal.done.json';

/** What a completed plan made, under the hash of what was asked (ARCHITECTURE §13 "Plans are not repeated by accident"). */
export interface CompletedPlan { requestHash: string; finishedAt: string; keys: string[]; branches: string[]; worktrees: string[]; report: string; handOff: string[] }

function readLedger(jstDir: string): CompletedPlan[] {
  const file = join(jstDir, LEDGER_FILE);
  if (!existsSync(file)) return [];
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as { plans?: unknown };
    return Array.isArray(data.plans) ? (data.plans as CompletedPlan[]) : [];
  } catch {
    throw new JstError({ code: 'JOURNAL', problem: `the record of completed plans ${file} is unreadable`, hint: 'Delete the file (it only stops a completed plan from being made twice), then rerun' });
  }
}

/** The newest completed run of the same request, if any. */
export function completedPlan(jstDir: string, requestHash: string): CompletedPlan | null {
  return readLedger(jstDir).filter((p) => p.requestHash === requestHash).at(-1) ?? null;
}

/** Records a completed run, written atomically as the journal is; the newest 200 are kept. */
export function recordCompleted(jstDir: string, plan: CompletedPlan): void {
  const file = join(jstDir, LEDGER_FILE);
  const plans = [...readLedger(jstDir), plan].slice(-200);
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, `${JSON.stringify({ plans }, null, 2)}\n`);
  renameSync(tmp, file);
}
