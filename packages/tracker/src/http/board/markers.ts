import { firstLineText } from '@jst/adf';
import { markerOfLine, type MarkerKind, type Role } from '@jst/protocol';

/**
 * The comments the three roles leave for each other, found by their first line (spec §1 rules
 * 11–12, ARCHITECTURE §11), each with the role whose account posts it. The board highlights them;
 * the toolkit is what writes and reads them. The vocabulary, the roles and how a first line is
 * matched are @jst/protocol's, the toolkit's own, so the board highlights exactly what jst counts.
 */
export interface BoardMarker {
  kind: MarkerKind;
  label: string;
  role: Role;
}

/** The badge a marker wears on the issue page: a line marker's own text, or a shorter name for one that carries a value. */
const LABELS: Partial<Record<MarkerKind, string>> = { target: 'PR target', approved: 'Approved', changes: 'Changes requested' };

/** The marker a comment body (ADF JSON text) starts with, or undefined; whoever wrote it. */
export function markerOf(body: string): BoardMarker | undefined {
  let first: string;
  try {
    first = firstLineText(JSON.parse(body));
  } catch {
    return undefined;
  }
  const found = markerOfLine(first);
  return found && { kind: found.kind, label: LABELS[found.kind] ?? found.text, role: found.role };
}

/** Who may write an issue's markers: the project's named roles, and the reporter and assignee. */
export interface MarkerAuthors {
  roles: ReadonlyMap<string, number>;
  reporterId: number;
  assigneeId: number | null;
}

/**
 * The marker a comment is highlighted as (ARCHITECTURE §11, §12): only when its author holds the
 * marker's role, so the same first line by anyone else is an ordinary comment. A project whose
 * seed names the role (ARCHITECTURE §5 `"roles"`): that account. Otherwise the reporter
 * for the assigner's markers, its assignee for the executor's, and no one for a verdict (the
 * tracker cannot tell a reviewer from anyone else).
 */
export function highlightedMarker(body: string, authorId: number, who: MarkerAuthors): BoardMarker | undefined {
  const marker = markerOf(body);
  if (!marker) return undefined;
  const named = who.roles.get(marker.role);
  const holder = named ?? (marker.role === 'assigner' ? who.reporterId : marker.role === 'executor' ? who.assigneeId : null);
  return holder !== null && holder === authorId ? marker : undefined;
}
