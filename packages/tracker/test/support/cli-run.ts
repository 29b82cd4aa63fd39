import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

/** The real jst-tracker binary (the built dist), run as a user runs it, for the CLI tests. */

export const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const BIN = join(ROOT, 'packages/tracker/bin/jst-tracker.js');
export const READY = /^jst-tracker listening on http:\/\/127\.0\.0\.1:(\d+)$/;
const { DATABASE_URL: _ignored, ...BASE_ENV } = process.env;

export interface Run {
  child: ChildProcess;
  out: () => string;
  err: () => string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Builds the tracker (a dist that exists is used if another engineer's half-done edit breaks the build). */
export function buildTracker(): void {
  try {
    execFileSync('npx', ['tsc', '-b', 'packages/tracker'], { cwd: ROOT, stdio: 'pipe' });
  } catch (e) {
    if (!existsSync(join(ROOT, 'packages/tracker/dist/cli.js'))) throw e;
  }
}

/** Runs of the binary in a temporary folder of their own; `cleanup` kills what is left and removes the folder. */
export function cliRunner(prefix: string) {
  const tmp = mkdtempSync(join(tmpdir(), prefix));
  const children: ChildProcess[] = [];
  const run = (args: string[], env: NodeJS.ProcessEnv = {}): Run => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: tmp, env: { ...BASE_ENV, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on('close', (code, signal) => resolve({ code, signal })),
    );
    return { child, out: () => out, err: () => err, exit };
  };
  /** Waits for the ready line and returns the base URL. */
  const ready = async (r: Run): Promise<string> => {
    const deadline = Date.now() + 20_000;
    while (!r.out().includes('\n')) {
      if (r.child.exitCode !== null || Date.now() > deadline) throw new Error(`no ready line; stderr: ${r.err()}`);
      await new Promise((res) => setTimeout(res, 20));
    }
    const line = r.out().split('\n')[0]!;
    expect(line).toMatch(READY);
    return line.slice('jst-tracker listening on '.length);
  };
  const exitOf = async (args: string[]) => {
    const r = run(args);
    const { code } = await r.exit;
    return { code, out: r.out(), err: r.err() };
  };
  const cleanup = () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    rmSync(tmp, { recursive: true, force: true });
  };
  return { tmp, run, ready, exitOf, cleanup };
}

export const connectable = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.on('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.on('error', () => resolve(false));
  });
