import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A counting `git` first on PATH: each process it starts appends its arguments to `log`, then runs
 * the real git. Shared by the benchmarks that report how many git processes a command starts.
 */
export function gitShim(base) {
  const realGit = execFileSync('sh', ['-c', 'command -v git']).toString().trim();
  const shimDir = join(base, 'shim');
  const log = join(base, 'git-calls.log');
  mkdirSync(shimDir);
  writeFileSync(join(shimDir, 'git'), `#!/bin/sh\necho "$*" >> ${log}\nexec ${realGit} "$@"\n`);
  chmodSync(join(shimDir, 'git'), 0o755);
  return { realGit, shimDir, log };
}
