import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { JstError } from '../core/errors.js';
import { forgetReads } from './reads.js';

/** Options every git call accepts: the environment the process starts from (default `process.env`). */
export interface GitOptions {
  env?: NodeJS.ProcessEnv | undefined;
}

export interface GitResult {
  stdout: string;
  stderr: string;
  /** The exit status; only statuses listed in `okCodes` come back here, others throw. */
  code: number;
}

/** A git command that failed: names the command, the folder and git's own words. */
export class GitError extends JstError {
  constructor(
    readonly args: readonly string[],
    readonly cwd: string | undefined,
    readonly exitStatus: number | null,
    readonly stderr: string,
    code = 'GIT_FAILED',
    hint?: string,
  ) {
    const where = cwd === undefined ? '' : ` in ${cwd}`;
    const said = stderr.trim() === '' ? '' : `: ${stderr.trim().split('\n').slice(0, 6).join(' | ')}`;
    const status = exitStatus === null ? '' : ` (exit ${exitStatus})`;
    // Runtime failures of git are not usage errors, so they end a run with 1, not 2.
    super({ code, problem: `git ${args.join(' ')} failed${status}${where}${said}`, hint, exitCode: 1 });
    this.name = 'GitError';
  }
}

let spawned = 0;

/** How many git processes this module has started: a benchmark reports it next to the time taken. */
export function gitProcessCount(): number {
  return spawned;
}

export function resetGitProcessCount(): void {
  spawned = 0;
}

/**
 * Runs `git <args>` without a shell. Output is read in the C locale so messages can be matched,
 * and no terminal prompt may ever block a run (a credential prompt would hang a non-interactive
 * plan forever); a missing credential fails fast instead.
 */
export function runGit(
  args: readonly string[],
  cwd: string | undefined,
  o: GitOptions & { okCodes?: readonly number[]; keptRead?: boolean; changesOnlyRefs?: boolean } = {},
): Promise<GitResult> {
  // Anything but one of the kept reads (git/reads.ts) may change what they read.
  if (o.keptRead !== true) forgetReads(o.changesOnlyRefs === true ? 'refs' : undefined);
  const env = { ...(o.env ?? process.env), GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' };
  const okCodes = o.okCodes ?? [0];
  spawned++;
  return new Promise((resolve, reject) => {
    execFile('git', [...args], { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, windowsHide: true }, (error, stdout, stderr) => {
      const err = error as (NodeJS.ErrnoException & { code?: string | number }) | null;
      if (err !== null && err.code === 'ENOENT') {
        // spawn reports a missing folder exactly like a missing program; tell the two apart.
        if (cwd !== undefined && !existsSync(cwd)) reject(new GitError(args, cwd, null, 'the folder does not exist', 'GIT_NO_FOLDER'));
        else reject(new GitError(args, cwd, null, 'git was not found on PATH', 'GIT_NOT_FOUND', 'Install git and make sure it is on PATH'));
        return;
      }
      const code = err === null ? 0 : typeof err.code === 'number' ? err.code : -1;
      if (!okCodes.includes(code)) {
        reject(new GitError(args, cwd, code, stderr || (err?.message ?? '')));
        return;
      }
      resolve({ stdout: stdout.trim(), stderr: stderr.trim(), code });
    });
  });
}
