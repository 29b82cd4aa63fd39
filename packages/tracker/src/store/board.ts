import type { Store } from './store.js';

/**
 * The board's reads (http/board): what a project's sub-tasks look like, and a version of the
 * project's data that changes whenever anything the board shows changes. No rule is decided here.
 */

export interface SubtaskStatus {
  parent_id: number;
  status_id: number;
}

/** Every sub-task of a project as (parent, status): enough to count progress per parent. */
export function subtaskStatuses(store: Store, projectId: number): Promise<SubtaskStatus[]> {
  return store.kysely
    .selectFrom('issues')
    .select(['parent_id', 'status_id'])
    .where('project_id', '=', projectId)
    .where('parent_id', 'is not', null)
    .execute() as Promise<SubtaskStatus[]>;
}

/**
 * Numbers that move on every write to a project's issues or comments: an update raises an
 * issue's `version` (so the sum grows), a create raises the count and the highest id, a delete
 * lowers the count, a comment raises the comment count and its highest id. Two aggregate reads
 * over the project's indexes, one round trip each.
 */
export async function projectChangeMarks(store: Store, projectId: number): Promise<number[]> {
  const issues = await store.kysely
    .selectFrom('issues')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('version').as('v'), eb.fn.max('id').as('m')])
    .where('project_id', '=', projectId)
    .executeTakeFirstOrThrow();
  const comments = await store.kysely
    .selectFrom('comments')
    .innerJoin('issues', 'issues.id', 'comments.issue_id')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max('comments.id').as('m')])
    .where('issues.project_id', '=', projectId)
    .executeTakeFirstOrThrow();
  return [issues.n, issues.v, issues.m, comments.n, comments.m].map((x) => Number(x ?? 0));
}
