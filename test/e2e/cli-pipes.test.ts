import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const jst = join(fileURLToPath(new URL('../..', import.meta.url)), 'packages/jst/bin/jst.cjs');

describe('a reader that goes away: jst … | head', () => {
  it.each([['--help'], ['plan', '--help'], ['review', '--help']])('jst %s | head -1 prints its first line and no EPIPE stack trace, exit 0', (...args) => {
    // bash, so that head closes the pipe after one line while jst is still writing.
    const r = spawnSync('bash', ['-c', `set -o pipefail; "${process.execPath}" "${jst}" ${args.join(' ')} | head -1`], { encoding: 'utf8' });
    expect(r.stdout.split('\n').filter(Boolean)).toHaveLength(1);
    expect(r.stdout).toMatch(/^Usage: jst/);
    expect(r.stderr).not.toMatch(/EPIPE|Unhandled/);
    expect(r.status).toBe(0);
  });
});
