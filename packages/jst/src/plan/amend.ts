import { madeIssue, type JournalData } from './plan-journal.js';
import type { PlanInput, WorkItem } from './plan-types.js';

/**
 * ARCHITECTURE §7, a corrected plan: may `next` finish the unfinished run recorded in the journal?
 * It may when everything the run has already made stays what it was made from:
 *
 * * the `request` is the same (it names the run, and every description holds it);
 * * once the top-level issue may exist: `path`, `markdown`, `priority` and whether there are steps
 *   at all are unchanged (they shape every description and branch), and so are its `summary`,
 *   `scope` and `acceptanceCriteria`;
 * * every step whose sub-task may exist keeps its place, `summary`, `scope` and
 *   `acceptanceCriteria` (its issue, branch and worktree are named after them).
 *
 * Steps not made yet may change, be added or be dropped; so may the fields of a step whose create
 * the tracker refused (nothing was made for it). An issue "may exist" once its create ran, unless
 * the tracker refused it. Returns null when compatible, else the first difference, in words.
 */
export function planDifference(recorded: JournalData, next: PlanInput, absent: ReadonlySet<string> = new Set()): string | null {
  const old = recorded.plan as PlanInput;
  const made = (id: string) => madeIssue(recorded, id) && !absent.has(id);
  if (old.request !== next.request) return `its "request" differs from the run's ${shown(old.request)}`;
  if (!made('top')) return null;
  const is = 'is already created';
  if (old.path !== next.path) return `"path" differs ("${old.path}" → "${next.path}"), and the top-level issue ${is}`;
  if (Boolean(old.markdown) !== Boolean(next.markdown)) return `"markdown" differs, and the top-level issue ${is}`;
  if (old.priority !== next.priority) return `"priority" differs (${shown(old.priority)} → ${shown(next.priority)}), and the top-level issue ${is} with it`;
  if (old.steps.length > 0 !== next.steps.length > 0)
    return next.steps.length ? `steps were added to a single-step plan whose issue ${is}` : `every step was removed from a multistep plan whose parent ${is}`;
  const top = itemDifference(old, next, '');
  if (top) return `${top} differs, and the top-level issue ${is}`;
  for (const [i, step] of old.steps.entries()) {
    if (!made(`sub${i + 1}`)) continue;
    const now = next.steps[i];
    if (now === undefined) return `steps[${i}] ${shown(step.summary)} is missing, and its sub-task ${is}`;
    const diff = itemDifference(step, now, `steps[${i}].`);
    if (diff) return `${diff} differs (was ${shown(step.summary)}), and that sub-task ${is}`;
  }
  return null;
}

/** The first field of an item that differs, as the plan file names it; null when none does. */
function itemDifference(a: WorkItem, b: WorkItem, prefix: string): string | null {
  if (a.summary !== b.summary) return `"${prefix}summary"`;
  if (a.scope !== b.scope) return `"${prefix}scope"`;
  if (JSON.stringify(a.acceptanceCriteria) !== JSON.stringify(b.acceptanceCriteria)) return `"${prefix}acceptanceCriteria"`;
  return null;
}

const shown = (s: string) => JSON.stringify(s.length > 60 ? `${s.slice(0, 60)}…` : s);

/**
 * The items whose create was cut off (`started`) and left no issue: the tracker holds none with
 * the run's marker for it, so a corrected plan may change them as if they were never begun.
 */
export async function issuesNeverMade(recorded: JournalData, find: (marker: string) => Promise<string | null>): Promise<Set<string>> {
  const absent = new Set<string>();
  for (const [step, rec] of Object.entries(recorded.steps)) {
    const id = /^(top|sub\d+):issue$/.exec(step)?.[1];
    if (id === undefined || rec.state === 'done' || !madeIssue(recorded, id)) continue;
    if ((await find(`jst${recorded.runId}${id}`)) === null) absent.add(id);
  }
  return absent;
}
