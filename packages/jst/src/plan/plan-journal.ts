import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeJsonAtomic } from '@jst/protocol';
import { JstError } from '../config/index.js';

/**
 * What the journal knows about one step of a run. `failed`: the step threw (`error` says why);
 * `refused`: the tracker answered it 4xx, so that step's call changed nothing there.
 */
export interface StepRecord {
  state: 'started' | 'done' | 'failed';
  result?: Record<string, string>;
  error?: string;
  refused?: boolean;
}

export interface JournalData {
  runId: string;
  /** A hash of the settled plan: a rerun must be the same plan to resume it. */
  planHash: string;
  startedAt: string;
  /** The settled plan, so a rerun can finish the run without asking the questions again. */
  plan: unknown;
  steps: Record<string, StepRecord>;
  /** A corrected plan was adopted after creation began (the parent's description is written again). */
  amended?: boolean;
  /** `jst plan --abandon` began deleting what the run made: only `--abandon` may go on with it. */
  abandoning?: boolean;
}

export const JOURNAL_FILE = 'plan-journal.json';

/**
 * The plan journal under `.jst/` (issue 6 "Safety"): every step is recorded before and after it
 * runs, written atomically (temp file, fsync, rename), so a run killed at any point can be finished
 * by a rerun. Removed when the run completes.
 */
export class Journal {
  private constructor(
    readonly file: string,
    private data: JournalData,
    private readonly onWrite?: () => void,
  ) {}

  /** The unfinished run recorded under `.jst/`, if any. */
  static pending(jstDir: string): JournalData | null {
    const file = join(jstDir, JOURNAL_FILE);
    if (!existsSync(file)) return null;
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as JournalData;
    } catch {
      throw new JstError({
        code: 'JOURNAL',
        problem: `the plan journal ${file} is unreadable`,
        hint: 'Check what the interrupted run created (issues, branches, worktrees), then delete the file and rerun',
      });
    }
  }

  /**
   * Resumes the recorded run for this plan, or starts a new one. A different plan resumes it only
   * when `difference` finds none that matters (a corrected plan, ARCHITECTURE §7): it is adopted
   * as the run's plan. Any other plan's unfinished run is a stop naming the difference.
   */
  static open(
    jstDir: string,
    runId: string,
    planHash: string,
    plan: unknown,
    onWrite?: () => void,
    difference?: (recorded: JournalData) => string | null,
  ): { journal: Journal; resumed: boolean } {
    const file = join(jstDir, JOURNAL_FILE);
    const data = Journal.pending(jstDir);
    if (data) {
      if (data.abandoning) throw abandonUnderWay(data, file);
      if (data.planHash !== planHash) {
        const diff = difference ? difference(data) : 'it is for a different request';
        if (diff !== null) {
          throw new JstError({
            code: 'JOURNAL',
            problem: `an unfinished plan run (${data.runId}, started ${data.startedAt}) is recorded in ${file}, and this plan cannot finish it: ${diff}`,
            hint: 'Rerun jst plan with no request (or the same plan) to finish it, or jst plan --abandon to delete what it made',
          });
        }
        const journal = new Journal(file, { ...data, planHash, plan, amended: data.amended === true || madeIssue(data, 'top') }, onWrite);
        delete journal.data.steps['top:describe'];
        journal.flush();
        return { journal, resumed: true };
      }
      return { journal: new Journal(file, data, onWrite), resumed: true };
    }
    return { journal: new Journal(file, { runId, planHash, startedAt: new Date().toISOString(), plan, steps: {} }, onWrite), resumed: false };
  }

  get runId(): string {
    return this.data.runId;
  }

  get(step: string): StepRecord | undefined {
    return this.data.steps[step];
  }

  started(step: string): void {
    this.data.steps[step] = { state: 'started' };
    this.flush();
  }

  done(step: string, result: Record<string, string> = {}): void {
    this.data.steps[step] = { state: 'done', result };
    this.flush();
  }

  failed(step: string, error: string, refused: boolean): void {
    this.data.steps[step] = { state: 'failed', error, ...(refused ? { refused } : {}) };
    this.flush();
  }

  /** A corrected plan was adopted after creation began. */
  get amended(): boolean {
    return this.data.amended === true;
  }

  /** The run finished: nothing is left to resume. */
  finish(): void {
    rmSync(this.file, { force: true });
  }

  /** `jst plan --abandon` takes the run over: from now on only it may go on. */
  static markAbandoning(jstDir: string): void {
    const data = Journal.pending(jstDir);
    if (!data || data.abandoning) return;
    new Journal(join(jstDir, JOURNAL_FILE), { ...data, abandoning: true }).flush();
  }

  private flush(): void {
    writeJsonAtomic(this.file, this.data);
    this.onWrite?.();
  }
}

/** The step `<item>:issue` may have created its issue: it ran, and the tracker did not refuse it. */
export function madeIssue(data: JournalData, item: string): boolean {
  const rec = data.steps[`${item}:issue`];
  return rec !== undefined && !(rec.state === 'failed' && rec.refused === true);
}

/** The stop for `jst plan` while `jst plan --abandon` has begun deleting what the run made. */
export function abandonUnderWay(data: JournalData, file: string): JstError {
  return new JstError({
    code: 'JOURNAL',
    problem: `the unfinished plan run ${data.runId} recorded in ${file} is being abandoned (jst plan --abandon began deleting what it made)`,
    hint: 'Finish that first: jst plan --abandon --yes',
  });
}

/** Where completed plans are remembered (matched by `plan-journal*` in `.jst/.gitignore`, never copied into a worktree). */
export const LEDGER_FILE = 'plan-journal.done.json';

/** What a completed plan made, under the hash of what was asked (ARCHITECTURE §13 "Plans are not repeated by accident"). */
export interface CompletedPlan {
  requestHash: string;
  finishedAt: string;
  keys: string[];
  branches: string[];
  worktrees: string[];
  report: string;
  handOff: string[];
}

function readLedger(jstDir: string): CompletedPlan[] {
  const file = join(jstDir, LEDGER_FILE);
  if (!existsSync(file)) return [];
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as { plans?: unknown };
    return Array.isArray(data.plans) ? (data.plans as CompletedPlan[]) : [];
  } catch {
    throw new JstError({
      code: 'JOURNAL',
      problem: `the record of completed plans ${file} is unreadable`,
      hint: 'Delete the file (it only stops a completed plan from being made twice), then rerun',
    });
  }
}

/** The newest completed run of the same request, if any. */
export function completedPlan(jstDir: string, requestHash: string): CompletedPlan | null {
  return (
    readLedger(jstDir)
      .filter((p) => p.requestHash === requestHash)
      .at(-1) ?? null
  );
}

/** Records a completed run, written atomically as the journal is; the newest 200 are kept. */
export function recordCompleted(jstDir: string, plan: CompletedPlan): void {
  const file = join(jstDir, LEDGER_FILE);
  const plans = [...readLedger(jstDir), plan].slice(-200);
  writeJsonAtomic(file, { plans });
}
