import { ApiError } from './errors.js';

export type StatusCategoryKey = 'new' | 'indeterminate' | 'done';

export interface WorkflowStatus {
  name: string;
  category: StatusCategoryKey;
}

export interface WorkflowTransition {
  /** Derived from the transition's position in the workflow, never a fixed constant. */
  id: string;
  name: string;
  /** null = a global transition, available from every status. */
  from: string[] | null;
  to: string;
}

export interface Workflow {
  statuses: WorkflowStatus[];
  initial: string;
  transitions: WorkflowTransition[];
}

/** The shape a seed file may give (ARCHITECTURE §5). */
export interface WorkflowSpec {
  statuses: { name: string; category?: StatusCategoryKey }[];
  initial?: string;
  transitions: { name: string; from?: string[]; to: string }[];
}

/** Jira numbers transitions 11, 21, 31… in the order the workflow lists them. */
const transitionId = (index: number) => String((index + 1) * 10 + 1);

/** The default Kanban template: four statuses, every status reachable from every other. */
export function kanbanWorkflow(): Workflow {
  const statuses: WorkflowStatus[] = [
    { name: 'To Do', category: 'new' },
    { name: 'In Progress', category: 'indeterminate' },
    { name: 'In Review', category: 'indeterminate' },
    { name: 'Done', category: 'done' },
  ];
  return {
    statuses,
    initial: 'To Do',
    transitions: statuses.map((s, i) => ({ id: transitionId(i), name: s.name, from: null, to: s.name })),
  };
}

/** Builds a workflow from its seed description; the seed validator has checked the names. */
export function compileWorkflow(spec: WorkflowSpec): Workflow {
  const statuses = spec.statuses.map((s, i, all) => ({
    name: s.name,
    category: s.category ?? (i === 0 ? 'new' : i === all.length - 1 ? 'done' : 'indeterminate'),
  }));
  return {
    statuses,
    initial: spec.initial ?? statuses[0]!.name,
    transitions: spec.transitions.map((t, i) => ({
      id: transitionId(i),
      name: t.name,
      from: t.from ?? null,
      to: t.to,
    })),
  };
}

/** Transitions a user sees from the current status; a transition into the current status is not offered. */
export function availableTransitions(workflow: Workflow, current: string): WorkflowTransition[] {
  return workflow.transitions.filter((t) => t.to !== current && (t.from === null || t.from.includes(current)));
}

/** spec §3: a transition the workflow forbids from the current status surfaces as 400. */
export function resolveTransition(workflow: Workflow, current: string, id: unknown): WorkflowTransition {
  if (id === undefined || id === null || id === '') {
    throw new ApiError(400, ['Missing transition. Send {"transition":{"id":"<id>"}} with an id from GET …/transitions.']);
  }
  // Jira's ids are strings; a number is accepted as its text, anything else (object, array) is a 400.
  if (typeof id !== 'string' && typeof id !== 'number') {
    throw new ApiError(400, ['The transition id must be a string such as "21": send {"transition":{"id":"<id>"}}.']);
  }
  const wanted = String(id);
  const found = availableTransitions(workflow, current).find((t) => t.id === wanted);
  if (!found) {
    throw new ApiError(400, [
      `Transition id '${wanted}' is not valid for this issue. Its status is '${current}'; list the available transitions with GET …/transitions.`,
    ]);
  }
  return found;
}

export function isGlobal(t: WorkflowTransition): boolean {
  return t.from === null;
}
