import { codehostRoleOf, type Role } from '../config/index.js';
import { issueWithComments, transitionTo, type Comment, type Issue, type IssueLink, type TrackerClient } from '@jst/client';
import { commentPlain, firstLine, markedBody, RUN_REPORT, verdictOf } from './markers.js';
import { readRoleComments, roleComments } from './roles.js';
import type { Context } from '../core/context.js';
import type { Outcome } from '../core/output.js';
import { refuse } from '../core/errors.js';
import { myVerdict, pullOfIssue, type PrEntry, type PullLookup } from './pulls.js';
import type { Codehost } from '../core/codehost.js';
import { finish, stepper } from './steps.js';
import { nextStep } from './spell.js';
import { ISSUE_FIELDS, reviewKey } from './review-issue.js';

export interface ReviewBriefOptions {
  key?: string | undefined;
  openParentPr?: boolean | undefined;
  json?: boolean | undefined;
}

/**
 * `jst review [KEY] [--open-parent-pr]` (ARCHITECTURE §11): the review brief. The track, the PR set
 * (each in-review sub-task's pull request into the parent branch, or the one top-level pull
 * request; once every sub-task pull request is merged, the parent's), each with its state and this
 * code-host identity's verdict. The diff is left to git or the code host.
 */
export async function reviewBriefOutcome(ctx: Context, role: Role, o: ReviewBriefOptions): Promise<Outcome> {
  const { say, warn, warnings } = stepper(ctx);
  const { key, cwd } = await reviewKey(ctx, o.key, 'jst review');
  const config = ctx.config();
  const codehost = await ctx.codehost(codehostRoleOf(role));
  const client = ctx.client(role);
  say(`→ read ${key}`);
  // Opening the parent's pull request needs the parent's comments (its Run report of a rerun): read with it.
  const { issue, comments } = o.openParentPr
    ? await issueWithComments(client, key, ISSUE_FIELDS)
    : { issue: await client.getIssue(key, ISSUE_FIELDS), comments: undefined };
  const l: PullLookup = { ctx, cwd, env: ctx.env, config, client, codehost, say };
  const subtasks = issue.fields.subtasks ?? [];
  const track = subtasks.length || issue.fields.parent ? 'multistep' : 'single-step';
  let set: PrEntry[];
  let parentPr: { allMerged: boolean; opened: boolean } | null = null;
  // The status printed is the one the issue has when the command ends, not the one read first.
  let status = issue.fields.status?.name ?? '';

  if (subtasks.length) {
    // The sub-tasks' pull requests share a base (the parent's branch): one read of those into it serves them all.
    const ofSubs: PullLookup = { ...l, byBase: new Map() };
    // The sub-tasks' pull requests are looked up a few at a time (each its own code-host read); the
    // warnings keep the sub-tasks' order.
    const found = await inTurns(subtasks, LOOKUPS_AT_ONCE, (t) =>
      pullOfIssue(ofSubs, subtaskAsIssue(t, issue)).then(
        (r) => ({ entry: r.entry, problem: null }),
        (e: unknown) => ({ entry: null, problem: (e as Error).message }),
      ),
    );
    const subs: PrEntry[] = subtasks.map((t, i) => {
      const r = found[i]!;
      if (r.problem !== null) warn(`${t.key}: ${r.problem}`);
      return r.entry ?? { key: t.key, branch: '', base: '', number: null, url: null, state: 'none', verdict: null };
    });
    const allMerged = subs.length > 0 && subs.every((e) => e.state === 'merged');
    if (o.openParentPr && !allMerged) {
      throw refuse(
        'REVIEW_NOT_MERGED',
        `the parent's pull request waits for every sub-task pull request to be merged, and these are not: ${subs
          .filter((e) => e.state !== 'merged')
          .map((e) => `${e.key} (${e.state === 'none' ? 'no pull request' : e.state})`)
          .join(', ')}`,
        'Nothing was opened. Merge them on the code host first, then rerun',
      );
    }
    if (allMerged) {
      const own = await pullOfIssue(l, issue, comments);
      let opened = false;
      if (own.entry.state !== 'open' && own.entry.state !== 'merged' && o.openParentPr) {
        say(`→ open the parent's pull request from ${own.entry.branch} into ${own.entry.base}`);
        const p = await codehost.createPull({
          title: `${key}: ${issue.fields.summary ?? ''}`.trim(),
          head: own.entry.branch,
          base: own.entry.base,
          body: `${key}: ${issue.fields.summary ?? ''}\n\nEvery sub-task pull request (${subs.map((e) => e.key).join(', ')}) is merged into ${own.entry.branch}.\nOpened by jst review --open-parent-pr.`,
          draft: false,
        });
        own.entry = { ...own.entry, number: p.number, url: p.html_url, state: 'open' };
        opened = true;
      }
      if (o.openParentPr && own.entry.state === 'open') {
        const head = await newRound(codehost, own.entry, status === config.statuses.inReview, say);
        status = await parentInReview(ctx, client, issue, comments, own.entry, head, say);
      }
      set = [own.entry];
      parentPr = { allMerged, opened };
    } else {
      // An open pull request is listed whatever its sub-task's status (a sub-task marked Done before
      // its pull request was merged still has one to review or merge).
      const inReview = new Set(subtasks.filter((t) => t.fields?.status?.name === config.statuses.inReview).map((t) => t.key));
      set = subs.filter((e) => inReview.has(e.key) || e.state === 'open');
      parentPr = { allMerged, opened: false };
    }
  } else {
    if (o.openParentPr)
      throw refuse(
        'REVIEW_NOT_PARENT',
        `${key} has no sub-tasks, so there is no parent's pull request to open`,
        `Run jst review ${key} for its own pull request`,
      );
    set = [(await pullOfIssue(l, issue)).entry];
  }

  const withPr = set.filter((e) => e.number !== null);
  if (withPr.length) {
    say('→ this code-host identity (GET /user)');
    const me = await codehost.user();
    const verdicts = await inTurns(withPr, LOOKUPS_AT_ONCE, (e) => myVerdict(codehost, e.number!, me.login));
    withPr.forEach((e, i) => (e.verdict = verdicts[i]!));
  }
  const next = nextFor(ctx, key, set, parentPr);
  return finish(
    { key, summary: issue.fields.summary ?? '', status, track, prs: set, parentPr, warnings, next },
    [
      `${key}  ${issue.fields.summary ?? ''}  [${status}]`,
      `Track: ${track}`,
      set.length ? 'Pull requests:' : 'Pull requests: none to review yet',
      ...set.map(
        (e) =>
          `  ${e.key}  ${e.branch} → ${e.base}  ${e.url ?? '(no pull request)'}  ${e.state}  ${e.verdict ? `your verdict: ${e.verdict.line}` : 'no verdict from you yet'}`,
      ),
      ...diffLines(set),
    ],
    next,
  );
}

/**
 * The parent's pull request is its `jst pr`: the parent moves to STATUS_IN_REVIEW and gets a
 * `Run report` naming the URL (each only once), so its verdict and `jst done` follow the same rules.
 */
async function parentInReview(
  ctx: Context,
  client: TrackerClient,
  issue: Issue,
  comments: readonly Comment[] | undefined,
  e: PrEntry,
  head: string | null,
  say: (l: string) => void,
): Promise<string> {
  const s = ctx.config().statuses;
  const status = issue.fields.status?.name ?? '';
  if (status !== s.inReview) {
    say(`→ move ${issue.key} from "${status}" to "${s.inReview}"`);
    await transitionTo(client, issue.key, s.inReview);
  }
  // Whether this command posted it already (a rerun): the reviewer's own comments, as read with the
  // issue (nothing of this run posted one since). A Run report counts as a marker only from the
  // executor (ARCHITECTURE §11); this one is the reviewer's record.
  const own = comments ? await roleComments(ctx, 'reviewer', client, comments) : await readRoleComments(ctx, 'reviewer', client, issue.key);
  if (
    own.comments.some((c) => {
      const text = commentPlain(c);
      return firstLine(text) === RUN_REPORT && text.includes(e.url ?? '\u0000') && (head === null || text.includes(head));
    })
  )
    return s.inReview;
  say(`→ comment on ${issue.key}: ${RUN_REPORT}`);
  await client.addComment(
    issue.key,
    markedBody(RUN_REPORT, [
      `Pull request: ${e.url}`,
      `Branch: ${e.branch} → ${e.base}`,
      ...(head ? [`Head: ${head}`] : []),
      `Every sub-task pull request of ${issue.key} is merged into ${e.branch}.`,
    ]).adf,
  );
  return s.inReview;
}

/**
 * The parent's pull request is open and the parent is back from review: it goes to review again only
 * with something new on it. Its head commit is compared with the one this identity's latest verdict
 * asking for changes was left on; the same commit is a refusal (nothing new to review). Returns the
 * head commit (the new round's Run report names it), or null when the code host does not say.
 */
async function newRound(codehost: Codehost, e: PrEntry, inReview: boolean, say: (l: string) => void): Promise<string | null> {
  say(`→ the parent's pull request #${e.number!} and its reviews`);
  const head = (await codehost.pull(e.number!)).head.sha ?? null;
  if (inReview || head === null) return head;
  const me = await codehost.user();
  const mine = (await codehost.reviews(e.number!)).filter((r) => r.user?.login === me.login && verdictOf(r.body) !== null);
  const last = mine.at(-1);
  if (last && verdictOf(last.body)?.kind === 'changes-requested' && last.commit_id === head) {
    throw refuse(
      'REVIEW_NOTHING_NEW',
      `nothing was pushed to ${e.branch} since you requested changes on its pull request (${e.url ?? ''}, head ${head.slice(0, 12)}): there is no new round to review`,
      `Nothing was moved or posted. The executor fixes it in the parent's worktree (jst start --on-parent, commit, git push), then rerun`,
    );
  }
  return head;
}

/** The diff of each pull request as the command that shows it (the branches are on origin after git fetch). */
function diffLines(set: PrEntry[]): string[] {
  const known = set.filter((e) => e.branch && e.base);
  if (!known.length) return ['The diff: the pull request on the code host.'];
  return [
    'The diff (after git fetch origin), or the pull request on the code host:',
    ...known.map((e) => `  ${e.key}  git diff origin/${e.base}...origin/${e.branch}`),
  ];
}

/** What is left to do: a verdict on each open pull request this identity has not approved; an approved one waits for the person's done. */
function nextFor(ctx: Context, key: string, set: PrEntry[], parentPr: { allMerged: boolean; opened: boolean } | null): string[] {
  if (parentPr?.allMerged && set[0]?.state === 'none') return [`Every sub-task pull request is merged: ${nextStep.openParentPr(ctx, key)}`];
  return set
    .filter((e) => e.state === 'open')
    .map((e) =>
      e.verdict?.kind === 'approved'
        ? `${e.key} is approved: the person merges it with jst done ${e.key} --yes ${e.key}`
        : `${nextStep.verdict(ctx, e.key, 'approve')}   or   ${nextStep.verdict(ctx, e.key, 'request-changes')}`,
    );
}

/** How many code-host reads the brief has in flight at once. */
const LOOKUPS_AT_ONCE = 4;

/** `work` over `items`, at most `n` at once; the results in the items' order. */
export async function inTurns<T, R>(items: readonly T[], n: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, lane));
  return out;
}

/** A sub-task as the parent lists it, with the parent link the PR-base resolver reads. */
function subtaskAsIssue(t: IssueLink, parent: Issue): Issue {
  return { id: t.id, key: t.key, fields: { ...(t.fields ?? {}), parent: { id: parent.id, key: parent.key } } };
}
