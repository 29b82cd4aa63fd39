import { existsSync, rmSync } from 'node:fs';
import { basename, isAbsolute, join, relative } from 'node:path';
import { TrackerHttpError, type TrackerClient } from '@jst/client';
import { JstError, requireProjectKey, type Role } from '../config/index.js';
import type { Context } from '../core/context.js';
import { EXIT } from '../core/errors.js';
import { note, type Outcome } from '../core/output.js';
import * as git from '../git/index.js';
import { JOURNAL_FILE, Journal, madeIssue, type JournalData } from './plan-journal.js';
import type { PlanInput } from './plan-types.js';
import { promptFor, refused } from '../core/terminal-prompt.js';
import { featureBranch, hotfixBranch } from './slug.js';

export interface AbandonOptions {
  /** The role the plan command declares (the assigner, whose run it was). */
  role: Role;
  yes?: boolean | undefined;
  tool?: string | undefined;
  /** The run meant (the plan tool's plan object): another recorded run is not touched. */
  request?: string | undefined;
}

/** One issue the run made, parent (or single issue) first. */
interface MadeIssue {
  key: string;
  summary: string;
  role: 'top' | 'subtask';
}

/** What the journal's run made and is still there: what `--abandon` deletes. */
export interface Inventory {
  issues: MadeIssue[];
  worktrees: string[];
  branches: string[];
  pushed: string[];
  comments: number;
}

/** The `--json` form of `jst plan --abandon`: the plan's shape (what was removed), `abandoned` set. */
export interface AbandonJson {
  keys: string[];
  branches: string[];
  worktrees: string[];
  report: string;
  handOff: string[];
  dryRun: false;
  alreadyPlanned: false;
  abandoned: boolean;
  pushed: string[];
}

const json = (inv: Inventory, report: string, abandoned: boolean): AbandonJson => ({
  keys: inv.issues.map((i) => i.key),
  branches: inv.branches,
  worktrees: inv.worktrees,
  report,
  handOff: [],
  dryRun: false,
  alreadyPlanned: false,
  abandoned,
  pushed: inv.pushed,
});

/**
 * `jst plan --abandon` (ARCHITECTURE §7): deletes what the unfinished run recorded in the journal
 * made (its issues, worktrees, branches and the pushed branch; comments go with their issues),
 * after the person's explicit yes, then the journal. Idempotent: what is already gone is skipped,
 * and a run cut off halfway is finished by running it again.
 */
export async function abandonOutcome(ctx: Context, o: AbandonOptions): Promise<Outcome<AbandonJson>> {
  const config = ctx.config();
  const jstDir = config.jstDir;
  const data = jstDir ? Journal.pending(jstDir) : null;
  const empty: Inventory = { issues: [], worktrees: [], branches: [], pushed: [], comments: 0 };
  if (!jstDir || !data) {
    const text = `No unfinished plan run is recorded${jstDir ? ` in ${join(jstDir, JOURNAL_FILE)}` : ''}: there is nothing to abandon.\n`;
    return { json: json(empty, text.trim(), false), text, code: EXIT.ok };
  }
  const plan = data.plan as PlanInput;
  if (o.request !== undefined && o.request !== plan.request) {
    throw refused(
      `the unfinished plan run recorded in ${join(jstDir, JOURNAL_FILE)} is for ${JSON.stringify(plan.request)}, not for the plan given (${JSON.stringify(o.request)}); nothing was deleted`,
      'Pass the plan of the run to abandon, or leave its "request" out',
    );
  }
  const repo = config.repoRoot ?? (await git.worktreeInfo(ctx.cwd, { env: ctx.env })).root;
  const client = ctx.client(o.role);
  const say = (l: string) => {
    note(ctx.io, l);
  };
  const inv = await inventory(ctx, data, repo, client, requireProjectKey(config));
  const inside = inv.worktrees.find((w) => {
    const r = relative(w, ctx.cwd);
    return r === '' || (!r.startsWith('..') && !isAbsolute(r));
  });
  if (inside) throw refused(`jst plan --abandon would remove the worktree ${inside}, and it runs inside it`, `cd ${repo} and rerun`);
  say(`The unfinished plan run ${data.runId} (started ${data.startedAt}) for ${JSON.stringify(plan.request)} made:`);
  for (const l of listing(inv)) say(`  ${l}`);
  if (!o.yes) {
    const prompt = promptFor(ctx, ctx.io.interactive, 'Nothing was deleted; run jst plan --abandon again when ready');
    try {
      const what = `Delete ${inv.issues.length} issue(s), ${inv.worktrees.length} worktree(s) and ${inv.branches.length + inv.pushed.length} branch(es) made by this run, and forget the run?`;
      const command = `cd ${repo} && jst plan --abandon --yes`;
      const yes = await prompt.yesNo(what, `Confirm with: jst plan --abandon --yes (nothing was deleted)`, o.tool ? { command: () => command } : undefined);
      if (!yes)
        throw refused(
          'not confirmed; nothing was deleted',
          'Rerun jst plan (the same plan file) to finish the run instead, or jst plan --abandon --yes to delete it',
        );
    } finally {
      prompt.close();
    }
  }
  Journal.markAbandoning(jstDir);
  await removeAll(inv, repo, client, ctx.env, say);
  rmSync(join(jstDir, JOURNAL_FILE), { force: true });
  const text = `Abandoned the plan run ${data.runId}: ${summaryOf(inv)}. Nothing of it is left; a new plan can run.\n`;
  return { json: json(inv, text.trim(), true), text, code: EXIT.ok };
}

function listing(inv: Inventory): string[] {
  const lines = [
    ...inv.issues.map((i) => `${i.role === 'top' ? 'issue' : 'sub-task'} ${i.key} ${JSON.stringify(i.summary)}`),
    ...inv.worktrees.map((w) => `worktree ${w}`),
    ...inv.branches.map((b) => `branch ${b}`),
    ...inv.pushed.map((b) => `branch origin/${b} (pushed)`),
  ];
  if (inv.comments) lines.push(`${inv.comments} comment(s), deleted with their issues`);
  return lines.length ? lines : ['nothing that is still there'];
}

function summaryOf(inv: Inventory): string {
  const parts = [
    inv.issues.length ? `deleted ${inv.issues.map((i) => i.key).join(', ')}` : '',
    inv.worktrees.length ? `removed ${inv.worktrees.length} worktree(s)` : '',
    inv.branches.length ? `deleted ${inv.branches.join(', ')}` : '',
    inv.pushed.length ? `deleted ${inv.pushed.map((b) => `origin/${b}`).join(', ')}` : '',
  ].filter(Boolean);
  return parts.length ? parts.join('; ') : 'nothing it made was left';
}

/** The items of the run that may have an issue: `top`, then `sub1`, `sub2`, … in the journal's order. */
function items(data: JournalData): { id: string; summary: string }[] {
  const plan = data.plan as PlanInput;
  const ids = Object.keys(data.steps)
    .map((s) => /^(top|sub\d+):issue$/.exec(s)?.[1])
    .filter((x): x is string => x !== undefined);
  return ids
    .filter((id) => madeIssue(data, id))
    .map((id) => ({ id, summary: id === 'top' ? plan.summary : (plan.steps[Number(id.slice(3)) - 1]?.summary ?? '') }));
}

/** Reads what is still there: each issue by its key (or, if its create was cut off, by its marker), each branch and worktree from git. */
async function inventory(ctx: Context, data: JournalData, repo: string, client: TrackerClient, project: string): Promise<Inventory> {
  const o = { env: ctx.env };
  const plan = data.plan as PlanInput;
  const inv: Inventory = { issues: [], worktrees: [], branches: [], pushed: [], comments: 0 };
  const worktrees = await git.worktreeList(repo, o);
  for (const { id, summary } of items(data)) {
    const rec = data.steps[`${id}:issue`]!;
    const key = rec.state === 'done' ? rec.result?.key : await byMarker(client, project, `jst${data.runId}${id}`);
    if (!key) continue;
    if (await issueExists(client, key)) inv.issues.push({ key, summary, role: id === 'top' ? 'top' : 'subtask' });
    // A branch is the run's only when its step finished, or was cut off with the worktree in place:
    // a step that failed (a name already taken) made nothing, and what has that name is someone else's.
    const rec2 = data.steps[`${id}:worktree`];
    if (!rec2 || rec2.state === 'failed') continue;
    const branch = rec2.result?.branch ?? (plan.path === 'hotfix' ? hotfixBranch(key, summary) : featureBranch(key, summary));
    const wt = worktrees.find(
      (w) => w.branch === branch && (rec2.result?.worktree !== undefined ? w.path === rec2.result.worktree : basename(w.path) === `worktree-${key}`),
    );
    if (rec2.state !== 'done' && !wt) continue;
    // A worktree folder deleted by hand is only git's record of it: the prune in removeAll drops that.
    if (wt && existsSync(wt.path)) inv.worktrees.push(wt.path);
    if (await git.branchExists(repo, branch, o)) inv.branches.push(branch);
    if (id === 'top' && data.steps['top:push'] && (await git.remoteBranchExists(repo, branch, o))) inv.pushed.push(branch);
  }
  inv.comments = Object.entries(data.steps).filter(([id, r]) => /:comment$|^report$/.test(id) && r.state === 'done').length;
  return inv;
}

async function byMarker(client: TrackerClient, project: string, marker: string): Promise<string | null> {
  const res = await client.searchJql({ jql: `project = "${project}" AND text ~ "${marker}" ORDER BY created DESC`, fields: ['key'], maxResults: 5 });
  return res.issues[0]?.key ?? null;
}

async function issueExists(client: TrackerClient, key: string): Promise<boolean> {
  try {
    await client.getIssue(key, ['summary']);
    return true;
  } catch (e) {
    if (e instanceof TrackerHttpError && e.status === 404) return false;
    throw e;
  }
}

/** Worktrees, then local branches, then the pushed branch, then the issues (sub-tasks before their parent). */
async function removeAll(inv: Inventory, repo: string, client: TrackerClient, env: NodeJS.ProcessEnv, say: (l: string) => void): Promise<void> {
  const o = { env };
  for (const w of inv.worktrees) {
    say(`→ git worktree remove --force ${w}`);
    await git.runGit(['worktree', 'remove', '--force', w], repo, o);
  }
  await git.runGit(['worktree', 'prune'], repo, o);
  for (const b of inv.branches) {
    say(`→ git branch -D ${b}`);
    await git.runGit(['branch', '-D', b], repo, o);
  }
  for (const b of inv.pushed) {
    say(`→ git push origin --delete ${b}`);
    await git.runGit(['push', 'origin', '--delete', b], repo, o);
  }
  for (const issue of [...inv.issues].reverse()) {
    say(`→ delete ${issue.key}`);
    try {
      await client.deleteIssue(issue.key, false);
    } catch (e) {
      if (e instanceof TrackerHttpError && e.status === 404) continue;
      if (e instanceof TrackerHttpError && (e.status === 403 || e.status === 401)) {
        const left = inv.issues.map((i) => i.key).join(', ');
        throw new JstError({
          code: 'PLAN_ABANDON',
          exitCode: EXIT.failed,
          problem: `the tracker did not let the assigner delete ${issue.key} (HTTP ${e.status}: ${e.vendorMessage.slice(0, 200)}); the worktrees and branches are gone, the issues ${left} are not`,
          hint: "Deleting issues needs the project's delete permission (an admin): have one delete them, or grant it, then rerun jst plan --abandon --yes to finish (the journal still lists them)",
        });
      }
      throw e;
    }
  }
}
