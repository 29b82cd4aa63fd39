/** The shapes of a settled plan, apart from how they are read (input.ts) or written out (description.ts). */

/** One unit of work: the single issue, the parent, or a sub-task. */
export interface WorkItem {
  summary: string;
  scope: string;
  acceptanceCriteria: string[];
}

/** The settled plan (ARCHITECTURE §7 plan file), after the clarify loop or from `--plan FILE`. */
export interface PlanInput extends WorkItem {
  request: string;
  priority: string;
  path: 'planned' | 'hotfix';
  /** Present and non-empty = multistep (always planned). */
  steps: WorkItem[];
  /** Scope and acceptance criteria are Markdown (plan file `"markdown": true`); absent = literal text. */
  markdown?: true;
}

/** The issue types the plan creates: the single issue or the parent, and one per step. */
export const TASK_TYPE = 'Task';
export const SUBTASK_TYPE = 'Subtask';
