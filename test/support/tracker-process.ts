import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLOUD_ID } from './seed.js';

/** jst-tracker as a process of its own (the built binary), for tests that kill or multiply it. */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(ROOT, 'packages/tracker/bin/jst-tracker.js');

export interface TrackerProcess {
  proc: ChildProcess;
  url: string;
  /** `{url}/ex/jira/<cloudId>/rest/api/3`. */
  api: string;
  /** Everything it printed so far (stdout and stderr). */
  output: string[];
  /** Settles when the process has exited. */
  exited: Promise<void>;
}

/** Builds packages/tracker when its dist is missing (a test run without `npm run build`). */
export function ensureTrackerBuilt(): void {
  if (existsSync(join(ROOT, 'packages/tracker/dist/cli.js'))) return;
  const r = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-b', 'packages/tracker'], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`building packages/tracker failed:\n${r.stdout}${r.stderr}`);
}

/** Starts `jst-tracker serve --port 0 ARGS` and waits (up to 20 s) for its ready line. */
export function spawnTracker(args: string[]): Promise<TrackerProcess> {
  const proc = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { proc.kill('SIGKILL'); reject(new Error(`jst-tracker did not start within 20 s:\n${output.join('')}`)); }, 20_000);
    proc.stderr!.on('data', (d: Buffer) => output.push(d.toString()));
    proc.stdout!.on('data', (d: Buffer) => {
      output.push(d.toString());
      const m = /jst-tracker listening on (http:\/\/\S+)/.exec(output.join(''));
      if (m) {
        clearTimeout(timer);
        resolve({ proc, url: m[1]!, api: `${m[1]!}/ex/jira/${CLOUD_ID}/rest/api/3`, output, exited });
      }
    });
    proc.once('exit', (code, signal) => { clearTimeout(timer); reject(new Error(`jst-tracker exited (${code ?? signal}) before it was ready:\n${output.join('')}`)); });
  });
}
