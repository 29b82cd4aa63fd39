import { rolesHeldBy } from '../store/roles.js';
import type { ProjectRow } from '../store/store.js';
import { storeOf } from './store-access.js';
import type { Caller, Tracker } from './tracker.js';
import { hasConditions, type Standing } from './workflow.js';

/**
 * spec §3 rule 5, workflow conditions (the vendor's "User Is In Project Role"): what the caller
 * holds in a project, against which a transition's `only` is checked — its membership role
 * (`admin`, `member`) and the toolkit's project roles (`assigner`, `executor`, `reviewer`) the
 * project's `"roles"` names it for (ARCHITECTURE §5). The project roles are read only when the
 * workflow has a condition, so a workflow without one costs no read.
 */
export async function standingOf(tracker: Tracker, caller: Caller, project: ProjectRow, role: string | undefined): Promise<Standing> {
  const names = role === undefined ? [] : [role];
  if (!hasConditions(tracker.workflowOf(project))) return new Set(names);
  return new Set([...names, ...(await rolesHeldBy(storeOf(tracker), project.id, caller.user.id))]);
}

/** The standing from a project's roles already read (role → user id, as the issue page reads them). */
export function standingFrom(caller: Caller, role: string | undefined, roles: ReadonlyMap<string, number>): Standing {
  return new Set([...(role === undefined ? [] : [role]), ...[...roles].filter(([, userId]) => userId === caller.user.id).map(([name]) => name)]);
}
