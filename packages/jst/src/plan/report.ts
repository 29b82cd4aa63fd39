import { REPORT_MARKER } from '@jst/protocol';
import type { PlanInput } from './plan-file.js';
import type { Leaf } from './provision.js';

export interface ReportContext {
  plan: PlanInput;
  leaves: Leaf[];
  siteUrl: string;
  base: string;
  defaultBase: string;
  production: string | null;
}

/**
 * spec §1 rule 12: the Assignment report. First line is the literal marker phase 2 looks for;
 * then each key with its browse link, the scope decision and why, the base path and why, each
 * branch and worktree with its PR target. No blank lines, so it reads back line for line.
 */
export function assignmentReport(r: ReportContext): string {
  const [top, ...subs] = r.leaves;
  const lines = [REPORT_MARKER, `Request: ${oneLine(r.plan.request)}`];
  lines.push(
    subs.length
      ? `Scope decision: multistep, parent ${top!.key} with ${subs.length} sub-task${subs.length === 1 ? '' : 's'}, because the work was split into ${subs.length} separately deliverable steps`
      : `Scope decision: single-step, one issue ${top!.key}, because the work is one deliverable with no separate steps`,
  );
  lines.push(
    r.plan.path === 'hotfix'
      ? `Base path: hotfix from origin/${r.production}, because the user asked for an emergency production fix and confirmed it`
      : `Base path: planned, feature branch off ${r.base} (the default base branch), because this is not an emergency production fix`,
  );
  lines.push(`Priority: ${oneLine(r.plan.priority)}`);
  for (const leaf of r.leaves) {
    const label = leaf.role === 'subtask' ? 'Sub-task' : leaf.role === 'parent' ? 'Parent' : 'Issue';
    lines.push(`${label} ${leaf.key}: ${oneLine(leaf.summary)} ${r.siteUrl}/browse/${leaf.key}`);
    lines.push(`Branch ${leaf.branch}, worktree ${leaf.worktree}, PR target ${leaf.prTarget}`);
  }
  if (r.plan.path === 'hotfix') {
    lines.push(`Hotfix: after it lands on ${r.production}, the fix must still reach the default base branch ${r.defaultBase}.`);
  }
  lines.push(`Next: in each worktree the executor runs jst start (no issue key needed).`);
  return lines.join('\n');
}

/** spec §1 rule 13: one executor line per worktree. */
export function handOffLines(leaves: Leaf[]): string[] {
  return leaves.map((l) => `cd ${l.worktree} && jst start`);
}

const oneLine = (s: string) => s.replace(/\s*\n\s*/g, ' ').trim();
