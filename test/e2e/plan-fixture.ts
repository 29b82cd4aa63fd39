import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { codehostOf, type EmbeddedCodehost } from '../support/embedded-codehost.js';
import { runJst, type CliResult } from '../support/jst-cli.js';
import { makeRepo, writeJstFiles, git, type JstFilesOptions, type TestRepo } from '../support/repo.js';
import { testSeed, withCodehost } from '../support/seed.js';
import { startTestTracker, type TestTracker } from '../support/tracker.js';

export const MULTISTEP = {
  request: 'Add CSV export to the reports page',
  summary: 'CSV export for reports',
  scope: 'Export the visible report rows as CSV; no other formats.',
  acceptanceCriteria: ['A button downloads the rows as CSV', 'Columns match the table'],
  priority: 'High',
  steps: [
    { summary: 'Serialise report rows to CSV', scope: 'A pure function', acceptanceCriteria: ['RFC 4180 quoting'] },
    { summary: 'Download endpoint', scope: 'GET /reports/:id.csv', acceptanceCriteria: ['Content-Type text/csv'] },
    { summary: 'Export button', scope: 'UI only', acceptanceCriteria: ['Visible on every report'] },
  ],
};

export const SINGLE = {
  request: 'Fix the typo on the login page',
  summary: 'Fix login page typo',
  scope: 'The heading text only',
  acceptanceCriteria: ['Heading reads "Sign in"'],
  priority: 'Low',
};

export const HOTFIX = { ...SINGLE, request: 'Production checkout is broken: emergency fix', summary: 'Fix checkout crash', path: 'hotfix' };

export interface PlanWorld {
  repo: TestRepo;
  planFile(plan: unknown): string;
  plan(args: string[], env?: Record<string, string>): Promise<CliResult>;
  git(...args: string[]): string;
  originHas(branch: string): boolean;
}

/**
 * A real repository with a bare origin and `.jst/` for the tracker, ready for `jst plan`. With
 * `codehost` (the tracker's embedded code host, ARCHITECTURE §14) origin is acme/widgets on it,
 * reached over git's HTTP, and CODEHOST_API_URL is its `/api/v3`; no CODEHOST_REPO.
 */
export function planWorld(
  t: TestTracker,
  o: { team?: JstFilesOptions['team']; local?: JstFilesOptions['local']; branches?: string[]; codehost?: EmbeddedCodehost } = {},
): PlanWorld {
  const repo = makeRepo({ branches: o.branches ?? ['development', 'main'], ...(o.codehost ? { codehost: o.codehost.origin('acme/widgets') } : {}) });
  writeJstFiles(repo.repo, {
    trackerUrl: t.url,
    worktreesDir: repo.worktreesDir,
    ...(o.codehost ? { codehostUrl: o.codehost.api } : {}),
    ...(o.team ? { team: o.team } : {}),
    ...(o.local ? { local: o.local } : {}),
  });
  let n = 0;
  return {
    repo,
    planFile(plan) {
      const file = join(repo.root, `plan-${++n}.json`);
      writeFileSync(file, JSON.stringify(plan));
      return file;
    },
    plan: (args, env) => runJst(['plan', ...args], { cwd: repo.repo, ...(env ? { env } : {}) }),
    git: (...args) => git(repo.repo, ...args),
    originHas: (branch) => git(repo.origin, 'branch', '--list', branch).trim() !== '',
  };
}

/** A tracker (SQLite) with its code host, and MULTISTEP's first step planned in it: the parent and one sub-task, their keys and worktrees. */
export interface OneStepWorld {
  t: TestTracker;
  ch: EmbeddedCodehost;
  w: PlanWorld;
  keys: string[];
  worktrees: string[];
  close(): Promise<void>;
}

export async function oneStepPlanned(): Promise<OneStepWorld> {
  const t = await startTestTracker('sqlite', withCodehost(testSeed()));
  const ch = codehostOf(t);
  const w = planWorld(t, { codehost: ch });
  const r = await w.plan(['--plan', w.planFile({ ...MULTISTEP, steps: MULTISTEP.steps.slice(0, 1) }), '--json']);
  if (r.code !== 0) throw new Error(`jst plan exited ${r.code}: ${r.stderr}`);
  const { keys, worktrees } = JSON.parse(r.stdout) as { keys: string[]; worktrees: string[] };
  return {
    t,
    ch,
    w,
    keys,
    worktrees,
    close: async () => {
      w.repo.cleanup();
      await t.close();
    },
  };
}
