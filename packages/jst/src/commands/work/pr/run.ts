import { codehostRoleOf, type CodehostRole, type Role } from '../../../config/index.js';
import { pushEnvFor } from '../../../codehost/index.js';
import type { PullRequest } from '../../../core/codehost.js';
import { issueWithComments, transitionTo, type Comment, type Issue, type TrackerClient } from '@jst/client';
import type { Context } from '../../../core/context.js';
import type { Outcome } from '../../../core/output.js';
import * as git from '../../../git/index.js';
import { bodyText, writtenBody, type BodyOptions } from '../../../phase/body.js';
import { dirtyFiles, firstRef, issueCheckout } from '../../../phase/checkout.js';
import { refuse } from '../../../core/errors.js';
import { markedBody, markedComments, RUN_REPORT } from '../../../phase/markers.js';
import { resolvePrBase, type PrBase } from '../../../phase/pr-base.js';
import { roleComments } from '../../../phase/roles.js';
import { finish, stepper } from '../../../phase/steps.js';

export interface PrOptions extends BodyOptions {
  title?: string | undefined;
  draft?: boolean | undefined;
}

/**
 * `jst pr` (ARCHITECTURE §11), the executor in the issue's worktree. Every refusal (a dirty work
 * tree, no code host configured, the wrong status, no commits beyond the base) comes before the
 * first change; then push → find or open the pull request → STATUS_IN_REVIEW → `Run report`.
 * A rerun finds the open pull request and posts no second report.
 */
export async function prOutcome(ctx: Context, role: Role, o: PrOptions): Promise<Outcome> {
  const { say, warnings } = stepper(ctx);
  const here = await issueCheckout(ctx, 'jst pr');
  const g = { env: ctx.env };
  const config = ctx.config();
  const s = config.statuses;
  const body = bodyText({ words: o.body === undefined ? [] : [o.body], bodyFile: o.bodyFile }, 'pull request body');

  // The step line states what was found, so it comes after the check, never before a refusal.
  const dirty = await dirtyFiles(here.root, ctx.env);
  if (dirty.length) {
    throw refuse(
      'PR_DIRTY',
      `the work tree of ${here.branch} has uncommitted changes: ${dirty
        .slice(0, 8)
        .map((l) => l.trim().replace(/^\S+\s+/, ''))
        .join(', ')}${dirty.length > 8 ? ', …' : ''}`,
      'Nothing was pushed or posted. Commit the changes (or stash them), then rerun jst pr',
    );
  }
  say('✓ work tree is clean (git status --porcelain)');
  // The code host's settings are checked before the tracker is read (the client is kept for pushAndOpen).
  await ctx.codehost(codehostRoleOf(role));
  const client = ctx.client(role);
  const { issue, comments, base, pulls } = await readWhileFetching(ctx, codehostRoleOf(role), client, here, say);
  const status = issue.fields.status?.name ?? '';
  say(`✓ PR base ${base.base} (${base.source})`);

  const baseRef = await firstRef(here.root, [`refs/remotes/origin/${base.base}`, `refs/heads/${base.base}`], ctx.env);
  if (baseRef === null)
    throw refuse(
      'PR_NO_BASE',
      `the PR base ${base.base} exists neither on origin nor here`,
      `Push ${base.base} first (its worktree's jst pr, or git push -u origin ${base.base}), then rerun`,
    );
  const commits = Number((await git.runGit(['rev-list', '--count', `${baseRef}..HEAD`], here.root, g)).stdout);
  if (commits === 0)
    throw refuse(
      'PR_NO_COMMITS',
      `${here.branch} has no commits beyond ${base.base}, so there is nothing to review`,
      'Nothing was pushed or posted. Commit the work, then rerun jst pr',
    );

  const { pull, existing } = await pushAndOpen(ctx, codehostRoleOf(role), o, { here, base: base.base, summary: issue.fields.summary ?? '', body, pulls }, say);

  // spec §3 / §4 client rule 5: STATUS_IN_REVIEW by destination name.
  let transitioned = false;
  if (status !== s.inReview) {
    say(`→ move ${here.key} from "${status}" to "${s.inReview}"`);
    await transitionTo(client, here.key, s.inReview);
    transitioned = true;
  }
  // A new round (the issue came back from review) gets a new report; a plain rerun does not.
  // The comments as read with the issue: nothing of this command has posted one since.
  const reported = markedComments(await roleComments(ctx, 'executor', client, comments), RUN_REPORT).some((c) => c.text.includes(pull.html_url));
  let reportId: string | null = null;
  if (transitioned || !reported) {
    // The pull request's body goes to the code host as written (it renders Markdown itself); in the
    // Run report it is literal, or ADF nodes with --markdown.
    const report = markedBody(
      RUN_REPORT,
      [`Pull request: ${pull.html_url}`, `Branch: ${here.branch} → ${base.base}`, `Commits beyond ${base.base}: ${commits}`],
      writtenBody(body, o.markdown, o.bodyFile ?? 'the body'),
    );
    say(`→ comment on ${here.key}: ${RUN_REPORT}`);
    reportId = (await client.addComment(here.key, report.adf)).id;
  } else {
    say(`✓ the ${RUN_REPORT} naming ${pull.html_url} is already on ${here.key}`);
  }

  const result = {
    key: here.key,
    branch: here.branch,
    base: base.base,
    baseSource: base.source,
    commits,
    pullRequest: { number: pull.number, url: pull.html_url, state: pull.state, created: !existing },
    status: s.inReview,
    transitioned,
    runReport: { posted: reportId !== null, commentId: reportId },
    warnings,
    next: [`jst review ${here.key}`],
  };
  return finish(
    result,
    [
      `${here.key}: pull request #${pull.number} ${existing ? 'was already open' : 'opened'}: ${pull.html_url}`,
      `${here.branch} → ${base.base} (${commits} commit${commits === 1 ? '' : 's'}), ${here.key} is "${s.inReview}"${transitioned ? ` (was "${status}")` : ''}`,
      reportId ? `${RUN_REPORT} posted on ${here.key}.` : `${RUN_REPORT} already on ${here.key}: nothing new posted.`,
    ],
    [`The reviewer: jst review ${here.key}`],
  );
}

/**
 * The issue (with its comments), its PR base and the pull requests from its branch into that base,
 * read while `git fetch origin` runs: the fetch changes no work and no issue, and what it fetched is
 * looked at only once every refusal on the tracker's side is past. A refusal waits for the fetch
 * too, so no git process of this run is left. The code host is asked before anything is pushed, so
 * a code host that says no stops the run before the push.
 */
async function readWhileFetching(
  ctx: Context,
  who: CodehostRole,
  client: TrackerClient,
  here: { root: string; branch: string; key: string },
  say: (l: string) => void,
): Promise<{ issue: Issue; comments: Comment[]; base: PrBase; pulls: PullRequest[] }> {
  const s = ctx.config().statuses;
  say('→ git fetch origin');
  const fetched = git.fetch(here.root, { env: ctx.env }).then(
    () => null,
    (e: unknown) => (e instanceof Error ? e : new Error(String(e))),
  );
  let read: { issue: Issue; comments: Comment[]; base: PrBase; pulls: PullRequest[] };
  try {
    say(`→ read ${here.key} (with its comments)`);
    // One read: the status, the parent for the PR base, and the comments for the PR base and the rerun check.
    const { issue, comments } = await issueWithComments(client, here.key, ['summary', 'status', 'parent', 'issuetype', 'subtasks']);
    const status = issue.fields.status?.name ?? '';
    refuseParent(here.key, issue.fields.subtasks ?? []);
    if (status !== s.inProgress && status !== s.inReview) {
      throw refuse(
        'PR_STATUS',
        `${here.key} is in "${status}": jst pr opens the pull request of work in "${s.inProgress}" (or reruns on "${s.inReview}")`,
        status === s.done ? 'Nothing was changed: the issue is finished' : 'Nothing was changed. Run jst start first, then commit, then jst pr',
      );
    }
    const base = await resolvePrBase({
      ctx,
      cwd: here.root,
      env: ctx.env,
      branch: here.branch,
      key: here.key,
      config: ctx.config(),
      client,
      issue,
      comments,
      say,
    });
    say(`→ pull requests from ${here.branch} into ${base.base}`);
    const pulls = await (await ctx.codehost(who)).pulls(here.branch, base.base);
    read = { issue, comments, base, pulls };
  } finally {
    await fetched;
  }
  const fetchError = await fetched;
  if (fetchError !== null) throw fetchError;
  // What was read of the refs while the fetch ran is read again from here on (git/reads.ts).
  git.forgetReads('refs');
  return read;
}

/** Push the branch, then take its open pull request into `base` (found before the push) or open one (a rerun opens no second). */
async function pushAndOpen(
  ctx: Context,
  who: CodehostRole,
  o: PrOptions,
  w: { here: { root: string; branch: string; key: string }; base: string; summary: string; body: string | null | undefined; pulls: PullRequest[] },
  say: (l: string) => void,
) {
  const { here, base, summary, body } = w;
  const codehost = await ctx.codehost(who);
  const existing = w.pulls.find((p) => p.state === 'open');
  say(`→ git push -u origin ${here.branch}`);
  await git.push(here.root, here.branch, { env: await pushEnvFor(ctx.config(), who, ctx.env, here.root) });
  let pull = existing;
  if (pull) {
    say(`✓ pull request #${pull.number} is already open: ${pull.html_url}`);
  } else {
    say(`→ open a pull request from ${here.branch} into ${base}`);
    pull = await codehost.createPull({
      title: o.title ?? `${here.key}: ${summary}`.trim(),
      head: here.branch,
      base: base,
      body: body ?? `${here.key}: ${summary}\n\nOpened by jst pr.`,
      draft: Boolean(o.draft),
    });
  }
  return { pull, existing };
}

/** ARCHITECTURE §11: a parent's pull request is the reviewer's, opened once its sub-tasks' are merged. */
function refuseParent(key: string, subtasks: readonly { key: string }[]): void {
  if (subtasks.length) {
    throw refuse(
      'PR_PARENT',
      `${key} has sub-tasks (${subtasks.map((t) => t.key).join(', ')}): its pull request is opened by the reviewer once every sub-task pull request is merged, not by jst pr`,
      `Nothing was pushed or posted. Open each sub-task's pull request with jst pr in its worktree; then the reviewer runs jst review ${key} --open-parent-pr`,
    );
  }
}
