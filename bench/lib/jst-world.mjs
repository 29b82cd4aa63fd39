// The checkout the lifecycle and dispatch benches drive: its .jst files, the plan they run, and jst
// as a child process. Both benches measure the same world; only the agents and the counting differ.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** `.jst/local.env` for a tracker and code host at `serverUrl`, one line pair per role's account. */
export function writeLocalEnv(repo, { worktrees, serverUrl, codehostToken, accounts }) {
  writeFileSync(
    join(repo, '.jst', 'local.env'),
    [
      `WORKTREES_DIR=${worktrees}`,
      `TRACKER_ACCOUNT_URL=${new URL(serverUrl).host}`,
      `TRACKER_GATEWAY_URL=${serverUrl}`,
      `CODEHOST_API_URL=${serverUrl}/api/v3`,
      `CODEHOST_PAT_TOKEN=${codehostToken}`,
      ...accounts.flatMap((a) => [`TRACKER_${a.role.toUpperCase()}_EMAIL=${a.email}`, `TRACKER_${a.role.toUpperCase()}_TOKEN=${a.token}`]),
    ].join('\n') + '\n',
    { mode: 0o600 },
  );
}

/** The plan both benches run: a parent and `steps` sub-tasks. Returns the file's path. */
export function writeBenchPlan(dir, steps = 5) {
  const file = join(dir, 'plan.json');
  writeFileSync(
    file,
    JSON.stringify({
      request: 'Bench',
      summary: 'Bench parent',
      scope: 's',
      acceptanceCriteria: ['a'],
      priority: 'High',
      steps: Array.from({ length: steps }, (_, i) => ({ summary: `Bench step ${i + 1}`, scope: 's', acceptanceCriteria: ['a'] })),
    }),
  );
  return file;
}

/** Runs jst (`jstPath`) in `cwd` with `env`; resolves to its stdout, rejects with its stderr on a non-zero exit. */
export function runJst(jstPath, cwd, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [jstPath, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'], env });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => {
      out += c;
    });
    child.stderr.on('data', (c) => {
      err += c;
    });
    child.on('close', (c) => (c === 0 ? resolve(out) : reject(new Error(`jst ${args.join(' ')} exited ${c}: ${err}`))));
  });
}
