import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { usage } from '../core/errors.js';

/**
 * One agent process (ARCHITECTURE §15): the team's command for the role, through the platform's
 * shell (`sh -c`, or `cmd /d /s /c` on Windows), in the worktree, with the issue in its
 * environment and its output (stdout and stderr) appended to its log file.
 */
export interface AgentSpec {
  command: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  log: string;
  /** A header line written to the log before the agent's own output. */
  header: string;
  /** The sandbox the shell runs in (dispatch/sandbox.ts): its program and arguments, before `--`. */
  wrap?: { file: string; args: readonly string[] } | undefined;
  /** Milliseconds it may run (AGENT_TIMEOUT_MINUTES); then its process group is stopped. */
  timeoutMs?: number | undefined;
}

export interface RunningAgent {
  pid: number | null;
  /**
   * Lets the command run: until then the shell waits on its standard input, and if this process
   * dies first (the pipe ends unread) the shell exits with NOT_STARTED without running the command.
   * The caller journals the pid in between, so no agent ever runs whose pid the journal lacks.
   */
  go(): void;
  exit: Promise<number>;
  /** Whether it was stopped for running past its time limit. */
  timedOut(): boolean;
}

/** The most AGENT_TIMEOUT_MINUTES may say: a day. */
export const MAX_TIMEOUT_MINUTES = 1440;

/** AGENT_TIMEOUT_MINUTES: minutes, more than 0 and at most a day; fractions allowed (0.5 is 30 s). Default 60. */
export function timeoutOf(value: string | undefined): number {
  if (value === undefined || value === '') return 60 * 60_000;
  const minutes = /^\d+(\.\d+)?$/.test(value) ? Number(value) : NaN;
  if (!(minutes > 0 && minutes <= MAX_TIMEOUT_MINUTES)) {
    throw usage(
      'CONFIG',
      `AGENT_TIMEOUT_MINUTES must be a number of minutes above 0 and at most ${MAX_TIMEOUT_MINUTES} (got ${JSON.stringify(value)})`,
      'e.g. AGENT_TIMEOUT_MINUTES=60 in .jst/team.env (the default)',
    );
  }
  return Math.round(minutes * 60_000);
}

/** After SIGTERM, how long an agent's processes get to end before SIGKILL. */
export const KILL_GRACE_MS = 5_000;

/** The log of an issue's round: `.jst/dispatch/<KEY>-<round>.log` under the main checkout. */
export const logPath = (jstDir: string, key: string, round: number) => join(jstDir, 'dispatch', `${key}-${round}.log`);

/** The exit code of an agent whose dispatch died before letting it run (RunningAgent.go): its command never ran. */
export const NOT_STARTED = 125;

/**
 * The command behind the shell's first lines (not on Windows): wait for dispatch's go on standard
 * input, or leave at its end; then standard input is /dev/null, as an agent's always was.
 */
export const gated = (command: string) => `read -r _jst_go || exit ${NOT_STARTED}\nexec </dev/null\n${command}`;

/** The platform's shell and its arguments for a command line. */
export function shellFor(
  command: string,
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
): { file: string; args: string[]; verbatim: boolean } {
  if (platform === 'win32') return { file: env.ComSpec ?? 'cmd.exe', args: ['/d', '/s', '/c', `"${command}"`], verbatim: true };
  return { file: '/bin/sh', args: ['-c', command], verbatim: false };
}

/**
 * Starts the agent. It runs in a process group of its own (not on Windows), so a Ctrl-C meant for
 * dispatch does not reach it: dispatch stops starting agents and waits for it. A command that cannot
 * be started at all ends with exit code 127, as a shell reports an unknown command. Its command runs
 * once the caller says go (RunningAgent.go; at once on Windows).
 */
export function startAgent(a: AgentSpec): RunningAgent {
  mkdirSync(dirname(a.log), { recursive: true });
  const fd = openSync(a.log, 'a');
  writeSync(fd, `${a.header}\n`);
  const gate = process.platform !== 'win32';
  const sh = shellFor(gate ? gated(a.command) : a.command, process.platform, a.env);
  let child;
  try {
    const [file, args] = a.wrap === undefined ? [sh.file, sh.args] : [a.wrap.file, [...a.wrap.args, '--', sh.file, ...sh.args]];
    child = spawn(file, args, {
      cwd: a.cwd,
      env: a.env,
      stdio: [gate ? 'pipe' : 'ignore', fd, fd],
      detached: process.platform !== 'win32',
      windowsVerbatimArguments: sh.verbatim,
      windowsHide: true,
    });
  } catch (e) {
    writeSync(fd, `jst dispatch: the agent could not be started: ${(e as Error).message}\n`);
    closeSync(fd);
    return { pid: null, go: () => undefined, exit: Promise.resolve(127), timedOut: () => false };
  }
  closeSync(fd);
  const go = child.stdin;
  go?.on('error', () => {
    /* the shell is gone already: its exit says how */
  });
  let timedOut = false;
  let graceTimer: NodeJS.Timeout | undefined;
  const limitTimer =
    a.timeoutMs === undefined || child.pid === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          note(
            a.log,
            `jst dispatch: the agent ran past its time limit (AGENT_TIMEOUT_MINUTES): SIGTERM to its processes, SIGKILL in ${KILL_GRACE_MS / 1000} s`,
          );
          killGroup(child.pid!, 'SIGTERM');
          graceTimer = setTimeout(() => killGroup(child.pid!, 'SIGKILL'), KILL_GRACE_MS);
        }, a.timeoutMs);
  const exit = new Promise<number>((resolve) => {
    child.once('error', (e) => {
      note(a.log, `jst dispatch: the agent could not be started: ${e.message}`);
      resolve(127);
    });
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 128 + (signalNumber(signal) ?? 0) : 1)));
  }).then(async (code) => {
    clearTimeout(limitTimer);
    // The shell is gone; what it started may not be (an agent that ignores SIGTERM): SIGKILL on time.
    if (timedOut && graceTimer !== undefined) {
      await new Promise((r) => setTimeout(r, 200));
      if (groupAlive(child.pid!)) killGroup(child.pid!, 'SIGKILL');
      clearTimeout(graceTimer);
    }
    return code;
  });
  return { pid: child.pid ?? null, go: () => go?.end('go\n'), exit, timedOut: () => timedOut };
}

/** A line in the agent's log; a log that cannot be written loses it (the exit code says what happened). */
function note(log: string, line: string): void {
  try {
    const f = openSync(log, 'a');
    writeSync(f, `${line}\n`);
    closeSync(f);
  } catch {
    /* the exit code says it */
  }
}

/** Signals the agent's whole process group (it was started detached: its pid is the group's id). */
function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(process.platform === 'win32' ? pid : -pid, signal);
  } catch {
    /* already gone */
  }
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(process.platform === 'win32' ? pid : -pid, 0);
    return true;
  } catch {
    return false;
  }
}

const SIGNALS: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGKILL: 9, SIGTERM: 15 };
const signalNumber = (s: string): number | undefined => SIGNALS[s];
