/**
 * The marker comments (spec §1 rules 11–12, ARCHITECTURE §11): the first lines the three roles
 * write for each other, each with the role whose account it counts from. jst writes and reads them;
 * jst-tracker's board highlights them (ARCHITECTURE §12). One place for each literal and for how a
 * first line is matched, so a writer, a reader and the board can never disagree.
 */

/** The three roles, each acting through its own tracker account. */
export type Role = 'assigner' | 'executor' | 'reviewer';

export const PR_TARGET_MARKER = 'PR target branch:';
export const REPORT_MARKER = 'Assignment report';
export const TASK_MEMORY = 'Task memory';
export const RUN_REPORT = 'Run report';
export const REVIEW_TALLY = 'Review tally';
export const APPROVED = 'APPROVED — ';
export const CHANGES_REQUESTED = 'CHANGES REQUESTED — ';

/**
 * ARCHITECTURE §11: whose account each marker counts from. The same first line by any other
 * account is an ordinary comment (a verdict is any `APPROVED — ` / `CHANGES REQUESTED — ` line).
 */
export const MARKER_ROLE = {
  [PR_TARGET_MARKER]: 'assigner',
  [REPORT_MARKER]: 'assigner',
  [TASK_MEMORY]: 'executor',
  [RUN_REPORT]: 'executor',
  [REVIEW_TALLY]: 'reviewer',
  verdict: 'reviewer',
} as const satisfies Record<string, Role>;

export type Marker = keyof typeof MARKER_ROLE;

/**
 * Every marker with how its first line is matched: a `line` marker is the whole (trimmed) first
 * line, the rest of the comment following it; a `prefix` marker starts the first line and carries a
 * value after it (the branch and worktree, a verdict's summary). `kind` is the marker's stable name.
 */
export const MARKERS = [
  { kind: 'target', text: PR_TARGET_MARKER, match: 'prefix', role: MARKER_ROLE[PR_TARGET_MARKER] },
  { kind: 'assignment', text: REPORT_MARKER, match: 'line', role: MARKER_ROLE[REPORT_MARKER] },
  { kind: 'run', text: RUN_REPORT, match: 'line', role: MARKER_ROLE[RUN_REPORT] },
  { kind: 'memory', text: TASK_MEMORY, match: 'line', role: MARKER_ROLE[TASK_MEMORY] },
  { kind: 'tally', text: REVIEW_TALLY, match: 'line', role: MARKER_ROLE[REVIEW_TALLY] },
  { kind: 'approved', text: APPROVED, match: 'prefix', role: MARKER_ROLE.verdict },
  { kind: 'changes', text: CHANGES_REQUESTED, match: 'prefix', role: MARKER_ROLE.verdict },
] as const satisfies readonly { kind: string; text: string; match: 'line' | 'prefix'; role: Role }[];

export type MarkerSpec = (typeof MARKERS)[number];
export type MarkerKind = MarkerSpec['kind'];

/** The first line of a text, trimmed (a comment's plain text, a review body). */
export const firstLine = (text: string): string => (text.split(/\r?\n/, 1)[0] ?? '').trim();

/** The marker a first line is, or undefined: whoever wrote it (the caller checks the author's role). */
export function markerOfLine(line: string): MarkerSpec | undefined {
  const first = firstLine(line);
  return MARKERS.find((m) => (m.match === 'line' ? first === m.text : first.startsWith(m.text)));
}

export type VerdictKind = 'approved' | 'changes-requested';

export interface Verdict {
  kind: VerdictKind;
  summary: string;
  line: string;
}

/** `APPROVED — S` / `CHANGES REQUESTED — S`. */
export const verdictLine = (kind: VerdictKind, summary: string) => `${kind === 'approved' ? APPROVED : CHANGES_REQUESTED}${summary}`;

/** The verdict a text's first line states, or null (a review body or an issue comment alike). */
export function verdictOf(text: string): Verdict | null {
  const line = firstLine(text);
  if (line.startsWith(APPROVED)) return { kind: 'approved', summary: line.slice(APPROVED.length).trim(), line };
  if (line.startsWith(CHANGES_REQUESTED)) return { kind: 'changes-requested', summary: line.slice(CHANGES_REQUESTED.length).trim(), line };
  return null;
}

/** spec §1 rule 11: `PR target branch: <branch> Worktree: <absolute_path>`, as phase 1 posts it. */
export const prTargetLine = (branch: string, worktree: string) => `${PR_TARGET_MARKER} ${branch} Worktree: ${worktree}`;

/** A `PR target branch: <branch> [Worktree: <path>]` line read back (trimmed first), or null. */
export function parsePrTargetLine(line: string): { branch: string; worktree: string | null } | null {
  const m = /^PR target branch:\s*(\S+)(?:\s+Worktree:\s*(.+?))?\s*$/.exec(line.trim());
  return m ? { branch: m[1]!, worktree: m[2] ?? null } : null;
}
