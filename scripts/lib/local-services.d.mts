import type { ChildProcess } from 'node:child_process';

export interface TempDatabase {
  /** The database's name (`<prefix>_…`). */
  name: string;
  /** A connection URL for it (the admin URL with its path replaced). */
  url: string;
  drop(): Promise<void>;
}

export function createTempDatabase(adminUrl: string, prefix: string): Promise<TempDatabase>;
export function freePort(): Promise<number>;

export interface ReadyProcess {
  proc: ChildProcess;
  /** Everything it printed so far (stdout and stderr). */
  output: string[];
  /** Settles when the process has exited. */
  exited: Promise<void>;
  /** The ready line's match; rejects when the process exits first or times out (it is then killed). */
  ready: Promise<RegExpExecArray>;
}

export function spawnUntilReady(
  command: string,
  args: string[],
  readyLine: RegExp,
  options?: { name?: string; cwd?: string; env?: Record<string, string>; timeoutMs?: number },
): ReadyProcess;
export function stopProcess(proc: ChildProcess, graceMs?: number): Promise<void>;
