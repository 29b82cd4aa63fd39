import { firstLineText } from '@jst/adf';

/**
 * The comments the three roles leave for each other, found by their first line (spec §1 rules
 * 11–12, ARCHITECTURE §11). The board highlights them; the toolkit is what writes and reads them.
 */
const MARKERS: readonly { prefix: string; kind: string; label: string }[] = [
  { prefix: 'PR target branch:', kind: 'target', label: 'PR target' },
  { prefix: 'Assignment report', kind: 'assignment', label: 'Assignment report' },
  { prefix: 'Run report', kind: 'run', label: 'Run report' },
  { prefix: 'Task memory', kind: 'memory', label: 'Task memory' },
  { prefix: 'APPROVED — ', kind: 'approved', label: 'Approved' },
  { prefix: 'CHANGES REQUESTED — ', kind: 'changes', label: 'Changes requested' },
];

/** The marker a comment body (ADF JSON text) starts with, or undefined. */
export function markerOf(body: string): { kind: string; label: string } | undefined {
  let first: string;
  try {
    first = firstLineText(JSON.parse(body)).trimStart();
  } catch {
    return undefined;
  }
  return MARKERS.find((m) => first.startsWith(m.prefix));
}
