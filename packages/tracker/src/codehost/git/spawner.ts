import { spawn, type ChildProcess } from 'node:child_process';

/**
 * The git processes of the code host's REST interface and pages, started by a small helper process
 * rather than by the server itself (ARCHITECTURE §14 "its writes from one git conversation": as few
 * process starts as git allows, and those cheap).
 *
 * Why: Node.js starts a child with fork(), whose cost grows with the parent's memory (its page
 * tables are copied), and it runs on the server's event loop, where nothing else is served
 * meanwhile. Measured on 2026-11-28 on a 2-vCPU machine, `spawnSync('/bin/true')` from a Node.js
 * process of 42 MB RSS took 1.7 ms, of 143 MB 8.0 ms, of 343 MB 17.9 ms; a serving tracker holds
 * 150–200 MB, a test worker with servers in it up to 600 MB. The helper is a Node.js process that
 * loads nothing but child_process (~40 MB), so each git it starts costs what it costs from a small
 * process, and the server's loop only sends a message.
 *
 * One helper per process, shared by every server in it, started on first use and kept (it does not
 * keep the process alive while no git runs). It runs exactly what it is sent, as runGit would: the
 * environment given (nothing of the server's own), the same time limit, output cap and kill. When
 * it cannot start or it dies, the questions waiting fail as git failures and the next one starts a
 * new helper; a helper whose parent is gone (even by SIGKILL) kills its git processes and exits.
 */

/** What the helper is asked: one git process, run to its end. */
export interface SpawnRequest {
  args: readonly string[];
  env: NodeJS.ProcessEnv;
  input: Buffer | string;
  /** Output bytes kept; beyond them git is stopped. */
  max: number;
  /** Beyond `max`: answer `overflowed` (true) or fail (false). */
  stopAtMax: boolean;
  timeoutMs: number;
}

/** Why the helper stopped git, or could not start it. */
export type SpawnFailure =
  { kind: 'timeout' } | { kind: 'overflow' } | { kind: 'spawn'; message: string; code?: string | undefined } | { kind: 'helper'; message: string };

/** What became of it. */
export interface SpawnAnswer {
  code: number | null;
  stdout: Buffer;
  stderr: string;
  overflowed: boolean;
  failure: SpawnFailure | null;
}

/**
 * The helper's program, run with `node -e` (CommonJS, nothing but child_process): no file to find
 * beside the server's, in a clone, the tarball's single-file bundle or the tests' sources alike. It
 * names itself for `ps` and `top` (its command line is otherwise this whole text).
 */
const HELPER_SOURCE = String.raw`'use strict';
process.title = 'jst-tracker git helper';
const { spawn } = require('node:child_process');
const running = new Map();
const send = (m) => { if (process.connected) process.send(m); };
process.on('message', (m) => {
  if (!m || m.t !== 'run') return;
  const id = m.id;
  let child;
  try {
    child = spawn('git', m.args, { env: m.env, stdio: ['pipe', 'pipe', 'pipe'] });
  } catch (e) {
    send({ id, code: null, stdout: null, stderr: '', overflowed: false, failure: { kind: 'spawn', message: String(e && e.message), code: e && e.code } });
    return;
  }
  running.set(id, child);
  const out = [];
  let outBytes = 0, err = '', failure = null, overflowed = false;
  const fail = (f) => { if (failure === null) failure = f; child.kill('SIGKILL'); };
  const timer = setTimeout(() => fail({ kind: 'timeout' }), m.timeoutMs);
  child.stdout.on('data', (c) => {
    if (overflowed) return;
    outBytes += c.length;
    if (outBytes <= m.max) out.push(c);
    else if (m.stopAtMax) { overflowed = true; out.length = 0; child.kill('SIGKILL'); }
    else fail({ kind: 'overflow' });
  });
  child.stderr.on('data', (c) => { if (err.length < 16384) err += c.toString('utf8'); });
  child.on('error', (e) => fail({ kind: 'spawn', message: String(e.message), code: e.code }));
  child.stdin.on('error', () => {});
  child.stdin.end(m.input);
  child.on('close', (code) => {
    clearTimeout(timer);
    running.delete(id);
    send({ id, code, stdout: failure === null && !overflowed ? Buffer.concat(out) : null, stderr: err, overflowed, failure });
  });
});
process.on('disconnect', () => { for (const c of running.values()) c.kill('SIGKILL'); process.exit(0); });
`;

/** How long past a request's own time limit the server waits for the helper's answer before it gives the helper up. */
const HELPER_GRACE_MS = 5_000;

interface Pending {
  resolve(a: SpawnAnswer): void;
  timer: NodeJS.Timeout;
}

type Wire = Omit<SpawnAnswer, 'stdout'> & { id: number; stdout: Uint8Array | null };

class GitSpawner {
  private child: ChildProcess | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  /** The helper's process id while it runs (tests). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  run(r: SpawnRequest): Promise<SpawnAnswer> {
    return new Promise((resolve) => {
      let child: ChildProcess;
      try {
        child = this.running();
      } catch (e) {
        resolve(helperFailure(`the git helper process could not start: ${(e as Error).message}`));
        return;
      }
      const id = this.nextId++;
      const timer = setTimeout(
        () => this.abandon(child, `the git helper process did not answer within ${r.timeoutMs + HELPER_GRACE_MS} ms`),
        r.timeoutMs + HELPER_GRACE_MS,
      );
      timer.unref();
      this.pending.set(id, { resolve, timer });
      this.hold(child);
      child.send({ t: 'run', id, args: r.args, env: r.env, input: r.input, max: r.max, stopAtMax: r.stopAtMax, timeoutMs: r.timeoutMs }, (e) => {
        if (e) this.abandon(child, `the git helper process could not be asked: ${e.message}`);
      });
    });
  }

  private running(): ChildProcess {
    if (this.child !== null) return this.child;
    const child = spawn(process.execPath, ['-e', HELPER_SOURCE], {
      // Nothing of the server's environment (it may hold secrets); each git gets its own from the request.
      env: process.platform === 'win32' ? { SystemRoot: process.env.SystemRoot ?? 'C:\\Windows' } : {},
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
      serialization: 'advanced',
      windowsHide: true,
    });
    this.child = child;
    child.on('message', (m: Wire) => this.answer(m));
    // A helper that could not start (error) or ended (exit): what waits fails, the next question starts another.
    child.on('error', (e) => this.gone(child, `the git helper process failed: ${e.message}`));
    child.on('exit', (code, signal) => this.gone(child, `the git helper process exited (${signal ?? `exit ${code}`})`));
    this.release(child);
    return child;
  }

  private answer(m: Wire): void {
    const p = this.pending.get(m.id);
    if (p === undefined) return;
    this.pending.delete(m.id);
    clearTimeout(p.timer);
    const out = m.stdout === null ? Buffer.alloc(0) : Buffer.from(m.stdout.buffer, m.stdout.byteOffset, m.stdout.byteLength);
    p.resolve({ code: m.code, stdout: out, stderr: m.stderr, overflowed: m.overflowed, failure: m.failure });
    if (this.pending.size === 0 && this.child !== null) this.release(this.child);
  }

  /** Gives the helper up (it no longer answers): its git processes end with it, a new one takes the next question. */
  private abandon(child: ChildProcess, why: string): void {
    child.kill('SIGKILL');
    this.gone(child, why);
  }

  private gone(child: ChildProcess, why: string): void {
    if (this.child !== child) return;
    this.child = null;
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const p of waiting) {
      clearTimeout(p.timer);
      p.resolve(helperFailure(why));
    }
  }

  /** While questions wait, the helper keeps this process alive (a script awaiting git must not exit). */
  private hold(child: ChildProcess): void {
    child.ref();
    (child.channel as { ref?: () => void } | undefined)?.ref?.();
  }

  /** Idle, it does not. */
  private release(child: ChildProcess): void {
    child.unref();
    (child.channel as { unref?: () => void } | undefined)?.unref?.();
  }
}

const helperFailure = (message: string): SpawnAnswer => ({
  code: null,
  stdout: Buffer.alloc(0),
  stderr: '',
  overflowed: false,
  failure: { kind: 'helper', message },
});

let shared: GitSpawner | null = null;

/** Runs one git process through this process's helper (started on first use). */
export function spawnThroughHelper(r: SpawnRequest): Promise<SpawnAnswer> {
  shared ??= new GitSpawner();
  return shared.run(r);
}

/** The helper's process id, when one runs (tests). */
export function gitHelperPid(): number | undefined {
  return shared?.pid;
}
