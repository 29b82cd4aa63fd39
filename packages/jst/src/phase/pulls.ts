import type { Comment, Issue, TrackerClient } from '@jst/client';
import type { Codehost, PullRequest } from '../core/codehost.js';
import type { JstConfig } from '../config/index.js';
import type { Context } from '../core/context.js';
import { branchOfKey } from './checkout.js';
import { verdictOf, type Verdict } from './markers.js';
import { resolvePrBase } from './pr-base.js';

export type PullState = 'open' | 'closed' | 'merged' | 'none';

/** One row of the review brief's PR set (ARCHITECTURE §11). */
export interface PrEntry {
  key: string;
  branch: string;
  base: string;
  number: number | null;
  url: string | null;
  state: PullState;
  /** This code-host identity's newest verdict on the pull request, if any. */
  verdict: Verdict | null;
}

export interface PullLookup {
  ctx: Context;
  cwd: string;
  env: NodeJS.ProcessEnv;
  config: JstConfig;
  client: TrackerClient;
  codehost: Codehost;
  say: (l: string) => void;
  /**
   * The pull requests into each base, read once for many issues (the review brief's sub-tasks share
   * their parent's branch as base); absent = one read per issue.
   */
  byBase?: Map<string, Promise<Map<string, PullRequest[]> | null>> | undefined;
}

/**
 * The pull request of an issue: the open one from its branch into its PR base, else the newest.
 * `comments`: every comment of the issue, when the caller has read them already.
 */
export async function pullOfIssue(l: PullLookup, issue: Issue, comments?: readonly Comment[]): Promise<{ entry: PrEntry; pull: PullRequest | null }> {
  const branch = await branchOfKey(l.cwd, issue.key, l.env);
  const base = await resolvePrBase({
    ctx: l.ctx,
    cwd: l.cwd,
    env: l.env,
    branch,
    key: issue.key,
    config: l.config,
    client: l.client,
    issue,
    comments,
    say: l.say,
  });
  const pulls = await pullsOf(l, branch, base.base);
  let pull = pulls.find((p) => p.state === 'open') ?? [...pulls].sort((a, b) => b.number - a.number)[0] ?? null;
  // The list form carries no `merged`; the single read does.
  if (pull && pull.state === 'closed' && pull.merged === undefined) pull = await l.codehost.pull(pull.number);
  const state: PullState = pull === null ? 'none' : pull.state === 'open' ? 'open' : pull.merged ? 'merged' : 'closed';
  return { entry: { key: issue.key, branch, base: base.base, number: pull?.number ?? null, url: pull?.html_url ?? null, state, verdict: null }, pull };
}

/**
 * The pull requests from `branch` into `base`: from the one read of every pull request into `base`
 * when the lookup set keeps one (a branch with none is answered by that read too), else its own read.
 */
async function pullsOf(l: PullLookup, branch: string, base: string): Promise<PullRequest[]> {
  if (l.byBase && l.codehost.pullsInto) {
    let found = l.byBase.get(base);
    if (!found) {
      l.say(`→ pull requests into ${base}`);
      l.byBase.set(base, (found = l.codehost.pullsInto(base)));
    }
    const all = await found;
    if (all !== null) return all.get(branch) ?? [];
  }
  l.say(`→ pull requests from ${branch} into ${base}`);
  return l.codehost.pulls(branch, base);
}

/** The newest review by `login` whose body's first line is a verdict. */
export async function myVerdict(codehost: Codehost, n: number, login: string): Promise<Verdict | null> {
  let found: Verdict | null = null;
  for (const r of await codehost.reviews(n)) {
    if (r.user?.login !== login) continue;
    found = verdictOf(r.body ?? '') ?? found;
  }
  return found;
}
