import { textToAdf } from '@jst/adf';
import { issueWithComments, pickTransition, TrackerHttpError, TransitionMissing, type Comment, type TrackerClient } from '@jst/client';
import type { Context } from '../core/context.js';
import { latestVerdictComment, type Verdict } from './markers.js';
import { readRoleComments, requireRoleAccount, roleComments } from './roles.js';

/**
 * `jst done` and a verdict asking for changes, racing on one issue (ARCHITECTURE §11: never both
 * succeed). The tracker offers no compare-and-swap on a status (a Kanban workflow moves any status
 * to any other), so each side raises a flag, then reads the other's:
 *
 *   done:    re-read status and verdict after the yes (In Review, newest verdict APPROVED);
 *            D1 move to Done (its flag);
 *            D2 read the reviewer's newest verdict: still APPROVED → done wins (exit 0).
 *               A CHANGES REQUESTED one (the verdict's flag) → wait for the verdict to decide:
 *               the status leaves Done (the verdict won: exit 1, nothing to undo) or the comment
 *               is withdrawn (the verdict lost: done wins). After SETTLE_MS with neither, done
 *               gives way: the issue goes to In Progress, as the standing verdict asks (exit 1).
 *   verdict: V1 post the CHANGES REQUESTED comment on the issue (its flag);
 *            V2 re-read the status: In Review → move to In Progress, the verdict wins (exit 0; a
 *               done that moved it to Done meanwhile is moved back, it cannot have won);
 *               In Progress → already where the verdict sends it: wins;
 *               Done (or anything else) → the verdict lost: its comment is withdrawn (edited so
 *               its first line is no verdict), nothing else is posted (exit 1).
 *
 * Why at most one exits 0: done wins only on a D2 read (after D1) that sees no standing CHANGES
 * REQUESTED comment; the verdict wins only when V2 (after V1) sees a status other than Done and
 * then never withdraws. If both won, D2 ran before V1 (the verdict's comment is never withdrawn
 * when it wins), so D1 < D2 < V1 < V2, and V2 saw Done: nothing moves an issue out of Done in
 * between (done moves only when it loses; the verdict only after V2). A contradiction.
 * Both lose only when done waits SETTLE_MS for a verdict that does not decide (a process that
 * died between V1 and V2, or a verdict slower than that).
 */

/** How long done waits for a racing verdict to decide, and how often it looks. */
export const SETTLE_MS = 10_000;
const POLL_MS = 200;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * One move by destination name (spec §4 client rule 5), then the status read back (rule 7). Unlike
 * `transitionTo`, a read-back that differs is no error here: in a race the other side may move
 * the issue right after this one, and what that means is decided by the protocol above.
 */
async function moveOnce(client: TrackerClient, key: string, status: string): Promise<{ posted: boolean; now: string }> {
  const { transitions } = await client.transitions(key);
  const chosen = pickTransition(transitions, status);
  if (!chosen) {
    const now = (await client.getIssue(key, ['status'])).fields.status?.name ?? '';
    // No transition into the current status is offered: someone moved it there first.
    if (now === status) return { posted: false, now };
    throw new TransitionMissing(key, status, client.email, transitions, now);
  }
  await client.doTransition(key, chosen.id);
  return { posted: true, now: (await client.getIssue(key, ['status'])).fields.status?.name ?? '' };
}

/**
 * Stops before anything is asked or moved when the tracker offers no transition of `key` into
 * `status` (a workflow condition, spec §3 rule 5, or the workflow itself): `jst done` checks this
 * before the person's yes, so a yes is never asked for a move that cannot be made.
 */
export async function requireMoveOffered(client: TrackerClient, key: string, status: string): Promise<string> {
  const { transitions } = await client.transitions(key);
  const chosen = pickTransition(transitions, status);
  if (chosen) return chosen.id;
  throw new TransitionMissing(key, status, client.email, transitions);
}

/** Moves `key` to `status` unless it is there already (another party's move to the same place is no failure); true when it posted a move. */
export async function settleStatus(client: TrackerClient, key: string, status: string): Promise<boolean> {
  if ((await client.getIssue(key, ['status'])).fields.status?.name === status) return false;
  return (await moveOnce(client, key, status)).posted;
}

/**
 * The reviewer's newest verdict on `key` (exit 1 when the reviewer's account is unknown); from
 * `comments` when the caller has just read them with the issue (client `issueWithComments`).
 */
export async function reviewerVerdictOf(
  ctx: Context,
  client: TrackerClient,
  key: string,
  comments?: readonly Comment[],
): Promise<{ verdict: Verdict; commentId: string } | null> {
  const posted = comments ? await roleComments(ctx, 'reviewer', client, comments) : await readRoleComments(ctx, 'reviewer', client, key);
  requireRoleAccount(posted, 'a verdict');
  const found = latestVerdictComment(posted);
  return found ? { verdict: found.verdict, commentId: found.comment.id } : null;
}

export interface Statuses {
  inProgress: string;
  inReview: string;
  done: string;
}

export type DoneMove = { moved: true } | { moved: false; already: boolean; why: string };

/**
 * done's side, for one key after its yes: re-check, D1, D2 (see above). `settleMs`: how long D2
 * waits (tests shorten it). `checked`: the key was checked (In Review, approved, the move to Done
 * offered as `transitionId`) after its yes was given, that is a yes on the command line: that
 * check is the re-check, and the move uses the transition it found.
 */
export async function closeApproved(
  ctx: Context,
  client: TrackerClient,
  key: string,
  s: Statuses,
  say: (l: string) => void,
  settleMs = SETTLE_MS,
  checked?: { transitionId: string },
): Promise<DoneMove> {
  if (!checked) {
    say(`→ read ${key} again (status and verdict after the yes)`);
    const status = (await client.getIssue(key, ['status'])).fields.status?.name ?? '';
    if (status === s.done) return { moved: false, already: true, why: `${key} was moved to "${s.done}" meanwhile` };
    if (status !== s.inReview) return { moved: false, already: false, why: `${key} moved to "${status}" while jst done waited for the yes; it was left there` };
    const before = await reviewerVerdictOf(ctx, client, key);
    if (before?.verdict.kind !== 'approved')
      return {
        moved: false,
        already: false,
        why: `${key}'s newest verdict became "${before?.verdict.line ?? 'none'}" while jst done waited for the yes; it stays in "${s.inReview}"`,
      };
  }

  say(`→ move ${key} from "${s.inReview}" to "${s.done}"`);
  // D1. What its read-back says is for D2 to weigh (a verdict may move it straight after).
  if (!checked || !(await moveBy(client, key, checked.transitionId))) await moveOnce(client, key, s.done);
  for (const deadline = Date.now() + settleMs; ;) {
    // D2 and the status in one read after the move (the read-back of spec §4 client rule 7 too).
    say(`→ read ${key} again (its status, and a verdict given meanwhile)`);
    const { issue, comments } = await issueWithComments(client, key, ['status']);
    const now = await reviewerVerdictOf(ctx, client, key, comments);
    if (now?.verdict.kind === 'approved') return { moved: true };
    const at = issue.fields.status?.name ?? '';
    if (at !== s.done)
      return { moved: false, already: false, why: `a verdict ("${now?.verdict.line ?? 'none'}") was given while jst done ran, and moved ${key} to "${at}"` };
    if (Date.now() >= deadline) break;
    await sleep(POLL_MS);
  }
  const line = (await reviewerVerdictOf(ctx, client, key))?.verdict.line ?? 'none';
  say(`→ move ${key} back to "${s.inProgress}" (the newest verdict asks for changes)`);
  await settleStatus(client, key, s.inProgress);
  return { moved: false, already: false, why: `a verdict ("${line}") was given while jst done ran; ${key} is back in "${s.inProgress}"` };
}

/** The move by a transition found a moment ago; false when the tracker no longer takes it (then moveOnce reads them again). */
async function moveBy(client: TrackerClient, key: string, transitionId: string): Promise<boolean> {
  try {
    await client.doTransition(key, transitionId);
    return true;
  } catch (e) {
    if (e instanceof TrackerHttpError && e.status >= 400 && e.status < 500 && e.status !== 401 && e.status !== 403 && e.status !== 404) return false;
    throw e;
  }
}

export type VerdictMove = { won: true; transitioned: boolean } | { won: false; status: string; withdrawn: boolean };

/** The verdict's side after its comment is on the issue: V2 (see above). */
export async function sendBack(
  client: TrackerClient,
  key: string,
  comment: { id: string; line: string },
  s: Statuses,
  say: (l: string) => void,
): Promise<VerdictMove> {
  say(`→ read ${key} again (the status, before moving it)`);
  const status = (await client.getIssue(key, ['status'])).fields.status?.name ?? '';
  if (status === s.inProgress) return { won: true, transitioned: false };
  if (status === s.inReview) {
    say(`→ move ${key} from "${s.inReview}" to "${s.inProgress}"`);
    const moved = await moveOnce(client, key, s.inProgress);
    let transitioned = moved.posted;
    // A done that moved it after the read above cannot have won (see the protocol): back again.
    if (moved.now === s.done) {
      say(`→ move ${key} from "${s.done}" back to "${s.inProgress}" (jst done moved it meanwhile and gives way)`);
      transitioned = (await settleStatus(client, key, s.inProgress)) || transitioned;
    }
    return { won: true, transitioned };
  }
  say(`→ withdraw the verdict comment on ${key} (it is in "${status}")`);
  const withdrawn = await client
    .updateComment(
      key,
      comment.id,
      textToAdf(`Withdrawn: ${comment.line}\n${key} moved to "${status}" before this verdict could send it back, so the verdict was not given.`),
    )
    .then(
      () => true,
      () => false,
    );
  return { won: false, status, withdrawn };
}
