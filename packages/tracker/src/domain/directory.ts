import type { ProjectRow, UserRow } from '../store/store.js';
import { ApiError, notFound } from './errors.js';
import { rowIdOf } from './ids.js';
import type { ProjectRole } from './permissions.js';
import { storeOf } from './store-access.js';
import type { Caller, Tracker } from './tracker.js';

/** GET /user/search (spec §4 endpoint 9): by e-mail or name prefix, or by accountId; never both. */
export async function findUsers(
  tracker: Tracker,
  caller: Caller,
  q: { query?: string | undefined; accountId?: string | undefined; startAt: number; maxResults: number },
): Promise<UserRow[]> {
  if (q.query !== undefined && q.accountId !== undefined) throw new ApiError(400, ["Specify either 'query' or 'accountId', not both."]);
  if (q.query === undefined && q.accountId === undefined) throw new ApiError(400, ["One of 'query' or 'accountId' must be specified."]);
  if (q.accountId !== undefined) {
    const user = await storeOf(tracker).users.byAccountId(caller.site.id, q.accountId);
    return user && user.active && q.startAt === 0 && q.maxResults > 0 ? [user] : [];
  }
  const query = q.query!.trim();
  if (query === '') return [];
  return storeOf(tracker).users.search(caller.site.id, query, q.startAt, q.maxResults);
}

/** GET /user: a user of the caller's site by account id, active or not (undefined: none). */
export function userByAccountId(tracker: Tracker, caller: Caller, accountId: string): Promise<UserRow | undefined> {
  return storeOf(tracker).users.byAccountId(caller.site.id, accountId);
}

/** GET /project/search (spec §4 endpoint 3): only projects the caller is a member of. */
export function searchProjects(
  tracker: Tracker,
  caller: Caller,
  q: {
    query?: string | undefined;
    keys?: string[] | undefined;
    ids?: number[] | undefined;
    orderBy?: 'key' | 'name';
    descending?: boolean;
    startAt: number;
    maxResults: number;
  },
) {
  return storeOf(tracker).projects.forUser(caller.site.id, caller.user.id, q);
}

/** A project by key or id, visible to the caller; otherwise 404 as Jira says it. */
export async function visibleProject(tracker: Tracker, caller: Caller, idOrKey: string): Promise<{ project: ProjectRow; role: ProjectRole }> {
  // The project and the caller's role there in one read, as for a create (domain/issues.ts).
  const found = await storeOf(tracker).projects.withRole(
    /^\d+$/.test(idOrKey) ? { id: rowIdOf(idOrKey) ?? -1 } : { siteId: caller.site.id, key: idOrKey },
    caller.user.id,
  );
  if (!found || found.project.site_id !== caller.site.id || !found.role) throw notFound(`No project could be found with key '${idOrKey}'.`);
  return { project: found.project, role: found.role as ProjectRole };
}
