import { codehostRoleOf, type Role } from '../config/index.js';
import { issueWithComments, TrackerHttpError, type Comment, type TrackerClient } from '@jst/client';
import type { Context } from '../core/context.js';
import type { Outcome } from '../core/output.js';
import { bodyText, writtenBody, type BodyOptions } from './body.js';
import { refuse, usage } from '../core/errors.js';
import { latestVerdict, verdictOf, type Verdict, markedBody, markedComments, REVIEW_TALLY, verdictLine, type VerdictKind } from './markers.js';
import { myVerdict, pullOfIssue } from './pulls.js';
import { reviewerVerdictOf, sendBack } from './race.js';
import { readRoleComments, requireRoleAccount, roleComments } from './roles.js';
import { finish, stepper } from './steps.js';
import { nextStep } from './spell.js';
import { changesRequestedNext } from './verdict-next.js';
import { ISSUE_FIELDS } from './review-issue.js';
import { requireIssueKey } from '../core/issue-key.js';

export interface VerdictOptions extends BodyOptions {
  key: string;
  kind: VerdictKind;
  summary: string;
}

/**
 * `jst review KEY --approve|--request-changes --summary S` (ARCHITECTURE §11): one `COMMENT` review
 * whose first line is `APPROVED — S` or `CHANGES REQUESTED — S`, the same report on the issue, a
 * tally on the parent; changes requested moves the issue back to STATUS_IN_PROGRESS. Each of the
 * posts is skipped when it is already there, so a rerun with the same verdict posts nothing.
 */
export async function reviewVerdictOutcome(ctx: Context, role: Role, o: VerdictOptions): Promise<Outcome> {
  const { say, warnings } = stepper(ctx);
  o = { ...o, key: requireIssueKey(o.key) };
  const summary = o.summary.trim();
  if (!summary || /[\r\n]/.test(summary))
    throw usage('USAGE', `${nextStep.input(ctx, 'summary', '--summary')} must be one non-empty line: it becomes the verdict's first line`);
  const body = bodyText({ words: o.body === undefined ? [] : [o.body], bodyFile: o.bodyFile }, 'review body');
  const config = ctx.config();
  const s = config.statuses;
  const codehost = await ctx.codehost(codehostRoleOf(role));
  const client = ctx.client(role);
  say(`→ read ${o.key} (with its comments)`);
  // One read of the issue and its comments serves the PR base, the verdict on it and the rerun check.
  const { issue, comments } = await issueWithComments(client, o.key, ISSUE_FIELDS);
  const { entry, pull } = await pullOfIssue({ ctx, cwd: ctx.cwd, env: ctx.env, config, client, codehost, say }, issue, comments);
  if (!pull || entry.state !== 'open') {
    throw refuse(
      'REVIEW_NO_PR',
      `${o.key} has no open pull request from ${entry.branch} into ${entry.base}${entry.state === 'none' ? '' : ` (the newest is ${entry.state})`}`,
      issue.fields.subtasks?.length
        ? `Nothing was posted. For a parent: ${nextStep.openParentPr(ctx, o.key)} once every sub-task pull request is merged`
        : 'Nothing was posted. The executor opens it with jst pr',
    );
  }
  const line = verdictLine(o.kind, summary);
  say('→ this code-host identity (GET /user)');
  const me = await codehost.user();
  say(`→ reviews of pull request #${pull.number}`);
  const mine = await myVerdict(codehost, pull.number, me.login);
  const onIssue = (await reviewerVerdictOf(ctx, client, o.key, comments))?.verdict ?? null;
  const status = issue.fields.status?.name ?? '';
  const rerun = mine?.line === line && onIssue?.line === line;
  // A run stopped after its comment sent the issue back (In Progress) finishes what it began.
  const resume = o.kind === 'changes-requested' && onIssue?.line === line && status === s.inProgress;
  if (!rerun && !resume && status !== s.inReview) {
    throw refuse(
      'REVIEW_STATUS',
      `${o.key} is in "${status}", not "${s.inReview}": a verdict is given on work in review`,
      'Nothing was posted. The executor moves it to review with jst pr',
    );
  }
  const report = markedBody(line, [`Issue: ${o.key}`, `Pull request: ${pull.html_url}`], writtenBody(body, o.markdown, o.bodyFile ?? 'the review body'));
  const posted = { review: false, comment: false, tally: false, transitioned: false };
  // The comment on the issue comes first: for changes requested it is the flag of the race with
  // jst done (phase/race.ts), and nothing else is posted until the verdict has won it.
  let commentId: string | null = null;
  if (onIssue?.line !== line) {
    say(`→ comment on ${o.key}: ${line}`);
    commentId = (await client.addComment(o.key, report.adf)).id;
    posted.comment = true;
  } else say(`✓ ${o.key} already carries "${line}"`);
  // spec §3: changes requested sends the work back; an approval leaves it in review.
  if (o.kind === 'changes-requested' && !rerun) {
    commentId ??= (await reviewerVerdictOf(ctx, client, o.key))?.commentId ?? null;
    const r = await sendBack(client, o.key, { id: commentId ?? '', line }, s, say);
    if (!r.won) {
      throw refuse(
        'REVIEW_RACE_LOST',
        `${o.key} moved to "${r.status}"${r.status === s.done ? ' (jst done)' : ''} while the verdict was being given, so it was not sent back`,
        r.withdrawn
          ? `The comment "${line}" on ${o.key} was withdrawn, and nothing was posted on the pull request. To reopen the work, move ${o.key} back yourself, then give the verdict again`
          : `The comment "${line}" on ${o.key} could not be withdrawn: delete it by hand. Nothing was posted on the pull request`,
      );
    }
    posted.transitioned = r.transitioned;
  }
  if (mine?.line !== line) {
    say(`→ review on pull request #${pull.number}: ${line}`);
    // ARCHITECTURE §21: a real APPROVE / REQUEST_CHANGES when the reviewer is not the author (what a
    // protected branch counts); COMMENT when one account holds both sides, as GitHub refuses one's own.
    const author = pull.user?.login.toLowerCase();
    const event = author !== undefined && author !== me.login.toLowerCase() ? (o.kind === 'approved' ? 'APPROVE' : 'REQUEST_CHANGES') : 'COMMENT';
    await codehost.createReview(pull.number, report.text, event);
    posted.review = true;
  } else say(`✓ pull request #${pull.number} already carries your "${line}"`);
  const parent = issue.fields.parent?.key;
  if (parent && (posted.review || posted.comment)) posted.tally = await postTally(ctx, client, parent, { key: o.key, verdict: verdictOf(line)! }, say);

  const approved = o.kind === 'approved';
  const next = approved ? [`jst done ${o.key} --yes ${o.key}`] : await changesRequestedNext(ctx, o.key, entry.branch, Boolean(issue.fields.subtasks?.length));
  return finish(
    {
      key: o.key,
      verdict: line,
      pullRequest: { number: pull.number, url: pull.html_url },
      rerun: !posted.review && !posted.comment,
      posted,
      status: o.kind === 'changes-requested' && !rerun ? s.inProgress : status,
      warnings,
      next,
    },
    [
      posted.review || posted.comment ? `${o.key}: ${line}` : `${o.key}: "${line}" was already given: nothing new posted`,
      `Pull request #${pull.number}: ${pull.html_url}`,
      ...(posted.transitioned ? [`${o.key} moved back to "${s.inProgress}".`] : []),
      ...(posted.tally ? [`Tally updated on ${parent}.`] : []),
    ],
    next,
  );
}

/**
 * `Review tally` on the parent: every sub-task's newest verdict, in one comment that each verdict
 * edits in place (posted the first time; left alone when nothing changed). Only a tally from the
 * reviewer's own account counts (ARCHITECTURE §11 markers), and only that one can be edited.
 */
async function postTally(
  ctx: Context,
  client: TrackerClient,
  parentKey: string,
  known: { key: string; verdict: Verdict },
  say: (l: string) => void,
): Promise<boolean> {
  say(`→ read ${parentKey} (the tally)`);
  const { issue: parent, comments: parentComments } = await issueWithComments(client, parentKey, ['subtasks']);
  const rows: string[] = [];
  let approved = 0;
  const subs = parent.fields.subtasks ?? [];
  const others = subs.filter((t) => t.key !== known.key);
  const read = others.length ? await subtaskComments(client, parentKey, others.length, say) : new Map<string, Comment[]>();
  for (const t of subs) {
    // The verdict just given is known; the others are read from their issues (the reviewer's only).
    const found = read.get(t.key);
    const posted = found ? await roleComments(ctx, 'reviewer', client, found) : await readRoleComments(ctx, 'reviewer', client, t.key);
    const v = t.key === known.key ? known.verdict : latestVerdict(posted);
    if (v?.kind === 'approved') approved++;
    rows.push(`${t.key}: ${v ? v.line : 'no verdict yet'}`);
  }
  const tally = markedBody(REVIEW_TALLY, [...rows, `${approved} of ${subs.length} sub-tasks approved`]);
  const own = await roleComments(ctx, 'reviewer', client, parentComments);
  requireRoleAccount(own, `the ${REVIEW_TALLY}`);
  const last = markedComments(own, REVIEW_TALLY).at(-1);
  if (last && last.text.trim() === tally.text.trim()) return false;
  if (last) {
    say(`→ edit the ${REVIEW_TALLY} on ${parentKey} in place (${approved} of ${subs.length} approved)`);
    const edited = await client.updateComment(parentKey, last.comment.id, tally.adf).then(
      () => true,
      (e: unknown) => {
        // A tracker whose permission scheme lets no one edit comments: a new tally rather than none.
        if (e instanceof TrackerHttpError && e.status === 403) return false;
        throw e;
      },
    );
    if (edited) return true;
    say(`→ comment on ${parentKey}: ${REVIEW_TALLY} (the tracker refused the edit; ${approved} of ${subs.length} approved)`);
    await client.addComment(parentKey, tally.adf);
  } else {
    say(`→ comment on ${parentKey}: ${REVIEW_TALLY} (${approved} of ${subs.length} approved)`);
    await client.addComment(parentKey, tally.adf);
  }
  return true;
}

/**
 * The comments of a parent's sub-tasks in one search (`parent = KEY`, the `comment` field: each
 * issue's first page, docs/limits.md). A sub-task whose comments do not all fit that page, or that
 * the search did not return, is left out: the caller reads it on its own.
 */
async function subtaskComments(client: TrackerClient, parentKey: string, expected: number, say: (l: string) => void): Promise<Map<string, Comment[]>> {
  say(`→ comments of the sub-tasks of ${parentKey} (one search)`);
  const found = new Map<string, Comment[]>();
  const page = await client.searchJql({ jql: `parent = ${parentKey}`, fields: ['comment'], maxResults: Math.min(100, expected + 1) });
  for (const i of page.issues) {
    const c = i.fields.comment;
    if (c && Array.isArray(c.comments) && (c.total ?? c.comments.length) <= c.comments.length) found.set(i.key, c.comments);
  }
  return found;
}
