import { spawnSync } from 'node:child_process';

/**
 * bubblewrap for tests (docs/dispatch.md "The sandbox"): where `bwrap` is missing or cannot make a
 * sandbox, the sandbox tests skip with a notice, unless JST_REQUIRE_BWRAP=1 (CI), where they fail.
 * The other dispatch tests then run their agents with AGENT_SANDBOX=none.
 */
const required = process.env.JST_REQUIRE_BWRAP === '1';

let available: boolean | undefined;

export function bwrapAvailable(): boolean {
  if (available !== undefined) return available;
  const probe = spawnSync('bwrap', ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-pid', '--', 'true'], { encoding: 'utf8' });
  available = process.platform === 'linux' && probe.status === 0;
  if (!available) {
    const why = probe.error ? probe.error.message : (probe.stderr ?? '').trim();
    if (required) throw new Error(`JST_REQUIRE_BWRAP=1 but bubblewrap cannot make a sandbox here: ${why}`);
    process.stderr.write(`notice: bubblewrap (bwrap) unusable here (${why}); sandbox tests are skipped (set JST_REQUIRE_BWRAP=1 to fail instead)\n`);
  }
  return available;
}
