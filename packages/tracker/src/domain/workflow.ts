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
  /**
   * spec §3 rule 5: the workflow condition, the names of which the caller must hold one (a
   * project role of `"roles"` or a membership role); absent = anyone who may transition.
   */
  only?: string[];
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
  transitions: { name: string; from?: string[]; to: string; only?: string[] }[];
}

/** `"workflow": {"kanban": true, "only": {"Done": ["reviewer"]}}`: the Kanban template with conditions by destination status. */
export interface KanbanSpec {
  kanban: true;
  only: Record<string, string[]>;
}

/** A project's workflow as a seed gives it: the plain `"kanban"`, the Kanban template with conditions, or explicit. */
export type SeedWorkflow = 'kanban' | KanbanSpec | WorkflowSpec;

/** The names a condition may hold (spec §3 rule 5): the toolkit's project roles, then the membership roles that may transition. */
export const CONDITION_NAMES = ['assigner', 'executor', 'reviewer', 'admin', 'member'] as const;
export const PROJECT_ROLE_NAMES: readonly string[] = ['assigner', 'executor', 'reviewer'];

/** What a caller holds in a project, for conditions: its membership role and the project roles it is named for. */
export type Standing = ReadonlySet<string>;

/** Jira numbers transitions 11, 21, 31… in the order the workflow lists them. */
const transitionId = (index: number) => String((index + 1) * 10 + 1);

/** The default Kanban template: four statuses, every status reachable from every other. */
export function kanbanWorkflow(only: Record<string, string[]> = {}): Workflow {
  const statuses: WorkflowStatus[] = [
    { name: 'To Do', category: 'new' },
    { name: 'In Progress', category: 'indeterminate' },
    { name: 'In Review', category: 'indeterminate' },
    { name: 'Done', category: 'done' },
  ];
  return {
    statuses,
    initial: 'To Do',
    transitions: statuses.map((s, i) => ({ id: transitionId(i), name: s.name, from: null, to: s.name, ...(only[s.name] ? { only: only[s.name] } : {}) })),
  };
}

/** The names of the Kanban template's statuses, in order. */
export const KANBAN_STATUSES: readonly string[] = kanbanWorkflow().statuses.map((s) => s.name);

/** Any seed form of a workflow, built. */
export function workflowOf(spec: SeedWorkflow): Workflow {
  if (spec === 'kanban') return kanbanWorkflow();
  return 'kanban' in spec ? kanbanWorkflow(spec.only) : compileWorkflow(spec);
}

/** True when some transition carries a condition (only then does a caller's standing matter). */
export function hasConditions(workflow: Workflow): boolean {
  return workflow.transitions.some((t) => t.only !== undefined);
}

/** spec §3 rule 5: the caller satisfies the transition's condition (one of its names), or it has none. */
export function satisfies(t: WorkflowTransition, standing: Standing): boolean {
  return t.only === undefined || t.only.some((name) => standing.has(name));
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
      ...(t.only ? { only: t.only } : {}),
    })),
  };
}

/** Transitions the workflow has from the current status, conditions aside; a transition into the current status is not offered. */
export function transitionsFrom(workflow: Workflow, current: string): WorkflowTransition[] {
  return workflow.transitions.filter((t) => t.to !== current && (t.from === null || t.from.includes(current)));
}

/** Transitions a user sees from the current status: those whose condition the caller's standing satisfies (spec §3 rule 5). */
export function availableTransitions(workflow: Workflow, current: string, standing: Standing): WorkflowTransition[] {
  return transitionsFrom(workflow, current).filter((t) => satisfies(t, standing));
}

/**
 * spec §3: a transition the workflow forbids from the current status surfaces as 400; so does
 * one whose condition the caller fails (rule 5), in the same words, as the vendor answers both.
 */
export function resolveTransition(workflow: Workflow, current: string, id: unknown, standing: Standing): WorkflowTransition {
  if (id === undefined || id === null || id === '') {
    throw new ApiError(400, ['Missing transition. Send {"transition":{"id":"<id>"}} with an id from GET …/transitions.']);
  }
  // Jira's ids are strings; a number is accepted as its text, anything else (object, array) is a 400.
  if (typeof id !== 'string' && typeof id !== 'number') {
    throw new ApiError(400, ['The transition id must be a string such as "21": send {"transition":{"id":"<id>"}}.']);
  }
  const wanted = String(id);
  const found = availableTransitions(workflow, current, standing).find((t) => t.id === wanted);
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
