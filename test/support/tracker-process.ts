import { spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnUntilReady } from '../../scripts/lib/local-services.mjs';
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
export async function spawnTracker(args: string[]): Promise<TrackerProcess> {
  const started = spawnUntilReady(process.execPath, [BIN, 'serve', '--port', '0', ...args], /jst-tracker listening on (https?:\/\/\S+)/, {
    name: 'jst-tracker',
    cwd: ROOT,
    timeoutMs: 20_000,
  });
  const url = (await started.ready)[1]!;
  return { proc: started.proc, url, api: `${url}/ex/jira/${CLOUD_ID}/rest/api/3`, output: started.output, exited: started.exited };
}
