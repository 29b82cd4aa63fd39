import { firstLineText, walkText } from '@jst/adf';
import type { TrackerClient } from './client.js';
import type { Comment, Issue, Transition } from './types.js';

/** A stop of the client rules: nothing further was sent. */
export class RuleStop extends Error {
  constructor(
    readonly rule: string,
    message: string,
  ) {
    super(message);
    this.name = 'RuleStop';
  }
}

/**
 * spec §4 client rule 5: no transition the tracker offers leads to `status`, so nothing was
 * posted. `email` is the account that asked (whose offer it was: a workflow condition may leave
 * out a transition for one account and not another, spec §3 rule 5).
 */
export class TransitionMissing extends RuleStop {
  /** `offered`: what the tracker offered instead; `from`: the status it was read in, when known. */
  constructor(
    readonly key: string,
    readonly status: string,
    readonly email: string,
    offered: readonly Transition[],
    from?: string,
  ) {
    const reachable = [...new Set(offered.map((t) => t.to?.name).filter(Boolean))];
    super(
      'client rule 5',
      `No transition of ${key} leads to "${status}" (reachable from ${from === undefined ? 'here' : `"${from}"`}: ${reachable.length ? reachable.map((n) => `"${n}"`).join(', ') : 'none'}). Nothing was changed. Status names match literally: check STATUS_* in .jst/team.env.`,
    );
    this.name = 'TransitionMissing';
  }
}

/** spec §4 client rule 2: visible when some project in `values` has exactly that key; all pages are read. */
export async function projectVisible(client: TrackerClient, key: string): Promise<boolean> {
  let startAt = 0;
  for (let guard = 0; guard < 1000; guard++) {
    const page = await client.searchProjects({ query: key, startAt, maxResults: 50 });
    if (page.values.some((p) => p.key === key)) return true;
    const last = page.isLast ?? (page.values.length === 0 || startAt + page.values.length >= (page.total ?? 0));
    if (last || page.values.length === 0) return false;
    startAt += page.values.length;
  }
  return false;
}

/** spec §4 client rule 4: the first accountId that user search gives for an e-mail. */
export async function accountIdByEmail(client: TrackerClient, email: string): Promise<string> {
  const users = await client.findUsers(email);
  const first = users[0];
  if (!first?.accountId)
    throw new RuleStop(
      'client rule 4',
      `No account found for ${email} (GET /user/search?query=${email} returned no user). Check the address and that the account exists on this site.`,
    );
  return first.accountId;
}

/** spec §4 client rule 4: assign by e-mail (`@me`: the caller's own accountId from /myself), or unassign with null. */
export async function assignByEmail(client: TrackerClient, key: string, who: string | null): Promise<string | null> {
  const accountId = who === null ? null : who === '@me' ? (await client.myself()).accountId : await accountIdByEmail(client, who);
  await client.assign(key, accountId);
  // spec §4 client rule 7: a 204 is confirmed by reading back.
  const issue = await client.getIssue(key, ['assignee']);
  if (!sameAssignee(issue, accountId))
    throw new RuleStop('client rule 7', `The tracker answered 204 but ${key} is not assigned as asked. Read it again and retry.`);
  return accountId;
}

/** spec §4 client rule 8: assignees are compared by accountId, never by e-mail. */
export function sameAssignee(issue: Issue, accountId: string | null): boolean {
  const current = issue.fields.assignee?.accountId ?? null;
  return current === accountId;
}

/** spec §4 client rule 5: the first transition whose destination `to.name` equals the status name (not `name`). */
export function pickTransition(transitions: Transition[], status: string): Transition | undefined {
  return transitions.find((t) => t.to?.name === status);
}

/**
 * spec §4 client rule 5 and §3: transition by destination status name. When no transition leads
 * there, stop and post nothing; otherwise post it and confirm by re-reading the status (rule 7).
 */
export async function transitionTo(client: TrackerClient, key: string, status: string): Promise<Transition> {
  const { transitions } = await client.transitions(key);
  const chosen = pickTransition(transitions, status);
  if (!chosen) throw new TransitionMissing(key, status, client.email, transitions);
  await client.doTransition(key, chosen.id);
  const after = await client.getIssue(key, ['status']);
  if (after.fields.status?.name !== status) {
    throw new RuleStop('client rule 7', `The tracker answered 204 but ${key} is in "${after.fields.status?.name}", not "${status}".`);
  }
  return chosen;
}

/** spec §2: marker strings sit in text nodes of `body.content[].content[]`. */
export function commentText(comment: Comment): string[] {
  return [...walkText(comment.body)];
}

/** Comments whose text starts with a marker, e.g. `Assignment report` or `PR target branch:`. */
export function commentsWithMarker(comments: Comment[], marker: string): Comment[] {
  return comments.filter((c) => firstLineText(c.body).startsWith(marker) || commentText(c).some((t) => t.startsWith(marker)));
}

/**
 * An issue and every one of its comments in as few calls as the tracker allows: the `comment` field
 * rides along with the issue (its first page, docs/limits.md), and only an issue with more comments
 * than that page holds is read again through `GET …/comment` pages.
 */
export async function issueWithComments(client: TrackerClient, key: string, fields: readonly string[]): Promise<{ issue: Issue; comments: Comment[] }> {
  const issue = await client.getIssue(key, [...new Set([...fields, 'comment'])]);
  const page = issue.fields.comment;
  const first = page?.comments ?? [];
  if (page && Array.isArray(first) && (page.total ?? first.length) <= first.length) return { issue, comments: first };
  return { issue, comments: await allComments(client, key) };
}

/** Every comment of an issue, following startAt pages. */
export async function allComments(client: TrackerClient, key: string): Promise<Comment[]> {
  const out: Comment[] = [];
  for (let startAt = 0; ;) {
    const page = await client.listComments(key, { startAt, maxResults: 100 });
    out.push(...page.comments);
    startAt += page.comments.length;
    if (page.comments.length === 0 || startAt >= page.total) return out;
  }
}
