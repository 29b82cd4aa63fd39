import { spawn } from 'node:child_process';
import { GitCommandError } from './errors.js';
import { inGitSlot } from './slots.js';
import { spawnThroughHelper, type SpawnAnswer, type SpawnFailure, type SpawnRequest } from './spawner.js';

/**
 * The environment every git child gets, built from nothing: the server's own environment may hold
 * secrets (database URLs, tokens) and GIT_* variables (GIT_DIR inside a hook) that would change
 * what git does, so only PATH is carried over. No user or system configuration is read, so a
 * global hook, signing or alias on the host cannot change a merge.
 */
export function minimalGitEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: '/nonexistent',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
    GIT_ATTR_NOSYSTEM: '1',
    LC_ALL: 'C',
    ...extra,
  };
}

export interface RunOptions {
  /** Bytes written to git's standard input (then closed). */
  input?: Buffer | string;
  /** Extra environment (author and committer identities). */
  env?: Record<string, string>;
  timeoutMs: number;
  /** Exit codes that are answers, not failures (merge-base --is-ancestor's 1). */
  okCodes?: number[];
  /** Output beyond this is a failure: no answer is used half-read. */
  maxOutputBytes?: number;
  /** Output beyond maxOutputBytes stops git and answers `overflowed` (what was read is dropped) instead of failing. */
  stopAtMax?: boolean;
}

export interface RunResult {
  code: number;
  stdout: Buffer;
  stderr: string;
  /** Set (with an empty stdout) when `stopAtMax` stopped git at maxOutputBytes. */
  overflowed?: boolean;
}

const DEFAULT_MAX_OUTPUT = 64 * 1024 * 1024;

/** Whose git process: the code host's REST and pages (`codehost`), or the git front's service (`front`, ./relay.ts). */
export type GitProcessOf = 'codehost' | 'front';

const watchers = new Map<(args: readonly string[]) => void, { front: boolean }>();

/**
 * Watches the git processes this process starts for the code host's REST and pages (runGit and
 * compare's streamed diff), and with `front` also the git front's (one upload-pack or receive-pack
 * per git-over-HTTP request): each watcher is told the arguments. Tests count them (a read served
 * from the database runs none); the benchmark reports them. Returns the unwatch.
 */
export function watchGitProcesses(watcher: (args: readonly string[]) => void, options: { front?: boolean } = {}): () => void {
  watchers.set(watcher, { front: options.front === true });
  return () => watchers.delete(watcher);
}

/** Tells the watchers of one git process about to start. */
export function noteGitProcess(args: readonly string[], of: GitProcessOf = 'codehost'): void {
  for (const [w, o] of watchers) if (of === 'codehost' || o.front) w(args);
}

/** Runs `git --git-dir=<gitDir> ARGS`, bounded in time and bytes. */
export function runGit(gitDir: string | null, args: string[], o: RunOptions): Promise<RunResult> {
  // One process, one slot of the request's (./slots.ts): the pages' and REST's git work shares the cap with git over HTTP.
  return inGitSlot(() => spawnGit(gitDir, args, o));
}

function spawnGit(gitDir: string | null, args: string[], o: RunOptions): Promise<RunResult> {
  const fullArgs = gitDir === null ? args : [`--git-dir=${gitDir}`, ...args];
  noteGitProcess(args);
  const request: SpawnRequest = {
    args: fullArgs,
    env: minimalGitEnv(o.env),
    input: o.input ?? '',
    max: o.maxOutputBytes ?? DEFAULT_MAX_OUTPUT,
    stopAtMax: o.stopAtMax === true,
    timeoutMs: o.timeoutMs,
  };
  return (process.env.JST_GIT_HELPER === 'off' ? spawnHere(request) : spawnThroughHelper(request)).then((a) => resultOf(args, o, request.max, a));
}

/** A helper's (or this process's own) answer as runGit's: the result, or why git failed. */
function resultOf(args: string[], o: RunOptions, max: number, a: SpawnAnswer): RunResult {
  const f = a.failure;
  if (f !== null) {
    if (f.kind === 'timeout') throw new GitCommandError(`${args[0]} (timed out after ${o.timeoutMs} ms)`, null, a.stderr);
    if (f.kind === 'overflow') throw new GitCommandError(`${args[0]} (output over ${max} bytes)`, null, a.stderr);
    if (f.kind === 'helper') throw new GitCommandError(`${args[0]} (${f.message})`, null, a.stderr);
    throw Object.assign(new Error(f.message), f.code === undefined ? {} : { code: f.code });
  }
  if (a.overflowed) return { code: -1, stdout: Buffer.alloc(0), stderr: a.stderr, overflowed: true };
  const c = a.code ?? -1;
  if (c !== 0 && !(o.okCodes ?? []).includes(c)) throw new GitCommandError(args[0] ?? '', a.code, a.stderr);
  return { code: c, stdout: a.stdout, stderr: a.stderr };
}

/**
 * The same work in this process (`JST_GIT_HELPER=off`: a benchmark's before and after in one build,
 * or a host where a second Node.js process is not wanted): fork() from the server itself.
 */
function spawnHere(r: SpawnRequest): Promise<SpawnAnswer> {
  return new Promise((resolve) => {
    const child = spawn('git', r.args, { env: r.env, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let outBytes = 0;
    let err = '';
    let failure: SpawnFailure | null = null;
    let overflowed = false;
    const fail = (f: SpawnFailure) => {
      if (failure === null) failure = f;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => fail({ kind: 'timeout' }), r.timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      if (overflowed) return;
      outBytes += chunk.length;
      if (outBytes <= r.max) out.push(chunk);
      else if (r.stopAtMax) {
        overflowed = true;
        out.length = 0;
        child.kill('SIGKILL');
      } else fail({ kind: 'overflow' });
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (err.length < 16_384) err += chunk.toString('utf8');
    });
    child.on('error', (e: NodeJS.ErrnoException) => fail({ kind: 'spawn', message: e.message, code: e.code }));
    child.stdin.on('error', () => {
      /* git may exit before reading all input; its exit code tells */
    });
    child.stdin.end(r.input);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: failure === null && !overflowed ? Buffer.concat(out) : Buffer.alloc(0), stderr: err, overflowed, failure });
    });
  });
}

let versionCheck: Promise<void> | null = null;

/** The oldest git whose `merge-tree --write-tree` the merges rely on. */
export const MIN_GIT_VERSION: readonly [number, number] = [2, 38];

/** Checks once per process that the installed git is new enough; a clear error otherwise. */
export function requireGitVersion(): Promise<void> {
  versionCheck ??= (async () => {
    let text: string;
    try {
      text = (await runGit(null, ['version'], { timeoutMs: 10_000 })).stdout.toString('utf8');
    } catch (e) {
      throw new Error(`The code host needs git ${MIN_GIT_VERSION.join('.')} or newer on PATH, and running \`git version\` failed: ${(e as Error).message}`, {
        cause: e,
      });
    }
    const m = /git version (\d+)\.(\d+)/.exec(text);
    const major = Number(m?.[1] ?? 0);
    const minor = Number(m?.[2] ?? 0);
    if (major < MIN_GIT_VERSION[0] || (major === MIN_GIT_VERSION[0] && minor < MIN_GIT_VERSION[1])) {
      throw new Error(
        `The code host needs git ${MIN_GIT_VERSION.join('.')} or newer (for \`git merge-tree --write-tree\`); ` +
          `found "${text.trim()}". Install a newer git and restart jst-tracker.`,
      );
    }
  })();
  versionCheck.catch(() => {
    versionCheck = null;
  });
  return versionCheck;
}
