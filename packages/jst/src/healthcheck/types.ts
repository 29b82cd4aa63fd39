import type { TrackerClient } from '@jst/client';
import type { JstConfig, Role } from '../config/index.js';

/** ARCHITECTURE §6: the rows, in the order they are printed. */
export const ROW_NAMES = [
  'worktree',
  'worktrees_dir',
  'branch',
  'production_branch',
  'branch_pair',
  'env_config',
  'tracker_login',
  'codehost_login',
  'platform',
] as const;

export type RowName = (typeof ROW_NAMES)[number];

export type RowStatus = 'PASS' | 'WARN' | 'FAIL';

export interface HealthRow {
  name: RowName;
  status: RowStatus;
  /** One line, or several joined by `\n` when a row lists several problems. Never holds a secret. */
  detail: string;
}

/**
 * Context rows (issue 14 item 7, after the original status check): where the check ran, never a
 * verdict; INFO = does not apply here. Shown only when asked (`--context`), never among `rows`
 * and never in the exit code, so the §6 output stays exactly what its parsers read (docs/healthcheck.md).
 */
export const CONTEXT_ROW_NAMES = ['issue_key', 'parent_branch', 'working_tree', 'agents', 'sandbox'] as const;

export interface ContextRow {
  name: (typeof CONTEXT_ROW_NAMES)[number];
  status: 'PASS' | 'WARN' | 'INFO';
  detail: string;
}

/** Also the `--json` form: exactly `{"role", "rows": [{"name", "status", "detail"}]}`, plus `"context"` with `--context`. */
export interface HealthReport {
  role: Role;
  rows: HealthRow[];
  /** Present when asked for (`withContext`). */
  context?: ContextRow[] | undefined;
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
  /** Also read the context rows (`jst healthcheck --context`). */
  withContext?: boolean | undefined;
  /** Per network probe; default 10 s. */
  timeoutMs?: number | undefined;
  /** The largest answer a probe reads; default the client's. */
  maxResponseBytes?: number | undefined;
}

export const row = (name: RowName, status: RowStatus, detail: string): HealthRow => ({ name, status, detail });
