import { bulletList, doc, heading, paragraph, type AdfDoc } from '@jst/adf';
import type { PlanInput, WorkItem } from './input.js';

/**
 * spec §1 rule 5: the clarified answers go into the issue description, as ADF with headings and
 * lists authored as nodes (never markdown in text).
 */
export function issueDescription(plan: PlanInput, item: WorkItem, role: 'single' | 'parent' | 'subtask', runMarker: string): AdfDoc {
  return doc(
    heading(2, 'Request'),
    paragraph(plan.request),
    heading(2, 'Scope'),
    paragraph(item.scope),
    heading(2, 'Acceptance criteria'),
    bulletList(...item.acceptanceCriteria),
    heading(2, 'Priority'),
    paragraph(plan.priority),
    ...(role === 'parent' ? [heading(2, 'Steps'), bulletList(...plan.steps.map((s) => s.summary))] : []),
    heading(2, 'Path'),
    paragraph(plan.path === 'hotfix' ? 'Hotfix: an emergency production fix, confirmed by the user.' : 'Planned work.'),
    // Lets a rerun find this issue if the run was cut off between the create and its journal entry.
    paragraph(`Planned by jst (${runMarker})`),
  );
}
