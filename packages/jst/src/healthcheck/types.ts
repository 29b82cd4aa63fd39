import type { TrackerClient } from '@jst/client';
import type { JstConfig, Role } from '../config/index.js';

/** ARCHITECTURE §6: the rows, in the order they are printed. */
export const ROW_NAMES = ['worktree', 'worktrees_dir', 'branch', 'production_branch', 'branch_pair', 'env_config', 'tracker_login', 'codehost_login', 'platform'] as const;

export type RowName = (typeof ROW_NAMES)[number];

export type RowStatus = 'PASS' | 'WARN' | 'FAIL';

export interface HealthRow {
  name: RowName;
  status: RowStatus;
  /** One line, or several joined by `\n` when a row lists several problems. Never holds a secret. */
  detail: string;
}

/** Also the `--json` form: exactly `{"role", "rows": [{"name", "status", "detail"}]}`. */
export interface HealthReport {
  role: Role;
  rows: HealthRow[];
}

/** The slice of `fetch` the code-host probe uses; tests and offline runs inject their own. */
export type { FetchLike as CodehostFetch } from '../codehost/http.js';
import type { FetchLike as CodehostFetch } from '../codehost/http.js';

export interface HealthcheckContext {
  cwd: string;
  role: Role;
  /** From loadConfig; files may be missing (the env_config row reports that). */
  config: JstConfig;
  /** Environment for the git processes (default process.env). */
  env?: NodeJS.ProcessEnv | undefined;
  /** The tracker client for a role; default: one built from `config`, closed after the probe. */
  makeClient?: ((role: Role) => TrackerClient) | undefined;
  codehostFetch?: CodehostFetch | undefined;
  /** Per network probe; default 10 s. */
  timeoutMs?: number | undefined;
}

export const row = (name: RowName, status: RowStatus, detail: string): HealthRow => ({ name, status, detail });
