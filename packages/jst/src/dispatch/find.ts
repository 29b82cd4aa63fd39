import { allComments, type Comment, type Issue, type TrackerClient } from '@jst/client';
import type { Role, StatusNames } from '../config/index.js';
import { prTargetFrom } from '../phase/handover.js';
import { commentPlain, firstLine, RUN_REPORT, verdictOf, type VerdictKind } from '../phase/markers.js';
import { commentsBy } from '../phase/roles.js';

/**
 * What one round of `jst dispatch` finds (ARCHITECTURE §15): three searches through `/search/jql`,
 * each as the role whose work it is, with the comments in the search answer itself (`fields:
 * comment`), so an idle round costs three searches and no read per issue. Everything after the
 * searches is a pure function of what they returned.
 */

/** The four hand-offs of §15, in the order the section lists them. */
export type HandOff = 'start' | 'parent-pr' | 'review' | 'changes';

export interface Candidate {
  key: string;
  handOff: HandOff;
  role: Exclude<Role, 'assigner'>;
  /**
   * The issue's hand-off count, read from the tracker: 1 + the Run reports + the verdicts on it
   * (each counted from its role's account). Every hand-off ends by posting one of the two, so the
   * number moves on exactly when an agent's work is done, and a rerun of dispatch reads the same one.
   */
  round: number;
  /** The worktree the agent runs in: the assigner's `Worktree:` path; null = not known yet (resolved later). */
  worktree: string | null;
  why: string;
}

/** An issue that needs the person, not an agent. */
export interface Waiting {
  key: string;
  why: string;
  command: string | null;
}

export interface Accounts {
  assigner: string;
  executor: string;
  reviewer: string;
}

export interface Found {
  candidates: Candidate[];
  waiting: Waiting[];
  /** Every issue the searches returned with its comments, and its round now: a journalled agent's round is over when it differs. */
  rounds: Map<string, number>;
  searches: number;
  commentReads: number;
}

const FIELDS = ['summary', 'status', 'issuetype', 'parent', 'subtasks', 'assignee', 'comment'];
const PAGE = 100;

const q = (s: string) => `"${s.replace(/(["\\])/g, '\\$1')}"`;

/** The three queries of a round; the hosted service and jst-tracker both answer them (standard JQL only). */
export function roundQueries(project: string, s: StatusNames): { role: Role; jql: string; fields: string[] }[] {
  return [
    // (a), (d): what the executor's account holds, To Do or sent back.
    {
      role: 'executor',
      jql: `project = ${q(project)} AND assignee = currentUser() AND status in (${q(s.todo)}, ${q(s.inProgress)}) ORDER BY key ASC`,
      fields: FIELDS,
    },
    // (c) and the approved list: everything in review, whoever holds it.
    { role: 'reviewer', jql: `project = ${q(project)} AND status = ${q(s.inReview)} ORDER BY key ASC`, fields: FIELDS },
    // (b): parents not yet in review; their sub-tasks' statuses come with them (no comments: read only for a parent that is ready).
    { role: 'reviewer', jql: `project = ${q(project)} AND status in (${q(s.todo)}, ${q(s.inProgress)}) ORDER BY key ASC`, fields: ['status', 'subtasks'] },
  ];
}

/** Every page of one search; returns the issues and the number of calls it took. */
async function searchAll(client: TrackerClient, jql: string, fields: string[]): Promise<{ issues: Issue[]; calls: number }> {
  const issues: Issue[] = [];
  let calls = 0;
  let token: string | undefined;
  do {
    const page = await client.searchJql({ jql, fields, maxResults: PAGE, ...(token ? { nextPageToken: token } : {}) });
    calls += 1;
    issues.push(...(page.issues ?? []));
    token = page.isLast === true ? undefined : (page.nextPageToken ?? undefined);
  } while (token);
  return { issues, calls };
}

/**
 * The marker comments one role's account posted, oldest first (ARCHITECTURE §11: a marker counts
 * only from the account whose role posts it; the same text by anyone else is an ordinary comment).
 * The one place this module reads an author. Dispatch holds every role's credential, so each
 * role's account id comes from its own `/myself` (exact), where a single role's command resolves
 * the others' through phase/roles.ts.
 */
export function fromAccount(comments: readonly Comment[], accountId: string): { comment: Comment; at: number }[] {
  const out: { comment: Comment; at: number }[] = [];
  comments.forEach((comment, at) => {
    if (comment.author?.accountId === accountId) out.push({ comment, at });
  });
  return out;
}

/** What the markers on one issue say: its Run reports and verdicts (positions in the comment list), and its worktree. */
export interface Marks {
  runs: number[];
  verdicts: { at: number; kind: VerdictKind }[];
  worktree: string | null;
  prTarget: string | null;
}

/**
 * An issue's markers. Run reports count from the executor's account, and on a parent also from the
 * reviewer's (`jst review --open-parent-pr` posts the parent's); verdicts from the reviewer's; the
 * `PR target branch: … Worktree: …` line from the assigner's.
 */
export function marksOf(comments: readonly Comment[], ids: Accounts, isParent: boolean): Marks {
  const reporters = isParent ? [ids.executor, ids.reviewer] : [ids.executor];
  const runs = reporters
    .flatMap((id) => fromAccount(comments, id))
    .filter((c) => firstLine(commentPlain(c.comment)) === RUN_REPORT)
    .map((c) => c.at)
    .sort((a, b) => a - b);
  const verdicts = fromAccount(comments, ids.reviewer).flatMap(({ comment, at }) => {
    const v = verdictOf(commentPlain(comment));
    return v ? [{ at, kind: v.kind }] : [];
  });
  const target = prTargetFrom(commentsBy('assigner', ids.assigner, comments));
  return { runs, verdicts, worktree: target?.worktree ?? null, prTarget: target?.branch ?? null };
}

export const roundOf = (m: Marks): number => 1 + m.runs.length + m.verdicts.length;

/** The comments of an issue from a search answer, read in full only when the answer holds part of them. */
async function commentsOf(client: TrackerClient, issue: Issue, count: () => void): Promise<Comment[]> {
  const page = issue.fields.comment;
  if (page && (page.total === undefined || page.total <= page.comments.length)) return page.comments;
  count();
  return allComments(client, issue.key);
}

const hasSubtasks = (i: Issue) => (i.fields.subtasks ?? []).length > 0;

/** One round's searches and what they mean. */
export async function findWork(client: (role: Role) => TrackerClient, project: string, s: StatusNames, ids: Accounts): Promise<Found> {
  const [mine, inReview, open] = roundQueries(project, s);
  let commentReads = 0;
  const count = () => {
    commentReads += 1;
  };
  const [a, b, c] = await Promise.all([mine!, inReview!, open!].map((x) => searchAll(client(x.role), x.jql, x.fields)));
  const comments = new Map<string, Comment[]>();
  for (const [issues, role] of [
    [a!.issues, 'executor'],
    [b!.issues, 'reviewer'],
  ] as const) {
    for (const i of issues) comments.set(i.key, await commentsOf(client(role), i, count));
  }
  // (b) a parent whose sub-tasks are all Done: its comments from the executor's answer, else read.
  const readyParents = c!.issues.filter((i) => hasSubtasks(i) && (i.fields.subtasks ?? []).every((t) => t.fields?.status?.name === s.done));
  for (const p of readyParents) {
    if (!comments.has(p.key)) {
      count();
      comments.set(p.key, await allComments(client('reviewer'), p.key));
    }
  }
  const found = decide({ mine: a!.issues, inReview: b!.issues, readyParents, comments, ids, s });
  return { ...found, searches: a!.calls + b!.calls + c!.calls, commentReads };
}

export interface Seen {
  mine: Issue[];
  inReview: Issue[];
  readyParents: Issue[];
  comments: ReadonlyMap<string, readonly Comment[]>;
  ids: Accounts;
  s: StatusNames;
}

/** The hand-offs and the person's list, from the searches' answers (pure). */
export function decide(x: Seen): Omit<Found, 'searches' | 'commentReads'> {
  const candidates: Candidate[] = [];
  const waiting: Waiting[] = [];
  const rounds = new Map<string, number>();
  const marks = (i: Issue) => {
    const m = marksOf(x.comments.get(i.key) ?? [], x.ids, hasSubtasks(i));
    rounds.set(i.key, roundOf(m));
    return m;
  };
  const seen = new Set<string>();
  const add = (c: Candidate) => {
    if (!seen.has(c.key)) {
      seen.add(c.key);
      candidates.push(c);
    }
  };
  for (const i of x.mine) {
    const m = marks(i);
    const status = i.fields.status?.name ?? '';
    const lastRun = m.runs.at(-1) ?? -1;
    const lastVerdict = m.verdicts.at(-1);
    if (status === x.s.inProgress && lastVerdict?.kind === 'changes-requested' && lastVerdict.at > lastRun) {
      add({
        key: i.key,
        handOff: 'changes',
        role: 'executor',
        round: roundOf(m),
        worktree: m.worktree,
        why: `"${status}" with changes requested after its latest Run report`,
      });
    } else if (status === x.s.todo && !hasSubtasks(i)) {
      if (m.worktree)
        add({
          key: i.key,
          handOff: 'start',
          role: 'executor',
          round: roundOf(m),
          worktree: m.worktree,
          why: `"${status}", assigned to the executor, worktree ${m.worktree}`,
        });
      else
        waiting.push({
          key: i.key,
          why: `"${status}" but no "PR target branch: … Worktree: …" comment from the assigner: its worktree is not known`,
          command: null,
        });
    }
  }
  for (const p of x.readyParents) {
    const m = marks(p);
    const lastVerdict = m.verdicts.at(-1);
    if (lastVerdict?.kind === 'changes-requested' && lastVerdict.at > (m.runs.at(-1) ?? -1)) continue;
    add({
      key: p.key,
      handOff: 'parent-pr',
      role: 'reviewer',
      round: roundOf(m),
      worktree: m.worktree,
      why: `every sub-task is "${x.s.done}" and it has no pull request yet (it is "${p.fields.status?.name ?? ''}")`,
    });
  }
  for (const i of x.inReview) {
    const m = marks(i);
    const lastRun = m.runs.at(-1) ?? -1;
    const lastVerdict = m.verdicts.at(-1);
    if (lastRun >= 0 && lastRun > (lastVerdict?.at ?? -1)) {
      add({
        key: i.key,
        handOff: 'review',
        role: 'reviewer',
        round: roundOf(m),
        worktree: m.worktree,
        why: "its latest Run report is newer than the reviewer's latest verdict",
      });
    } else if (lastVerdict?.kind === 'approved') {
      waiting.push({ key: i.key, why: 'approved: waiting for the person', command: `jst done ${i.key} --yes ${i.key}` });
    }
  }
  return { candidates, waiting, rounds };
}
