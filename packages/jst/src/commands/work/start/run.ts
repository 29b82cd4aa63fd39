import { realpathSync } from 'node:fs';
import { allComments, EXECUTOR_FIELDS, sameAssignee, transitionTo, TrackerHttpError, type Issue, type TrackerClient } from '@jst/client';
import { codehostRoleOf, JstError, type StatusNames, type Role } from '../../../config/index.js';
import { pushEnvFor } from '../../../codehost/index.js';
import type { Context } from '../../../core/context.js';
import { EXIT } from '../../../core/errors.js';
import * as git from '../../../git/index.js';
import { writtenBody } from '../../../phase/body.js';
import { markedBody, TASK_MEMORY } from '../../../phase/markers.js';
import { bold, dim, note, yellow, type Outcome } from '../../../core/output.js';
import { acceptanceCriteria, assignmentReportFrom, issueKeyFromBranch, prTargetFrom, PR_TARGET_MARKER, REPORT_MARKER } from '../../../phase/handover.js';
import { changesRequestedLines, reviewerVerdict, type ShownVerdict } from '../../../phase/review-shown.js';
import { readRoleComments, roleComments } from '../../../phase/roles.js';
import { confirmParent, mergeParent, runBootstrap, taskMemory, type BootstrapResult, type SyncResult } from '../../../start/phase2.js';

export interface StartOptions {
  notes: string[];
  json?: boolean | undefined;
  /** The explicit yes to start work on an issue that has sub-tasks (ARCHITECTURE §11). */
  onParent?: boolean | undefined;
}

export interface StartResult {
  key: string;
  summary: string;
  type: string;
  /** The status after the run, and the one it was found in. */
  status: string;
  previousStatus: string;
  transitioned: boolean;
  parent: { key: string; summary: string } | null;
  subtasks: { key: string; summary: string }[];
  branch: string;
  worktree: string;
  base: { branch: string; source: 'comment' | 'default'; parentbranch: string | null };
  acceptanceCriteria: string[];
  notes: string | null;
  assignmentReport: { issue: string; text: string } | null;
  /** `wasOnOrigin`: the branch was on origin before the run; `upstream`: what it tracks now. */
  push: { pushed: boolean; wasOnOrigin: boolean; upstream: string | null };
  /** ARCHITECTURE §11: the parent branch merged in (null when parentbranch is unset). */
  sync: SyncResult | null;
  bootstrap: BootstrapResult | null;
  /** ARCHITECTURE §11: the reviewer's latest verdict when it asks for changes (shown before the task memory). */
  verdict: ShownVerdict | null;
  /** The issue's earlier `Task memory` notes, oldest first. */
  taskMemory: { created: string | null; text: string }[];
  warnings: string[];
  nextSteps: string[];
}

/**
 * `jst start [NOTES…]` (ARCHITECTURE §11): phase 2's entry, run inside the worktree phase 1 made,
 * always as the executor. Everything that can refuse (the checkout, the branch, the assignee, the
 * origin lookup) runs before the one tracker write (the transition) and the one push.
 */
export async function startOutcome(ctx: Context, role: Role, o: StartOptions): Promise<Outcome<StartResult>> {
  const r = await run(ctx, role, o);
  return { json: r, text: `${render(ctx, r)}\n`, code: EXIT.ok };
}

interface Io {
  say: (l: string) => void;
  warn: (l: string) => void;
  g: { env: NodeJS.ProcessEnv };
  /** git's environment for the one push: the executor's own code-host token for origin when it is set (ARCHITECTURE §21). */
  pushG: (root: string) => Promise<{ env: NodeJS.ProcessEnv }>;
}

/** Each step below reads or refuses before the next; the two writes (the transition, the push) come last. */
async function run(ctx: Context, role: Role, o: StartOptions): Promise<StartResult> {
  const say = (l: string) => {
    note(ctx.io, l);
  };
  const warnings: string[] = [];
  const warn = (l: string) => {
    warnings.push(l);
    say(yellow(ctx.io, `! ${l}`));
  };
  const config = ctx.config();
  // git's fetches and ls-remote trust the code host's authority as the push does (ARCHITECTURE §23).
  const gitEnv = git.withGitCaFile(ctx.env, config.settings.CODEHOST_CA_FILE?.value);
  const pushG = async (root: string) => ({ env: await pushEnvFor(config, codehostRoleOf(role), ctx.env, root) });
  const io: Io = { say, warn, g: { env: gitEnv }, pushG };
  const { info, branch, parsed } = await locate(ctx, io);
  const { key } = parsed;
  if (config.projectKey && !key.startsWith(`${config.projectKey}-`)) warn(`${key} is not in PROJECT_KEY ${config.projectKey} (${config.files.team})`);
  const client = ctx.client(role);
  const issue = await assignedIssue(client, key, branch, say);
  const marks = await readHandover(ctx, client, issue, { key, branch, root: info.root, hotfix: parsed.kind === 'hotfix' }, io);
  const { base, parentbranch, parent } = marks;

  // --- What origin has (one ls-remote), before anything changes.
  say('→ branches on origin (git ls-remote --heads origin)');
  const heads = await originHeads(info.root, io.g);
  if (!heads.has(base.branch)) warn(`the PR base ${base.branch} is not on origin yet: a pull request into it cannot be opened until it is pushed`);

  // --- ARCHITECTURE §11: a parent only on an explicit yes; a stale branch gets its parent merged in.
  // Both come before the transition and the push, so a refusal or a conflict moves nothing.
  await confirmParent(ctx, issue, o.onParent);
  const sync = parentbranch === null ? null : await mergeParent(info.root, branch, parentbranch, gitEnv, say);
  if (sync) say(sync.outcome === 'merged' ? `✓ merged ${sync.ref} into ${branch}` : `✓ ${branch} is up to date with ${sync.ref}`);
  else warn(`${branch} may be stale: with no git config branch.${branch}.parentbranch there is no parent branch to merge in`);

  const s = config.statuses;
  const moved = await toInProgress(client, issue, key, s, io);
  const push = await pushOnce(info.root, branch, heads.has(branch), parent !== null, io);
  // ARCHITECTURE §11: notes given to start are saved as task memory (as jst note would), once: a
  // rerun with the same words posts nothing more.
  const notes = o.notes.join(' ').trim() || null;
  if (notes !== null && taskMemory(marks.executor).at(-1)?.text !== notes) {
    say(`→ comment on ${key}: ${TASK_MEMORY}`);
    await client.addComment(key, markedBody(TASK_MEMORY, [], writtenBody(notes, false, 'the notes')).adf);
  }

  const bootstrap = await runBootstrap(
    info.root,
    {
      JST_ISSUE_KEY: key,
      JST_WORKTREE_DIR: info.root,
      JST_BRANCH: branch,
      JST_PARENT_BRANCH: parentbranch ?? base.branch,
      JST_PROJECT_KEY: config.projectKey ?? key.split('-')[0]!,
    },
    ctx.env,
    say,
  );
  if (bootstrap && !bootstrap.ok)
    warn(`${bootstrap.script} failed (exit ${bootstrap.exitCode ?? 'not started'}); fix it and run it yourself from ${info.root}`);

  return {
    key,
    summary: issue.fields.summary ?? '',
    type: issue.fields.issuetype?.name ?? '',
    ...moved,
    parent: parent ? { key: parent.key, summary: parent.fields?.summary ?? '' } : null,
    subtasks: (issue.fields.subtasks ?? []).map((t) => ({ key: t.key, summary: t.fields?.summary ?? '' })),
    branch,
    worktree: info.root,
    base,
    acceptanceCriteria: acceptanceCriteria(issue.fields.description),
    notes,
    assignmentReport: marks.report,
    push,
    sync,
    bootstrap,
    verdict: marks.verdict,
    taskMemory: taskMemory(marks.executor),
    warnings,
    nextSteps: nextSteps(issue, {
      key,
      branch,
      base: base.branch,
      inReview: s.inReview,
      hotfix: parsed.kind === 'hotfix',
      defaultBase: config.defaultBaseBranch,
      upstream: push.upstream,
    }),
  };
}

/** Where we are: a linked worktree on an issue branch (spec §1 rule 1: phase 2 runs inside one). */
async function locate(ctx: Context, { g }: Io) {
  const info = await git.worktreeInfo(ctx.cwd, g).catch((e: unknown) => {
    if (e instanceof git.GitError && e.code === 'GIT_FAILED')
      throw usage(`${ctx.cwd} is not inside a git checkout`, 'cd into the worktree jst plan created for the issue, then run jst start');
    throw e;
  });
  if (!info.linked) throw usage(`jst start runs inside an issue's worktree, and ${info.root} is the main checkout`, await worktreeHint(info.root, g));
  const branch = await git.currentBranch(info.root, g);
  if (branch === null)
    throw usage(
      `HEAD is detached in ${info.root}, so there is no issue branch to read the key from`,
      'Check out the issue branch (feature/<KEY>-… or hotfix/<KEY>-…) in this worktree, then rerun',
    );
  const parsed = issueKeyFromBranch(branch);
  if (!parsed)
    throw usage(`${branch} is not an issue branch: jst start reads the issue key from feature/<KEY>-… or hotfix/<KEY>-…`, await worktreeHint(info.mainPath, g));
  return { info, branch, parsed };
}

/** spec §4 endpoint 5 (executor fields, plus the assignee) and §1 rule 9: only the executor's issue. */
async function assignedIssue(client: TrackerClient, key: string, branch: string, say: (l: string) => void): Promise<Issue> {
  say('→ executor identity (GET /myself)');
  const me = await client.myself();
  say(`→ read ${key} with the executor's fields`);
  const issue = await client.getIssue(key, [...EXECUTOR_FIELDS, 'assignee']).catch((e: unknown) => {
    if (e instanceof TrackerHttpError && e.status === 404) {
      throw new JstError({
        code: 'START_NO_ISSUE',
        exitCode: EXIT.failed,
        problem: `${key} (from the branch ${branch}) is missing or not visible to the executor ${client.email}`,
        hint: 'Check that the issue exists and that the executor is a member of its project',
      });
    }
    throw e;
  });
  // spec §4 client rule 8: compared by accountId, never by e-mail.
  if (!sameAssignee(issue, me.accountId)) {
    const a = issue.fields.assignee;
    const who = a ? `${a.displayName ?? 'another account'} (accountId ${a.accountId})` : 'nobody';
    throw new JstError({
      code: 'START_NOT_ASSIGNED',
      exitCode: EXIT.failed,
      problem: `${key} is assigned to ${who}, not to the executor ${client.email} (accountId ${me.accountId}): phase 2 refuses an issue not assigned to the executor (spec §1 rule 9)`,
      hint: `Nothing was changed. Ask the assigner to assign it: jst --role assigner issue assign ${key} executor`,
    });
  }
  return issue;
}

/** What phase 1 and the reviewer left on the issue: the PR base, the Assignment report, the verdict, the task memory. */
async function readHandover(
  ctx: Context,
  client: TrackerClient,
  issue: Issue,
  at: { key: string; branch: string; root: string; hotfix: boolean },
  { say, warn, g }: Io,
) {
  const { key, branch } = at;
  const config = ctx.config();
  // --- spec §1 rule 11: the PR base from the `PR target branch:` comment (all pages, text walk).
  say(`→ comments of ${key}`);
  const comments = await allComments(client, key);
  // ARCHITECTURE §11: each marker counts only from the account of the role that posts it.
  const assigner = await roleComments(ctx, 'assigner', client, comments);
  if (assigner.problem) warn(`${assigner.problem}: no "${PR_TARGET_MARKER}" or "${REPORT_MARKER}" comment counts`);
  const reviewer = await roleComments(ctx, 'reviewer', client, comments);
  const executor = await roleComments(ctx, 'executor', client, comments);
  const target = prTargetFrom(assigner);
  // ARCHITECTURE §11: an issue back from review shows what the reviewer asked for.
  const shown = reviewerVerdict(reviewer);
  const verdict = shown?.kind === 'changes-requested' ? shown : null;
  const parentbranch = await git.configGet(at.root, `branch.${branch}.parentbranch`, g);
  let base: StartResult['base'];
  if (target) {
    base = { branch: target.branch, source: 'comment', parentbranch };
  } else {
    base = { branch: config.defaultBaseBranch, source: 'default', parentbranch };
    warn(
      `${key} has no "${PR_TARGET_MARKER} …" comment: the PR base falls back to DEFAULT_BASE_BRANCH ${base.branch}` +
        (at.hotfix ? ' (this is a hotfix branch, whose PR normally targets the production branch: check before opening the PR)' : ''),
    );
  }
  if (parentbranch === null) warn(`git config branch.${branch}.parentbranch is not set (phase 1 records it): cannot cross-check the PR base ${base.branch}`);
  else if (parentbranch !== base.branch)
    warn(
      `the PR base ${base.branch} (${base.source === 'comment' ? 'from the comment' : 'the default'}) differs from git config branch.${branch}.parentbranch = ${parentbranch}: check which is right before opening the PR`,
    );
  if (target?.worktree && !samePath(target.worktree, at.root)) warn(`the comment names the worktree ${target.worktree}, but this worktree is ${at.root}`);

  // --- spec §1 rule 12: the Assignment report, on the parent for a sub-task.
  const parent = issue.fields.parent ?? null;
  let report: StartResult['assignmentReport'] = null;
  if (parent) {
    say(`→ comments of the parent ${parent.key}`);
    try {
      const text = assignmentReportFrom(await readRoleComments(ctx, 'assigner', client, parent.key));
      if (text) report = { issue: parent.key, text };
    } catch (e) {
      if (!(e instanceof TrackerHttpError)) throw e;
      warn(`the comments of the parent ${parent.key} could not be read (${e.status})`);
    }
  } else {
    const text = assignmentReportFrom(assigner);
    if (text) report = { issue: key, text };
  }
  if (!report) warn(`no "${REPORT_MARKER}" comment found on ${parent?.key ?? key}`);
  return { base, parentbranch, parent, report, verdict, executor };
}

/** spec §3: STATUS_TODO → STATUS_IN_PROGRESS, by destination name (spec §4 client rules 5, 7). */
async function toInProgress(client: TrackerClient, issue: Issue, key: string, s: StatusNames, { say, warn }: Io) {
  const previousStatus = issue.fields.status?.name ?? '';
  if (previousStatus === s.inProgress) {
    say(`✓ ${key} is already in "${s.inProgress}"`);
    return { status: previousStatus, previousStatus, transitioned: false };
  }
  if (previousStatus === s.inReview || previousStatus === s.done) {
    warn(
      `${key} is in "${previousStatus}", past "${s.inProgress}": its status is left as it is (move it yourself with jst --role executor issue transition ${key} --to "${s.inProgress}" if work really restarts)`,
    );
    return { status: previousStatus, previousStatus, transitioned: false };
  }
  say(`→ move ${key} from "${previousStatus}" to "${s.inProgress}"`);
  // A missing transition throws RuleStop (exit 1) listing what is reachable; nothing was posted.
  await transitionTo(client, key, s.inProgress);
  return { status: s.inProgress, previousStatus, transitioned: true };
}

/** spec §1 rule 10: sub-task branches first reach origin in phase 2, with -u. */
async function pushOnce(root: string, branch: string, onOrigin: boolean, isSubtask: boolean, { say, warn, g, pushG }: Io): Promise<StartResult['push']> {
  let pushed = false;
  if (!onOrigin) {
    if (!isSubtask) warn(`${branch} is not on origin although phase 1 pushes every top-level branch: pushing it now`);
    say(`→ git push -u origin ${branch}`);
    await git.push(root, branch, await pushG(root));
    pushed = true;
  } else {
    say(`✓ ${branch} is already on origin`);
  }
  const remote = await git.configGet(root, `branch.${branch}.remote`, g);
  const merge = await git.configGet(root, `branch.${branch}.merge`, g);
  const upstream = remote && merge ? `${remote}/${merge.replace(/^refs\/heads\//, '')}` : null;
  return { pushed, wasOnOrigin: onOrigin, upstream };
}

function nextSteps(
  issue: Issue,
  n: { key: string; branch: string; base: string; inReview: string; hotfix: boolean; defaultBase: string; upstream: string | null },
): string[] {
  const steps = [
    `Do the work in this worktree on ${n.branch}; the acceptance criteria are the definition of done${issue.fields.subtasks?.length ? ` (the sub-tasks ${issue.fields.subtasks.map((t) => t.key).join(', ')} have their own worktrees)` : ''}.`,
    `Keep notes for the next session: jst note "…" (a "Task memory" comment on ${n.key}).`,
    `Commit, then open a pull request from ${n.branch} into ${n.base}, moving ${n.key} to "${n.inReview}": jst pr`,
  ];
  if (n.hotfix && n.base !== n.defaultBase) steps.push(`After it lands on ${n.base}, the fix must still reach ${n.defaultBase}.`);
  return steps;
}

function render(ctx: Context, r: StartResult): string {
  const io = ctx.io;
  const out: string[] = [];
  out.push(`${bold(io, r.key)}  ${r.summary}`);
  out.push(`Type: ${r.type}   Status: ${r.status}${r.transitioned ? ` (was ${r.previousStatus})` : ''}`);
  if (r.parent) out.push(`Parent: ${r.parent.key}  ${r.parent.summary}`);
  if (r.subtasks.length) out.push(`Sub-tasks: ${r.subtasks.map((t) => `${t.key} ${t.summary}`).join('; ')}`);
  out.push(`Branch: ${r.branch}${r.push.upstream ? ` (tracks ${r.push.upstream})` : ''}${r.push.pushed ? ', pushed now' : ''}`);
  out.push(`Worktree: ${r.worktree}`);
  out.push(
    `PR base: ${r.base.branch} (${r.base.source === 'comment' ? `from the "${PR_TARGET_MARKER}" comment` : 'DEFAULT_BASE_BRANCH: no PR target comment'})`,
  );
  if (r.verdict) out.push('', ...changesRequestedLines(r.verdict));
  out.push('', 'Acceptance criteria:');
  out.push(
    ...(r.acceptanceCriteria.length
      ? r.acceptanceCriteria.map((c) => `  - ${c}`)
      : [dim(io, '  (none found under an "Acceptance criteria" heading in the description)')]),
  );
  if (r.notes) out.push('', 'Notes (saved as task memory):', `  ${r.notes}`);
  if (r.taskMemory.length)
    out.push(
      '',
      `Task memory (${r.taskMemory.length} earlier note${r.taskMemory.length === 1 ? '' : 's'}):`,
      ...r.taskMemory.flatMap((m) => m.text.split('\n').map((l, i) => `  ${i === 0 ? '- ' : '  '}${l}`)),
    );
  out.push('');
  if (r.assignmentReport) out.push(`Assignment report (on ${r.assignmentReport.issue}):`, ...r.assignmentReport.text.split('\n').map((l) => `  ${l}`));
  else out.push(dim(io, `No "${REPORT_MARKER}" comment found on ${r.parent?.key ?? r.key}.`));
  if (r.warnings.length) out.push('', 'Warnings:', ...r.warnings.map((w) => `  ! ${w}`));
  out.push('', 'Next steps:', ...r.nextSteps.map((step, i) => `  ${i + 1}. ${step}`));
  return out.join('\n');
}

function usage(problem: string, hint?: string): JstError {
  return new JstError({ code: 'START_USAGE', exitCode: EXIT.usage, problem, ...(hint ? { hint } : {}) });
}

/** Where `jst start` would run: the issue worktrees of this repository. */
async function worktreeHint(cwd: string, g: git.GitOptions): Promise<string> {
  const issueTrees = (await git.worktreeList(cwd, g).catch(() => [])).filter((e) => e.branch !== null && issueKeyFromBranch(e.branch) !== null);
  if (!issueTrees.length) return 'cd into the worktree jst plan created for the issue (see its hand-off lines), then run jst start';
  return `cd into the issue's worktree first: ${issueTrees.map((e) => `cd ${e.path} && jst start`).join(' | ')}`;
}

async function originHeads(cwd: string, g: git.GitOptions): Promise<Set<string>> {
  const out = (await git.runGit(['ls-remote', '--heads', 'origin'], cwd, g)).stdout;
  return new Set(
    out
      .split('\n')
      .map((l) => l.split('\t')[1] ?? '')
      .filter((r) => r.startsWith('refs/heads/'))
      .map((r) => r.slice('refs/heads/'.length)),
  );
}

function samePath(a: string, b: string): boolean {
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return p;
    }
  };
  return real(a) === real(b);
}
