import { bulletList, doc, heading, markdownToAdf, paragraph, type AdfBlock, type AdfDoc, type AdfNode } from '@jst/adf';
import type { PlanInput, WorkItem } from './plan-types.js';

/**
 * spec §1 rule 5: the clarified answers go into the issue description, as ADF with headings and
 * lists authored as nodes. Text is literal (spec §2), unless the plan file says `"markdown": true`
 * (ARCHITECTURE §7, §11): then scope and acceptance criteria are read as Markdown inside this
 * authored structure.
 */
export function issueDescription(plan: PlanInput, item: WorkItem, role: 'single' | 'parent' | 'subtask', runMarker: string): AdfDoc {
  const markdown = plan.markdown === true;
  return doc(
    heading(2, 'Request'),
    paragraph(plan.request),
    heading(2, 'Scope'),
    ...scopeBlocks(item.scope, markdown),
    heading(2, 'Acceptance criteria'),
    criteriaList(item.acceptanceCriteria, markdown),
    heading(2, 'Priority'),
    paragraph(plan.priority),
    ...(role === 'parent' ? [heading(2, 'Steps'), bulletList(...plan.steps.map((s) => s.summary))] : []),
    heading(2, 'Path'),
    paragraph(plan.path === 'hotfix' ? 'Hotfix: an emergency production fix, confirmed by the user.' : 'Planned work.'),
    // Lets a rerun find this issue if the run was cut off between the create and its journal entry.
    paragraph(`Planned by jst (${runMarker})`),
  );
}

/**
 * The scope's blocks. Markdown headings move two levels down (`#` → level 3, at most 6) so they sit
 * under the description's own level-2 "Scope" heading and never end its section early.
 */
export function scopeBlocks(scope: string, markdown: boolean): AdfBlock[] {
  if (!markdown) return [paragraph(scope)];
  return markdownToAdf(scope).content.map(
    (b: AdfNode) => (b.type === 'heading' ? { ...b, attrs: { level: Math.min(6, Number(b.attrs?.level) + 2) } } : b) as AdfBlock,
  );
}

/**
 * One bullet per criterion. In Markdown each criterion is one list item's Markdown (indented into
 * the item), so a block ADF does not allow in a list item degrades the way markdownToAdf does there.
 */
export function criteriaList(criteria: readonly string[], markdown: boolean): AdfBlock {
  if (!markdown) return bulletList(...criteria);
  const list = criteria.map((c) => `- ${c.replace(/\n/g, '\n  ')}`).join('\n');
  return markdownToAdf(list).content[0] as AdfBlock;
}
