import { statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { JstConfig } from './load.js';
import { requireAgentSandbox, type AgentSandbox } from './validate.js';

// What the team's AGENT_SANDBOX setting means on this machine (ARCHITECTURE §21): read by
// `jst dispatch` before it starts an agent and by `jst healthcheck --context`'s sandbox row.

/** Where bubblewrap is, or null: on PATH as `bwrap` (Debian's package `bubblewrap`). */
export function findBwrap(env: NodeJS.ProcessEnv): string | null {
  if (process.platform !== 'linux') return null;
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const file = join(dir, 'bwrap');
    try {
      if (statSync(file).isFile()) return file;
    } catch {
      /* not here */
    }
  }
  return null;
}

/** What `jst healthcheck --context` shows and `jst dispatch` checks before it starts anything. */
export interface SandboxState {
  mode: AgentSandbox;
  /** bwrap's path when the mode is bwrap and it was found. */
  bwrap: string | null;
}

export function sandboxState(config: JstConfig, env: NodeJS.ProcessEnv): SandboxState {
  const mode = requireAgentSandbox(config);
  return { mode, bwrap: mode === 'bwrap' ? findBwrap(env) : null };
}
