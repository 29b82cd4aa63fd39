import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';

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
}

export interface RunningAgent {
  pid: number | null;
  exit: Promise<number>;
}

/** The log of an issue's round: `.jst/dispatch/<KEY>-<round>.log` under the main checkout. */
export const logPath = (jstDir: string, key: string, round: number) => join(jstDir, 'dispatch', `${key}-${round}.log`);

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
 * be started at all ends with exit code 127, as a shell reports an unknown command.
 */
export function startAgent(a: AgentSpec): RunningAgent {
  mkdirSync(dirname(a.log), { recursive: true });
  const fd = openSync(a.log, 'a');
  writeSync(fd, `${a.header}\n`);
  const sh = shellFor(a.command, process.platform, a.env);
  let child;
  try {
    const [file, args] = a.wrap === undefined ? [sh.file, sh.args] : [a.wrap.file, [...a.wrap.args, '--', sh.file, ...sh.args]];
    child = spawn(file, args, {
      cwd: a.cwd,
      env: a.env,
      stdio: ['ignore', fd, fd],
      detached: process.platform !== 'win32',
      windowsVerbatimArguments: sh.verbatim,
      windowsHide: true,
    });
  } catch (e) {
    writeSync(fd, `jst dispatch: the agent could not be started: ${(e as Error).message}\n`);
    closeSync(fd);
    return { pid: null, exit: Promise.resolve(127) };
  }
  closeSync(fd);
  const exit = new Promise<number>((resolve) => {
    child.once('error', (e) => {
      try {
        const f = openSync(a.log, 'a');
        writeSync(f, `jst dispatch: the agent could not be started: ${e.message}\n`);
        closeSync(f);
      } catch {
        /* the exit code says it */
      }
      resolve(127);
    });
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 128 + (signalNumber(signal) ?? 0) : 1)));
  });
  return { pid: child.pid ?? null, exit };
}

const SIGNALS: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGKILL: 9, SIGTERM: 15 };
const signalNumber = (s: string): number | undefined => SIGNALS[s];
